// swift-tools-version:6.0
import PackageDescription

// A suite mixing Swift Testing (@Test) and XCTest: robotci must discover and run both.
let package = Package(
    name: "SwiftTestingFixture",
    targets: [.testTarget(name: "SwiftTestingFixtureTests")]
)
