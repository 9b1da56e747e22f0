import Foundation
import RobotCICore

/// `driver: swift` (the default): a SwiftPM package's test bundle, XCTest and Swift Testing.
/// Results stream from the process's output (XCTest's console lines, Swift Testing's JSON
/// events), so a test is known to have started, passed or failed the moment it prints so,
/// and the test running when the process dies or hangs is the one blamed.
struct BundleDriver: TestDriver {
    let bundle: TestBundle
    /// The tests that belong to Swift Testing (another command line than XCTest's).
    let swiftTesting: Set<TestID>

    static func discover(config: RunConfiguration, environment: [String: String],
                         say: @escaping (String) -> Void) throws -> (driver: BundleDriver, tests: [TestID]) {
        let package = SwiftPackage(path: config.package, configuration: config.buildConfiguration, extraArguments: config.buildArguments)
        guard FileManager.default.fileExists(atPath: "\(config.package)/Package.swift") else {
            throw ConfigError("no Package.swift in '\(config.package)': pass --package with the path of the SwiftPM package to test, or set 'driver: command' in robotci.yml for another runner")
        }
        if !config.skipBuild {
            say("robotci: building \(config.package) (swift build --build-tests)…")
            try package.build(echo: say)
        }
        let bundle = try package.findBundle()
        let swiftTesting = bundle.listSwiftTestingTests()
        let all = try bundle.listTests() + swiftTesting
        return (BundleDriver(bundle: bundle, swiftTesting: Set(swiftTesting)), all)
    }

    func batchGroup(of test: TestID) -> Int { swiftTesting.contains(test) ? 1 : 0 }

    var usesShardBrowser: Bool { true }

    func run(_ batch: BatchRun) -> BatchOutcome {
        let isSwiftTesting = batch.item.tests.first.map { swiftTesting.contains($0) } ?? false
        // Swift Testing colours its console lines; escape codes only clutter stored output.
        if isSwiftTesting && batch.environment["NO_COLOR"] == nil { batch.environment["NO_COLOR"] = "1" }
        guard let child = batch.spawn(bundle.command(for: batch.item.tests, swiftTesting: isSwiftTesting),
                                      workingDirectory: bundle.workingDirectory) else { return batch.spawnFailed() }
        var reader = BundleOutputReader(batch: batch, swiftTesting: isSwiftTesting)
        let testTimeout = batch.testTimeout
        let (end, timedOut) = batch.pump(child, deadline: { reader.deadline(testTimeout) }, handle: { reader.handle($0) })
        var termination = timedOut ? "killed (test timeout \(Int(testTimeout)) s)" : end.description
        if batch.isInterrupted {
            termination = "killed (interrupted)"
        } else {
            reader.blame(end: end, timedOut: timedOut)
        }
        return BatchOutcome(record: batch.record(termination: termination), unstarted: reader.unstarted,
                            noTestStarted: reader.noTestStarted)
    }
}

/// Follows one bundle process's output: which test runs, its output and failures, and each
/// result the moment its line arrives.
struct BundleOutputReader {
    /// The test that is running right now.
    private struct Running {
        var id: TestID
        var start: Double
        var output = OutputBuffer()
        var failures: [FailureMessage] = []
    }

    private let batch: BatchRun
    private let swiftTesting: Bool
    /// Tests by the name their output uses (XCTest: `Class.test`; Swift Testing: the listed id).
    private var byOutputName: [String: [TestID]] = [:]
    private var started = Set<TestID>()
    private var running: Running?
    /// When the process last said something about a test (run clock).
    private var lastEvent: Double

    init(batch: BatchRun, swiftTesting: Bool) {
        self.batch = batch
        self.swiftTesting = swiftTesting
        lastEvent = batch.start
        for id in batch.item.tests { byOutputName[key(id), default: []].append(id) }
    }

    private func key(_ id: TestID) -> String { swiftTesting ? id.rawValue : id.outputName }

    /// The process is killed when the running test (or, between tests, the silence since the
    /// last one) has taken `testTimeout`.
    func deadline(_ testTimeout: Double) -> Double { (running?.start ?? lastEvent) + testTimeout }

    var unstarted: [TestID] { batch.item.tests.filter { !started.contains($0) } }
    var noTestStarted: Bool { started.isEmpty }

    mutating func handle(_ line: Substring) {
        batch.log.write(line)
        if swiftTesting && line.hasPrefix(SwiftTestingEvent.prefix) {
            for event in SwiftTestingEvent.parse(line) { handle(event, line: nil) }
        } else {
            handle(XCTestLine(line), line: line)
        }
    }

    /// `line` is the console line the event came from (nil for Swift Testing's JSON).
    private mutating func handle(_ event: XCTestLine, line: Substring?) {
        switch event {
        case .started(let name):
            let now = batch.clock.now()
            lastEvent = now
            if let id = byOutputName[name]?.first(where: { !started.contains($0) }) {
                started.insert(id)
                running = Running(id: id, start: now)
                keep(line)
            } else {
                running = nil
            }
        case .finished(let name, let status, let seconds):
            lastEvent = batch.clock.now()
            guard var r = running, key(r.id) == name else { return }
            if let line { r.output.append(line) }
            let outcome: AttemptOutcome = status == .passed ? .passed : status == .failed ? .failed : .skipped
            if outcome == .failed && r.failures.isEmpty {
                r.failures.append(FailureMessage(message: "test failed without an error message"))
            }
            batch.report(r.id, attempt(r, outcome: outcome, duration: seconds))
            running = nil
        case .error(let file, let lineNo, _, let message):
            keep(line)
            // corelibs XCTest reports thrown errors at `<EXPR>:0`, which is no location.
            let located = file != "<EXPR>" && lineNo > 0
            running?.failures.append(FailureMessage(file: located ? file : nil, line: located ? lineNo : nil, message: message))
        case .skipped(let file, let lineNo, _, let reason):
            keep(line)
            let located = !file.isEmpty && lineNo > 0
            running?.failures.append(FailureMessage(file: located ? file : nil, line: located ? lineNo : nil, message: reason))
        case .other:
            keep(line)
        }
    }

    private mutating func keep(_ line: Substring?) {
        if let line { running?.output.append(line) }
    }

    private func attempt(_ r: Running, outcome: AttemptOutcome, duration: Double, extraFailure: FailureMessage? = nil) -> Attempt {
        var failures = r.failures
        if let extraFailure { failures.append(extraFailure) }
        var artifacts = batch.collectArtifacts(of: r.id)
        if r.output.isTruncated { artifacts.append(Artifact(kind: .log, path: batch.logPath)) }
        return Attempt(number: batch.item.attempt, outcome: outcome, duration: duration, start: r.start,
                       shard: batch.shard, batch: batch.item.id, failures: failures, output: r.output.text,
                       artifacts: artifacts)
    }

    /// After the process ended: the test that was running when it died or was killed is
    /// crashed or timed out; a process silent past the timeout before any next test began
    /// (e.g. a hanging class `setUp`) blames the next test.
    mutating func blame(end: ChildProcess.Termination, timedOut: Bool) {
        let testTimeout = batch.testTimeout
        if let r = running {
            let now = batch.clock.now()
            if timedOut {
                let failure = FailureMessage(message: "timed out: still running after \(Int(testTimeout)) s (--test-timeout); its process group was killed")
                batch.report(r.id, attempt(r, outcome: .timedOut, duration: now - r.start, extraFailure: failure))
            } else {
                let crash = CrashSummary(output: r.output.text)
                let reason = crash.reason.map { "\($0) (" } ?? "("
                let failure = FailureMessage(file: crash.file, line: crash.line,
                                             message: "crashed: \(reason)the test process ended with \(end) while this test was running)")
                batch.report(r.id, attempt(r, outcome: .crashed, duration: now - r.start, extraFailure: failure))
            }
            running = nil
        } else if timedOut, let first = batch.item.tests.first(where: { !started.contains($0) }) {
            started.insert(first)
            let r = Running(id: first, start: lastEvent)
            let failure = FailureMessage(message: "timed out: the process printed nothing for \(Int(testTimeout)) s before this test started (--test-timeout)")
            batch.report(first, attempt(r, outcome: .timedOut, duration: batch.clock.now() - lastEvent, extraFailure: failure))
        }
    }
}
