// swift-tools-version:6.0
import PackageDescription

// Only Swift Testing, no XCTest at all: robotci must need no configuration for it.
let package = Package(
    name: "SwiftTestingOnly",
    targets: [.testTarget(name: "OnlyTests")]
)
