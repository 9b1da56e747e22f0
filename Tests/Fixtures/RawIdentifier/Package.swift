// swift-tools-version:6.2
import PackageDescription

// Swift Testing tests whose raw identifiers (SE-0451) read like robotci's text form of a
// repetition: `RawIdentifierEndToEndTests` runs, retries, merges and re-runs them as themselves.
let package = Package(
    name: "RawIdentifier",
    targets: [.testTarget(name: "RawIdentifierTests")]
)
