// swift-tools-version:5.9
import PackageDescription

// A fast test that hangs now and then (issue 41): on the attempt HANG_ON_ATTEMPT names it
// sleeps far past any deadline; otherwise it takes a few milliseconds.
let package = Package(
    name: "Hang",
    targets: [
        .testTarget(name: "HangTests"),
    ]
)
