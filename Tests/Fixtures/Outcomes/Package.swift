// swift-tools-version:5.9
import PackageDescription

// A suite that produces every outcome robotci knows: passed, failed, flaky,
// crashed, timedOut, skipped, plus a test that floods its output.
let package = Package(
    name: "Outcomes",
    targets: [
        .target(name: "Outcomes"),
        .testTarget(name: "OutcomesTests", dependencies: ["Outcomes"]),
    ]
)
