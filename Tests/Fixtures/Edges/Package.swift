// swift-tools-version:6.2
import PackageDescription

// The edges of the plan and of a verdict (issue 36): names that Swift Testing lists but a
// naive parse of `--list-tests` drops (raw identifiers, overloads, parameterized, nested,
// extensions), a failing test followed by `exit(0)`, forged passes followed by a crash, a
// cancelled test, a display name that reads like a failure, and one class and test name in
// two modules. Each test's name ends in its true verdict: `Passes`, `Fails`, `Skipped` or `Crashes`.
let package = Package(
    name: "Edges",
    targets: [
        .testTarget(name: "EdgesTests", path: "Tests/EdgesTests"),
        .testTarget(name: "EdgesOtherTests", path: "Tests/EdgesOtherTests"),
        .testTarget(name: "EdgesExitTests", path: "Tests/EdgesExitTests"),
    ]
)
