// swift-tools-version:6.0
import PackageDescription

// The second bundled example: robot tests for the list editor in `app/`, an action-heavy
// page (typing, double taps, keys, checkboxes, filters in the history), written with RobotKit
// and MockServer from the robotci package two folders up.
let package = Package(
    name: "ListEditor",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "robotci", path: "../.."),
    ],
    targets: [
        .testTarget(
            name: "ListEditorUITests",
            dependencies: [
                .product(name: "RobotKit", package: "robotci"),
                .product(name: "MockServer", package: "robotci"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
