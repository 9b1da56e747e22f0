import Foundation
import ProcessToolkit
import RobotCICore

/// `driver: swift` (the default): a SwiftPM package's test bundle, XCTest and Swift Testing.
/// Results stream from the process's output (XCTest's console lines, Swift Testing's JSON
/// events), so a test is known to have started, passed or failed the moment it prints so,
/// and the test running when the process dies or hangs is the one blamed.
struct BundleDriver: TestDriver {
    let bundle: TestBundle
    /// The tests that belong to Swift Testing (another command line than XCTest's).
    let swiftTesting: Set<TestID>
    /// Swift Testing's tests and their tags (XCTest's tests have none), from the listing.
    let swiftTestingTags: [TestID: Set<String>]
    /// XCTest's tests whose `Class.test` (the only name XCTest's Linux output gives) another
    /// module shares: each module's run in batches of its own, so a line names one test.
    let clashingModules: [TestID: Int]

    static func discover(config: RunConfiguration, environment: [String: String],
                         say: @escaping (String) -> Void) throws -> (driver: BundleDriver, tests: [TestID]) {
        let package = SwiftPackage(path: config.package, configuration: config.buildConfiguration.rawValue, extraArguments: config.buildArguments)
        guard FileManager.default.fileExists(atPath: "\(config.package)/Package.swift") else {
            throw ConfigError("no Package.swift in '\(config.package)': pass --package with the path of the SwiftPM package to test, or set 'driver: command' in robotci.yml for another runner")
        }
        if !config.skipBuild {
            say("robotci: building \(config.package) (swift build --build-tests)…")
            try package.build(echo: say)
        }
        let bundle = try package.findBundle()
        let xctest = try bundle.listTests()
        let swiftTesting = try bundle.listSwiftTesting()
        let driver = BundleDriver(bundle: bundle, swiftTesting: Set(swiftTesting.tests), swiftTestingTags: swiftTesting.tags,
                                  clashingModules: Self.clashingModules(xctest))
        return (driver, xctest + swiftTesting.tests)
    }

    /// For each XCTest test whose output name another module's test shares, a number per module.
    static func clashingModules(_ tests: [TestID]) -> [TestID: Int] {
        let byName = Dictionary(grouping: tests, by: \.outputName).filter { $0.value.count > 1 }
        var modules: [String: Int] = [:]
        var out: [TestID: Int] = [:]
        for test in byName.values.joined() {
            let module = String(test.className.prefix { $0 != "." })
            if modules[module] == nil { modules[module] = modules.count }
            out[test] = modules[module]
        }
        return out
    }

    /// Swift Testing's tests run apart from XCTest's (another command line); XCTest tests
    /// whose `Class.test` another module shares run in batches of their module alone.
    func batchGroup(of test: TestID) -> Int {
        let own = TestID(test.test)
        if swiftTesting.contains(own) { return 1 }
        return clashingModules[own].map { 2 + $0 } ?? 0
    }

    var usesShardBrowser: Bool { true }

    /// Swift Testing's tests and their tags (XCTest's tests have none).
    func tags() throws -> [TestID: Set<String>] { swiftTestingTags }

    func run(_ batch: BatchRun) -> BatchOutcome {
        let isSwiftTesting = batch.item.tests.first.map { swiftTesting.contains($0) } ?? false
        // Swift Testing colours its console lines; escape codes only clutter stored output.
        if isSwiftTesting && batch.environment["NO_COLOR"] == nil { batch.environment["NO_COLOR"] = "1" }
        guard let child = batch.spawn(bundle.command(for: batch.item.tests, swiftTesting: isSwiftTesting),
                                      workingDirectory: bundle.workingDirectory, eventChannel: isSwiftTesting) else { return batch.spawnFailed() }
        let facts = ReaderBatch(batch)
        return isSwiftTesting ? read(batch, child, with: SwiftTestingOutputReader(batch: facts))
            : read(batch, child, with: XCTestOutputReader(batch: facts))
    }

    /// Pumps the child's output through `reader`, applying what it asks as it asks, then its
    /// decision once the process has ended.
    private func read<Reader: BundleOutputReading>(_ batch: BatchRun, _ child: ChildProcess, with reader: Reader) -> BatchOutcome {
        var reader = reader
        let (end, timedOut) = batch.pump(child, deadline: { reader.deadline() },
                                         handle: { line in
                                             let effects = reader.read(line: line, at: batch.clock.now())
                                             batch.apply(effects, to: &reader)
                                         },
                                         event: { line in
                                             let effects = reader.read(event: line, at: batch.clock.now())
                                             batch.apply(effects, to: &reader)
                                         })
        let termination = BatchEnd.deciding(end, timeout: timedOut ? .testTimeout(seconds: Int(reader.timeoutInForce)) : nil, stop: batch.stop)
        var isolate: [TestID] = []
        switch termination {
        case .stopped(.signal):
            break  // interrupted: the partial report says so; nothing is blamed on a test
        case .stopped(let stop):
            // Stopped by robotci (--max-failures, another machine): what finished before the
            // kill stands, the test it was running did not finish.
            let stopped = reader.finishStopped(reason: stop.notRunReason)
            batch.apply(stopped.effects, to: &reader)
            isolate = stopped.isolate
        default:
            let finished = reader.finish(end: end, timedOut: timedOut, now: batch.clock.now())
            batch.apply(finished.effects, to: &reader)
            isolate = finished.isolate
        }
        return BatchOutcome(record: batch.record(termination: termination), unstarted: reader.unstarted,
                            noTestStarted: reader.noTestStarted, isolate: isolate)
    }
}
