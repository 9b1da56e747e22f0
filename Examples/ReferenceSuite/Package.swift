// swift-tools-version:6.2
import PackageDescription

// Robot tests written in the vocabulary of an iOS team's XCUITest + SwiftMockServer suite
// (UI tests on a UITestCase with a mock server per test; E2E robots against a staging backend), run on Linux
// against the example web app in ../CharacterApp/app. Only the imports and the app's
// location differ from the iOS originals.
// Xcode 26's default for new targets, which the references are written for (hence their
// `nonisolated class UITestCase`): code is main-actor isolated unless it says otherwise,
// so the `given…` scenarios run on the main actor with the @MainActor tests that call them.
let approachableConcurrency: [SwiftSetting] = [
    .defaultIsolation(MainActor.self),
]

let package = Package(
    name: "ReferenceSuite",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "robotci", path: "../.."),
    ],
    targets: [
        // Reference 000: UITestCase (MockServer per test), robots, scenarios, UI tests.
        .testTarget(
            name: "ReferenceUITests",
            dependencies: [
                .product(name: "RobotKit", package: "robotci"),
                .product(name: "MockServer", package: "robotci"),
            ],
            swiftSettings: approachableConcurrency
        ),
        // Reference 001: E2E robots and an XCTestCase DSL, against a backend of their own.
        .testTarget(
            name: "ReferenceE2ETests",
            dependencies: [
                .product(name: "RobotKit", package: "robotci"),
                .product(name: "MockServer", package: "robotci"),
            ],
            swiftSettings: approachableConcurrency
        ),
    ],
    swiftLanguageModes: [.v6]
)
