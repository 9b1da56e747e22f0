// swift-tools-version:6.0
// The queue's fleet benchmark: simulated machines (threads) using robotci's real queue client
// against one real redis-server. Built on its own by `bench/queue/run`; not part of the main
// package's build.
import PackageDescription

let package = Package(
    name: "robotci-queue-bench",
    platforms: [.macOS(.v13)],
    dependencies: [.package(name: "robotci", path: "../..")],
    targets: [
        .executableTarget(
            name: "QueueFleet",
            dependencies: [
                .product(name: "RobotCIQueue", package: "robotci"),
                .product(name: "RobotCICore", package: "robotci"),
            ]),
    ],
    swiftLanguageModes: [.v6]
)
