import ProcessToolkit
import RobotCICore

/// What the XCTest and Swift Testing readers share: which test runs, its output and
/// failures, each result as it arrives, and the verdicts once the process has ended.
///
/// Test output shares the pipe with XCTest's own lines, so a line cannot prove it is
/// XCTest's. What can: the order XCTest writes in (a test's result line is the last one
/// for it before the next test starts; no test starts while another has no result), its
/// closing summary (`Executed N tests, with M failures`, the last one printed), and the
/// process's exit status. Results are therefore held until the process ends and reported
/// only when all three agree; otherwise the batch's doubtful tests run again one per
/// process, where the exit status is the verdict (`isolate`).
///
/// It only reads: every method returns what the batch must do as `ReaderEffect`s, and the
/// time an input arrived is passed in.
struct OutputReaderCore {
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

    let batch: ReaderBatch
    /// The name each test's lines use (XCTest: `Class.test`; Swift Testing: the listed id).
    private let names: [TestID: String]
    /// Tests by the name their output uses.
    private(set) var byOutputName: [String: [TestID]] = [:]
    private var started = Set<TestID>()
    private var current: Current?
    /// Finished attempts, held until the process ends and the batch's evidence agrees.
    private var held: [(test: TestID, attempt: Attempt)] = []
    /// Tests some line contradicted the order XCTest writes in (a start while another test
    /// had no result, a result or error naming a test that was not running).
    private var doubted = Set<TestID>()
    /// When the process last said something about a test (run clock).
    private var lastEvent: Double
    /// Each test's `--test-timeout` (its rule's, if one sets it).
    private let timeouts: [TestID: Double]

    /// `name`: the name a test's lines use.
    init(batch: ReaderBatch, name: (TestID) -> String) {
        self.batch = batch
        lastEvent = batch.start
        timeouts = Dictionary(batch.tests.map { ($0, batch.rules.testTimeout(for: $0)) }, uniquingKeysWith: { a, _ in a })
        names = Dictionary(batch.tests.map { ($0, name($0)) }, uniquingKeysWith: { a, _ in a })
        for id in batch.tests { byOutputName[name(id), default: []].append(id) }
    }

    /// The process is killed when the running test has taken its test timeout, or, between
    /// tests, when the silence since the last one has taken the next test's (it is blamed).
    func deadline() -> Double {
        if let c = current, c.result == nil { return c.start + timeout(c.id) }
        return lastEvent + timeoutInForce
    }

    /// The timeout the deadline counts now: the running test's, else the next test's.
    var timeoutInForce: Double {
        if let c = current, c.result == nil { return timeout(c.id) }
        return timeout(batch.tests.first { !started.contains($0) } ?? current?.id ?? batch.tests.first ?? TestID(""))
    }

    private func timeout(_ test: TestID) -> Double { timeouts[test] ?? batch.rules.testTimeout(for: test) }

    var unstarted: [TestID] { batch.tests.filter { !started.contains($0) } }
    var noTestStarted: Bool { started.isEmpty }

    /// An event about the batch's tests, at `time`. `line` is the console line the event came
    /// from (nil for Swift Testing's JSON).
    mutating func handle(_ event: XCTestLine, line: Substring?, at time: Double, into effects: inout [ReaderEffect]) {
        switch event {
        case .started(let name):
            lastEvent = time
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
            settleCurrent(into: &effects)
            started.insert(id)
            current = Current(id: id, start: lastEvent)
            keep(line)
        case .finished(let name, let status, let seconds):
            lastEvent = time
            guard var c = current, names[c.id] == name else {
                // A result for a test that is not the current one: not XCTest's order.
                if byOutputName[name] != nil { doubt(name) }
                return keep(line)
            }
            if let line { c.output.append(line) }
            c.result = (status, seconds, lastEvent)
            current = c
            // tearDown has run: the files the test left are its own.
            effects.append(.artifactsDue(c.id))
        case .error(let file, let lineNo, _, let message):
            keep(line)
            // corelibs XCTest reports thrown errors at `<EXPR>:0`, which is no location.
            let located = file != "<EXPR>" && lineNo > 0
            current?.failures.append(FailureMessage(file: located ? file : nil, line: located ? lineNo : nil, message: message))
            current?.issues += 1
        case .skipped(let file, let lineNo, _, let reason):
            keep(line)
            let located = !file.isEmpty && lineNo > 0
            current?.failures.append(FailureMessage(file: located ? file : nil, line: located ? lineNo : nil, message: reason))
            current?.cancelled = true
        case .summary, .other:
            keep(line)
        }
    }

    /// The files the running test left, moved by the batch after `.artifactsDue`.
    mutating func attach(_ artifacts: [Artifact], to test: TestID) {
        guard current?.id == test else { return }
        current?.artifacts += artifacts
    }

    /// A line naming `name` while another test runs (an error line, which XCTest only prints
    /// for the running test) is out of XCTest's order.
    mutating func doubtUnlessRunning(_ name: String) {
        if let c = current, name != names[c.id], byOutputName[name] != nil { doubt(name) }
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
    private mutating func settleCurrent(into effects: inout [ReaderEffect]) {
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
        if outcome == .failed { effects.append(.provisionalFailure(c.id, settled)) }
    }

    private func attempt(_ c: Current, outcome: AttemptOutcome, duration: Double, failures: [FailureMessage]) -> Attempt {
        var artifacts = c.artifacts
        if c.output.isTruncated { artifacts.append(Artifact(kind: .log, path: batch.logPath)) }
        return Attempt(number: batch.attempt, outcome: outcome, duration: duration, start: c.start,
                       placement: .init(shard: batch.shard, batch: batch.id),
                       evidence: .init(failures: failures, output: c.output.text, artifacts: artifacts))
    }

    /// After the process ended (at `now`): reports what the evidence supports and returns the
    /// tests to run again alone. The test running when the process died or was killed is
    /// crashed or timed out; a process silent past the timeout before any next test began
    /// (e.g. a hanging class `setUp`) blames the next test.
    ///
    /// The protocol's own evidence comes from the reader: `loneSkipped`, whether the one
    /// test of a batch was skipped; `disagreement`, why the held attempts cannot be trusted
    /// as a whole given the exit code and the number of tests in doubt (nil: they can).
    mutating func finish(end: ChildProcess.Termination, timedOut: Bool, now: Double,
                         loneSkipped: (Attempt) -> Bool,
                         disagreement: (_ exitCode: Int32, _ held: [Attempt], _ doubted: Int) -> String?) -> ReaderFinish {
        var effects: [ReaderEffect] = []
        settleCurrent(into: &effects)
        effects.append(.provisionalSettled)
        let blamed = blame(end: end, timedOut: timedOut, now: now, into: &effects)
        if batch.tests.count == 1, !blamed, let only = held.first {
            // One test, one process: how the process ended is the verdict, whatever its output says.
            let verdict = Self.byTermination(only.attempt, end: end, timedOut: timedOut, timeout: timeout(only.test),
                                             skipped: loneSkipped(only.attempt))
            effects.append(.report(only.test, verdict))
            return ReaderFinish(effects: effects, isolate: [])
        }
        var isolate = Set<TestID>()
        if case .exited(let code) = end, !blamed, !held.isEmpty {
            if let disagreement = disagreement(code, held.map(\.attempt), doubted.count) {
                effects.append(.log(Substring("robotci: \(disagreement); re-running the batch's \(held.count) tests one per process, where the exit status is the verdict")))
                isolate = Set(held.map(\.test))
            }
        } else if !held.isEmpty {
            // A crash or a kill: no summary came, so the line order alone vouched for the
            // results before it, and a test can print its own result line (or write its own
            // event) and then crash. They run again one per process.
            effects.append(.log(Substring("robotci: the process ended (\(end)) without its summary; re-running the \(held.count) results before it one per process, where the exit status is the verdict")))
            isolate = Set(held.map(\.test))
        }
        var again: [TestID] = []
        for (test, attempt) in held {
            if isolate.contains(test) {
                effects.append(.discard(test))
                again.append(test)
            } else {
                effects.append(.report(test, attempt))
            }
        }
        return ReaderFinish(effects: effects, isolate: again)
    }

    /// The run was stopped early and this process killed: the held results the line order
    /// vouches for are reported (no summary can come), the running test is `notRun`.
    mutating func finishStopped(reason: String) -> ReaderFinish {
        var effects: [ReaderEffect] = []
        settleCurrent(into: &effects)
        effects.append(.provisionalSettled)
        if let c = current { effects.append(.notRun(c.id, reason: reason)) }
        current = nil
        for (test, attempt) in held where !doubted.contains(test) { effects.append(.report(test, attempt)) }
        return ReaderFinish(effects: effects, isolate: [])
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

    /// Reports the crashed or timed-out test, if any; true when one was blamed.
    private mutating func blame(end: ChildProcess.Termination, timedOut: Bool, now: Double, into effects: inout [ReaderEffect]) -> Bool {
        if let c = current {
            current = nil
            if timedOut {
                let failure = FailureMessage(message: "timed out: still running after \(Int(timeout(c.id))) s (\(batch.rules.deadline(for: c.id).rule)); its process group was killed")
                effects.append(.report(c.id, attempt(c, outcome: .timedOut, duration: now - c.start, failures: c.failures + [failure])))
            } else {
                let crash = CrashSummary(output: c.output.text)
                let reason = crash.reason.map { "\($0) (" } ?? "("
                let failure = FailureMessage(file: crash.file, line: crash.line,
                                             message: "crashed: \(reason)the test process ended with \(end) while this test was running)")
                effects.append(.report(c.id, attempt(c, outcome: .crashed, duration: now - c.start, failures: c.failures + [failure])))
            }
            return true
        } else if timedOut, let first = batch.tests.first(where: { !started.contains($0) }) {
            started.insert(first)
            let c = Current(id: first, start: lastEvent)
            let failure = FailureMessage(message: "timed out: the process printed nothing for \(Int(timeout(first))) s before this test started (\(batch.rules.deadline(for: first).rule))")
            effects.append(.report(first, attempt(c, outcome: .timedOut, duration: now - lastEvent, failures: [failure])))
            return true
        }
        return false
    }
}
