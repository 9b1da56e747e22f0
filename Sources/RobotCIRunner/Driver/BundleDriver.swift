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
        let package = SwiftPackage(path: config.package, configuration: config.buildConfiguration, extraArguments: config.buildArguments)
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
        if swiftTesting.contains(test.base) { return 1 }
        return clashingModules[test.base].map { 2 + $0 } ?? 0
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
        var reader = BundleOutputReader(batch: batch, swiftTesting: isSwiftTesting)
        let (end, timedOut) = batch.pump(child, deadline: { reader.deadline() }, handle: { reader.handle($0) },
                                         event: { reader.handleEvent($0) })
        var termination = timedOut ? BatchEnd.testTimeout(seconds: Int(reader.timeoutInForce)) : BatchEnd(end)
        var isolate: [TestID] = []
        if let reason = batch.earlyStop {
            // Stopped by robotci (--max-failures): what finished before the kill stands, the
            // test it was running did not finish.
            termination = .stoppedEarly
            isolate = reader.finishStopped(reason: reason)
        } else if batch.isInterrupted {
            termination = .interrupted
        } else {
            isolate = reader.finish(end: end, timedOut: timedOut)
        }
        return BatchOutcome(record: batch.record(termination: termination), unstarted: reader.unstarted,
                            noTestStarted: reader.noTestStarted, isolate: isolate)
    }
}

/// Follows one bundle process's output: which test runs, its output and failures, and each
/// result line as it arrives; decides the batch's verdicts when the process has ended.
///
/// Test output shares the pipe with XCTest's own lines, so a line cannot prove it is
/// XCTest's. What can: the order XCTest writes in (a test's result line is the last one
/// for it before the next test starts; no test starts while another has no result), its
/// closing summary (`Executed N tests, with M failures`, the last one printed), and the
/// process's exit status. Results are therefore held until the process ends and reported
/// only when all three agree; otherwise the batch's doubtful tests run again one per
/// process, where the exit status is the verdict (`isolate`).
struct BundleOutputReader {
    /// The test that is running, or that printed its result and whose next test has not
    /// started yet (a later result line for it still wins: XCTest's own comes last).
    private struct Current {
        var id: TestID
        var start: Double
        var output = OutputBuffer()
        var failures: [FailureMessage] = []
        var result: (status: XCTestLine.Status, seconds: Double, at: Double)?
        var artifacts: [Artifact] = []
        /// Swift Testing: issues recorded for the test, and whether it was cancelled (its
        /// end event carries no verdict; these decide).
        var issues = 0
        var cancelled = false
    }

    private let batch: BatchRun
    private let swiftTesting: Bool
    /// Tests by the name their output uses (XCTest: `Class.test`; Swift Testing: the listed id).
    private var byOutputName: [String: [TestID]] = [:]
    private var started = Set<TestID>()
    private var current: Current?
    /// Finished attempts, held until the process ends and the batch's evidence agrees.
    private var held: [(test: TestID, attempt: Attempt)] = []
    /// Tests some line contradicted the order XCTest writes in (a start while another test
    /// had no result, a result or error naming a test that was not running).
    private var doubted = Set<TestID>()
    /// The last `Executed …` line: the whole process's counts, XCTest's own when it ended normally.
    private var summary: (executed: Int, skipped: Int, failures: Int)?
    /// When the process last said something about a test (run clock).
    private var lastEvent: Double
    /// Each test's `--test-timeout` (its rule's, if one sets it).
    private let timeouts: [TestID: Double]

    init(batch: BatchRun, swiftTesting: Bool) {
        self.batch = batch
        self.swiftTesting = swiftTesting
        lastEvent = batch.start
        timeouts = Dictionary(batch.item.tests.map { ($0, batch.testTimeout(for: $0)) }, uniquingKeysWith: { a, _ in a })
        for id in batch.item.tests { byOutputName[key(id), default: []].append(id) }
    }

    private func key(_ id: TestID) -> String { swiftTesting ? id.rawValue : id.outputName }

    /// The process is killed when the running test has taken its test timeout, or, between
    /// tests, when the silence since the last one has taken the next test's (it is blamed).
    func deadline() -> Double {
        if let c = current, c.result == nil { return c.start + timeout(c.id) }
        return lastEvent + timeoutInForce
    }

    /// The timeout the deadline counts now: the running test's, else the next test's.
    var timeoutInForce: Double {
        if let c = current, c.result == nil { return timeout(c.id) }
        return timeout(batch.item.tests.first { !started.contains($0) } ?? current?.id ?? batch.item.tests.first ?? TestID(""))
    }

    private func timeout(_ test: TestID) -> Double { timeouts[test] ?? batch.testTimeout(for: test) }

    var unstarted: [TestID] { batch.item.tests.filter { !started.contains($0) } }
    var noTestStarted: Bool { started.isEmpty }

    /// A line of the process's output. For Swift Testing it is only the tests' output:
    /// results come on the event channel.
    mutating func handle(_ line: Substring) {
        batch.log.write(line)
        handle(swiftTesting ? .other : XCTestLine(line), line: line)
    }

    /// A line of Swift Testing's event stream (its own channel, fd 3).
    mutating func handleEvent(_ line: Substring) {
        guard swiftTesting else { return }
        for event in SwiftTestingEvent.parse(line) { handle(SwiftTestingEvent.renamed(event, plannedName), line: nil) }
    }

    /// The stream's id (`M.S/f()/F.swift:3:4`) as planned: overloads are listed with their
    /// location, every other test without it.
    private func plannedName(_ streamID: String) -> String {
        byOutputName[streamID] != nil ? streamID : SwiftTestingEvent.listedID(streamID)
    }

    /// `line` is the console line the event came from (nil for Swift Testing's JSON).
    private mutating func handle(_ event: XCTestLine, line: Substring?) {
        switch event {
        case .started(let name):
            lastEvent = batch.clock.now()
            guard let id = byOutputName[name]?.first(where: { !started.contains($0) }) else {
                // A start for a test that is not in this batch, or that already started: output.
                if byOutputName[name] != nil { doubt(name) }
                return keep(line)
            }
            if let c = current, c.result == nil {
                // XCTest never starts a test before the running one's result line: printed by the test.
                doubted.insert(c.id)
                doubted.insert(id)
                return keep(line)
            }
            settleCurrent()
            started.insert(id)
            current = Current(id: id, start: lastEvent)
            keep(line)
        case .finished(let name, let status, let seconds):
            lastEvent = batch.clock.now()
            guard var c = current, key(c.id) == name else {
                // A result for a test that is not the current one: not XCTest's order.
                if byOutputName[name] != nil { doubt(name) }
                return keep(line)
            }
            if let line { c.output.append(line) }
            c.result = (status, seconds, lastEvent)
            // tearDown has run: the files the test left are its own.
            c.artifacts += batch.collectArtifacts(of: c.id)
            current = c
        case .error(let file, let lineNo, let test, let message):
            keep(line)
            if let c = current, !swiftTesting, test != key(c.id), byOutputName[test] != nil { doubt(test) }
            // corelibs XCTest reports thrown errors at `<EXPR>:0`, which is no location.
            let located = file != "<EXPR>" && lineNo > 0
            current?.failures.append(FailureMessage(file: located ? file : nil, line: located ? lineNo : nil, message: message))
            current?.issues += 1
        case .skipped(let file, let lineNo, _, let reason):
            keep(line)
            let located = !file.isEmpty && lineNo > 0
            current?.failures.append(FailureMessage(file: located ? file : nil, line: located ? lineNo : nil, message: reason))
            current?.cancelled = true
        case .summary(let executed, let skipped, let failures):
            keep(line)
            summary = (executed, skipped, failures)
        case .other:
            keep(line)
        }
    }

    /// A line named `name` out of XCTest's order: that test and the current one are in doubt.
    private mutating func doubt(_ name: String) {
        for id in byOutputName[name] ?? [] where started.contains(id) { doubted.insert(id) }
        if let c = current { doubted.insert(c.id) }
    }

    private mutating func keep(_ line: Substring?) {
        if let line { current?.output.append(line) }
    }

    /// The current test's result becomes its attempt (its next test has started, or the
    /// process ended).
    private mutating func settleCurrent() {
        guard let c = current, let result = c.result else { return }
        let outcome: AttemptOutcome
        switch result.status {
        case .passed: outcome = .passed
        case .failed: outcome = .failed
        case .skipped: outcome = .skipped
        // Swift Testing's verdict from structure: an issue fails the test, a cancellation skips it.
        case .ended: outcome = c.issues > 0 ? .failed : c.cancelled ? .skipped : .passed
        }
        var failures = c.failures
        // A passing test has no failures: error lines before its result line were its own output.
        if outcome == .passed { failures = [] }
        if outcome == .failed && failures.isEmpty { failures.append(FailureMessage(message: "test failed without an error message")) }
        let settled = attempt(c, outcome: outcome, duration: result.seconds, failures: failures)
        held.append((c.id, settled))
        current = nil
        if outcome == .failed { batch.provisionalFailure(c.id, settled) }
    }

    private func attempt(_ c: Current, outcome: AttemptOutcome, duration: Double, failures: [FailureMessage]) -> Attempt {
        var artifacts = c.artifacts
        if c.output.isTruncated { artifacts.append(Artifact(kind: .log, path: batch.logPath)) }
        return Attempt(number: batch.item.attempt, outcome: outcome, duration: duration, start: c.start,
                       shard: batch.shard, batch: batch.item.id, failures: failures, output: c.output.text,
                       artifacts: artifacts)
    }

    /// After the process ended: reports what the evidence supports and returns the tests to
    /// run again alone. The test running when the process died or was killed is crashed or
    /// timed out; a process silent past the timeout before any next test began (e.g. a
    /// hanging class `setUp`) blames the next test.
    mutating func finish(end: ChildProcess.Termination, timedOut: Bool) -> [TestID] {
        settleCurrent()
        batch.provisionalSettled()
        let blamed = blame(end: end, timedOut: timedOut)
        if batch.item.tests.count == 1, !blamed, let only = held.first {
            // One test, one process: how the process ended is the verdict, whatever its output says.
            let skipped = swiftTesting ? only.attempt.outcome == .skipped : summary?.skipped == 1
            report(only.test, Self.byTermination(only.attempt, end: end, timedOut: timedOut, timeout: timeout(only.test), skipped: skipped))
            return []
        }
        var isolate = Set<TestID>()
        if case .exited(let code) = end, !blamed, !held.isEmpty {
            if let disagreement = disagreement(exitCode: code) {
                batch.log.write(Substring("robotci: \(disagreement); re-running the batch's \(held.count) tests one per process, where the exit status is the verdict"))
                isolate = Set(held.map(\.test))
            }
        } else if !held.isEmpty {
            // A crash or a kill: no summary came, so the line order alone vouched for the
            // results before it, and a test can print its own result line (or write its own
            // event) and then crash. They run again one per process.
            batch.log.write(Substring("robotci: the process ended (\(end)) without its summary; re-running the \(held.count) results before it one per process, where the exit status is the verdict"))
            isolate = Set(held.map(\.test))
        }
        var again: [TestID] = []
        for (test, attempt) in held {
            if isolate.contains(test) {
                discard(test)
                again.append(test)
            } else {
                report(test, attempt)
            }
        }
        return again
    }

    /// The run was stopped early and this process killed: the held results the line order
    /// vouches for are reported (no summary can come), the running test is `notRun`.
    mutating func finishStopped(reason: String) -> [TestID] {
        settleCurrent()
        batch.provisionalSettled()
        if let c = current { batch.notRun(c.id, reason: reason) }
        current = nil
        for (test, attempt) in held where !doubted.contains(test) { report(test, attempt) }
        return []
    }

    /// Why the held results cannot be trusted as a whole, or nil when XCTest's summary, the
    /// exit status and the result lines agree.
    private func disagreement(exitCode: Int32) -> String? {
        if swiftTesting {
            // Swift Testing's events are their own channel; the exit status still has a say.
            let failed = held.contains { $0.attempt.outcome == .failed }
            return failed == (exitCode != 0) ? nil : "the test process exited \(exitCode) but the results say \(failed ? "a test failed" : "every test passed")"
        }
        let failed = held.filter { $0.attempt.outcome == .failed }.count
        let skipped = held.filter { $0.attempt.outcome == .skipped }.count
        if !doubted.isEmpty { return "lines printed by the tests look like XCTest's own (\(doubted.count) tests in doubt)" }
        guard let summary else { return "the process ended (exit \(exitCode)) without XCTest's summary line" }
        if summary.executed != held.count || summary.skipped != skipped || (summary.failures == 0) != (failed == 0) || failed > summary.failures {
            return "XCTest's summary (\(summary.executed) executed, \(summary.skipped) skipped, \(summary.failures) failures) disagrees with the result lines (\(held.count) results, \(skipped) skipped, \(failed) failed)"
        }
        if (exitCode == 0) != (failed == 0) {
            return "the test process exited \(exitCode) but the result lines say \(failed) failed"
        }
        return nil
    }

    /// A lone test's attempt with how its process ended as the verdict. A signal is a crash
    /// and a non-zero exit a failure, whatever the output said; a clean exit keeps what the
    /// test's own result said, except that it never turns a failure into a pass (a test that
    /// failed and then called `exit(0)` failed). `skipped` when the evidence says the one test
    /// was skipped: XCTest's own summary, its last line, or Swift Testing's event.
    static func byTermination(_ attempt: Attempt, end: ChildProcess.Termination, timedOut: Bool = false, timeout: Double = 0,
                              skipped: Bool) -> Attempt {
        var a = attempt
        let said = attempt.outcome.rawValue
        switch end {
        case _ where timedOut:
            a.outcome = .timedOut
            a.failures.append(FailureMessage(message: "timed out: its output said '\(said)', then the process hung until the test timeout (\(Int(timeout)) s) and its group was killed"))
        case .signaled(let signal):
            a.outcome = .crashed
            a.failures.append(FailureMessage(message: "crashed: the test process was killed by signal \(signal) after its output said '\(said)': output is not evidence, how the process ended is"))
        case .exited(0):
            if a.outcome == .failed { break }
            a.outcome = skipped && attempt.outcome == .skipped ? .skipped : .passed
            if a.outcome == .passed { a.failures = [] }
        case .exited(let code):
            if a.outcome != .failed {
                a.failures.append(FailureMessage(message: "the test process exited \(code) (a failure) although its output said '\(said)': output is not evidence, the exit status is"))
            }
            a.outcome = .failed
        }
        return a
    }

    private func report(_ test: TestID, _ attempt: Attempt) { batch.report(test, attempt) }

    /// An attempt that will run again alone: its files go, so the new run's are the only ones.
    private func discard(_ test: TestID) {
        try? FileManager.default.removeItem(at: batch.layout.directory.appendingPathComponent(batch.attemptDirectory(of: test)))
    }

    /// Reports the crashed or timed-out test, if any; true when one was blamed.
    private mutating func blame(end: ChildProcess.Termination, timedOut: Bool) -> Bool {
        if let c = current {
            let now = batch.clock.now()
            current = nil
            if timedOut {
                let failure = FailureMessage(message: "timed out: still running after \(Int(timeout(c.id))) s (\(batch.deadline(for: c.id).rule)); its process group was killed")
                report(c.id, attempt(c, outcome: .timedOut, duration: now - c.start, failures: c.failures + [failure]))
            } else {
                let crash = CrashSummary(output: c.output.text)
                let reason = crash.reason.map { "\($0) (" } ?? "("
                let failure = FailureMessage(file: crash.file, line: crash.line,
                                             message: "crashed: \(reason)the test process ended with \(end) while this test was running)")
                report(c.id, attempt(c, outcome: .crashed, duration: now - c.start, failures: c.failures + [failure]))
            }
            return true
        } else if timedOut, let first = batch.item.tests.first(where: { !started.contains($0) }) {
            started.insert(first)
            let c = Current(id: first, start: lastEvent)
            let failure = FailureMessage(message: "timed out: the process printed nothing for \(Int(timeout(first))) s before this test started (\(batch.deadline(for: first).rule))")
            report(first, attempt(c, outcome: .timedOut, duration: batch.clock.now() - lastEvent, failures: [failure]))
            return true
        }
        return false
    }
}
