// swift-tools-version:6.0
import PackageDescription

// The bundled example: robot tests for the character app in `app/`, written with
// RobotKit and MockServer from the robotci package two folders up.
let package = Package(
    name: "CharacterApp",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "robotci", path: "../.."),
    ],
    targets: [
        .testTarget(
            name: "CharacterAppUITests",
            dependencies: [
                .product(name: "RobotKit", package: "robotci"),
                .product(name: "MockServer", package: "robotci"),
            ],
            // Read through #filePath (see Fixtures.swift), not bundled as resources.
            exclude: ["Fixtures"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
