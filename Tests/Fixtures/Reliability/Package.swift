// swift-tools-version:5.9
import PackageDescription

// Tests for robotci's fault-injection suite (Tests/RobotCIEndToEndTests/ReliabilityTests.swift):
// slow tests that say which test runs in which process (so a killer can aim), a test
// whose grandchild escapes into its own session, port probes, and a quiet test.
// Outside that suite (no RELIABILITY_STATE) every test passes quickly.
let package = Package(
    name: "Reliability",
    targets: [
        .testTarget(name: "ReliabilityTests"),
    ]
)
