// swift-tools-version:5.9
import PackageDescription

// 31 tests for queue mode (many machines, one Redis queue): 27 that pass after a short
// sleep (QUEUE_SLEEP seconds, default 0.2), and one each that fails, is flaky, crashes,
// and is skipped.
let package = Package(
    name: "Queue",
    targets: [.testTarget(name: "QueueTests")]
)
