// swift-tools-version:5.9
import PackageDescription

// Tests whose own output looks like XCTest's markers: foreign start lines, fake
// passed/failed lines for themselves and others, partial lines and `\r` progress bars
// before the result line, an 8 MiB line, a fake summary. robotci must give each test the
// verdict XCTest itself gives (the names say which).
let package = Package(
    name: "Forgery",
    targets: [
        .testTarget(name: "ForgeryTests", path: "Tests/ForgeryTests"),
    ]
)
