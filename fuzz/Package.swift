// swift-tools-version:6.0
// libFuzzer targets for robotci's parsers. Built on its own (scratch path fuzz/.build) by
// `fuzz/run` or `make fuzz`; see README.md. Not part of the main package's build.
import PackageDescription

let package = Package(
    name: "robotci-fuzz",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "robotci", path: ".."),
        .package(url: "https://github.com/jpsim/Yams", from: "5.0.1"),  // the same Yams robotci uses
    ],
    targets: [
        .target(name: "FuzzSupport"),
        .executableTarget(
            name: "FuzzXCTestLine",
            dependencies: ["FuzzSupport", .product(name: "RobotCIRunner", package: "robotci")]),
        .executableTarget(
            name: "FuzzSwiftTestingEvent",
            dependencies: ["FuzzSupport", .product(name: "RobotCIRunner", package: "robotci")]),
        .executableTarget(
            name: "FuzzBundleOutputReader",
            dependencies: [
                "FuzzSupport", .product(name: "RobotCIRunner", package: "robotci"),
                .product(name: "RobotCICore", package: "robotci"),
            ]),
        .executableTarget(
            name: "FuzzJUnitReader",
            dependencies: [
                "FuzzSupport",
                .product(name: "RobotCIReport", package: "robotci"),
                .product(name: "RobotCICore", package: "robotci"),
            ]),
        .executableTarget(
            name: "FuzzScenario",
            dependencies: [
                "FuzzSupport", .product(name: "MockServer", package: "robotci"),
                .product(name: "Yams", package: "Yams"),
            ]),
    ],
    swiftLanguageModes: [.v6]
)
