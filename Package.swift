// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "robotci",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "robotci", targets: ["robotci"]),
        .library(name: "RobotKit", targets: ["RobotKit"]),
        .library(name: "MockServer", targets: ["MockServer"]),
        .library(name: "RobotCICore", targets: ["RobotCICore"]),
        .library(name: "WorkerContract", targets: ["WorkerContract"]),
        // For the fuzz package (fuzz/Package.swift), which can only depend on products.
        .library(name: "RobotCIRunner", targets: ["RobotCIRunner"]),
        .library(name: "RobotCIReport", targets: ["RobotCIReport"]),
        .library(name: "RobotCIQueue", targets: ["RobotCIQueue"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "5.0.1"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.65.0"),
    ],
    targets: [
        .executableTarget(name: "robotci", dependencies: ["RobotCICommands"]),
        // The subcommands and their options: `CLI.run(arguments)` returns the exit code.
        .target(
            name: "RobotCICommands",
            dependencies: [
                "RobotCIRunner", "RobotCICore", "RobotCIReport", "RobotCIQueue", "MockServer", "RobotCIInit", "StandardStreams", "WorkerContract",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // The worker contract: ROBOTCI_* names, artifact file names and kinds (no dependencies).
        .target(name: "WorkerContract"),
        .target(name: "RobotCICore", dependencies: ["WorkerContract"]),
        .target(
            name: "RobotCIRunner",
            dependencies: ["RobotCICore", "RobotCIReport", "RobotCIQueue", "WorkerContract", "ProcessToolkit", "LoopbackSockets", "BrowserTools", "StandardStreams", .product(name: "Yams", package: "Yams")]
        ),
        .target(name: "RobotCIReport", dependencies: ["RobotCICore", "WorkerContract", "CLibXML2", "Locks", "StandardStreams"]),
        .target(
            name: "MockServer",
            dependencies: [
                "Locks",
                "StandardStreams",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Yams", package: "Yams"),
                "WorkerContract",
            ]
        ),
        .target(name: "CProcessSupport"),
        // `StandardStream`: stdout and stderr written with write(2); Foundation's FileHandle.write traps on errors.
        .target(name: "StandardStreams"),
        // `Locked` and `LockedCondition`: the one lock type, for every module that shares state.
        .target(name: "Locks"),
        // Spawning and watching processes: ChildProcess, the child registry, /proc, namespaces.
        .target(name: "ProcessToolkit", dependencies: ["CProcessSupport", "Locks"]),
        // Ports on 127.0.0.1 / ::1 (free port, holder, probe) and the kernel's socket table.
        .target(name: "LoopbackSockets", dependencies: ["ProcessToolkit"]),
        // Finding Chromium and chromedriver, and starting chromedriver.
        .target(name: "BrowserTools", dependencies: ["ProcessToolkit", "LoopbackSockets", "CProcessSupport"]),
        // `robotci init`: a team's UI test target, robotci.yml and CI workflow, as Swift templates.
        .target(name: "RobotCIInit"),
        // Many machines, one queue: the Redis client (hiredis) and the queue protocol.
        .target(name: "RobotCIQueue", dependencies: ["RobotCICore", "CHiredis", "Locks"]),
        .target(name: "HTTPClient", dependencies: ["CLibCurl"]),
        .target(name: "RobotKit", dependencies: ["HTTPClient", "MockServer", "WorkerContract", "ProcessToolkit", "LoopbackSockets", "BrowserTools", "CProcessSupport", "StandardStreams", "SnapshotCompare"]),
        // Snapshot images: PNG in and out (libpng) and the perceptual comparison (YIQ distance, anti-aliasing).
        .target(name: "SnapshotCompare", dependencies: ["CLibPNG"]),
        .systemLibrary(
            name: "CLibXML2", pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"]), .brew(["libxml2"])]
        ),
        .systemLibrary(
            name: "CLibCurl", pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"]), .brew(["curl"])]
        ),
        .systemLibrary(
            name: "CLibPNG", pkgConfig: "libpng",
            providers: [.apt(["libpng-dev"]), .brew(["libpng"])]
        ),
        .systemLibrary(
            name: "CHiredis", pkgConfig: "hiredis",
            providers: [.apt(["libhiredis-dev"]), .brew(["hiredis"])]
        ),
        .testTarget(name: "RobotCIQueueTests", dependencies: ["RobotCIQueue", "RobotCICore", "TestSupport"]),
        // A real redis-server for the queue's unit and end-to-end tests.
        .target(name: "TestSupport", dependencies: ["ProcessToolkit", "LoopbackSockets"], path: "Tests/Support/TestSupport"),
        .testTarget(name: "RobotCICoreTests", dependencies: ["RobotCICore"]),
        .testTarget(name: "RobotCIRunnerTests", dependencies: ["RobotCIRunner", "RobotCICore", "WorkerContract", "TestSupport", "ProcessToolkit", "LoopbackSockets"]),
        .testTarget(name: "RobotCIReportTests", dependencies: ["RobotCIReport", "RobotCICore", "RobotKit", "SnapshotCompare", "ProcessToolkit", "LoopbackSockets", "BrowserTools"]),
        .testTarget(name: "RobotCIEndToEndTests", dependencies: ["RobotCICore", "RobotCIReport", "TestSupport"],
                    exclude: []),
        .testTarget(name: "RobotCIInitTests", dependencies: ["RobotCIInit"]),
        .testTarget(name: "RobotCICommandsTests", dependencies: ["RobotCICommands", "RobotCICore", "RobotCIRunner"]),
        .testTarget(name: "MockServerTests", dependencies: ["MockServer", "ProcessToolkit", "LoopbackSockets"]),
        .testTarget(name: "RobotKitTests", dependencies: ["RobotKit", "MockServer", "HTTPClient", "ProcessToolkit", "LoopbackSockets", "BrowserTools", "WorkerContract"]),
        .testTarget(name: "ProcessToolkitTests", dependencies: ["ProcessToolkit", "LoopbackSockets", "BrowserTools"]),
        .testTarget(name: "HTTPClientTests", dependencies: ["HTTPClient", "MockServer"]),
        .testTarget(name: "SnapshotCompareTests", dependencies: ["SnapshotCompare"]),
    ],
    swiftLanguageModes: [.v6]
)
