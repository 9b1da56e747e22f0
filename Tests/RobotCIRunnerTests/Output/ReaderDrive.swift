import ProcessToolkit
import RobotCICore
@testable import RobotCIRunner

/// A reader driven alone: lines and events fed at times the test picks, every effect kept in
/// order. No `BatchRun`, no router, no files.
struct ReaderDrive<Reader: BundleOutputReading> {
    var reader: Reader
    /// Every effect the reader returned, in order (the finish's included).
    private(set) var effects: [ReaderEffect] = []
    /// The run clock: each input arrives `step` seconds after the one before.
    private(set) var time: Double
    let step: Double

    init(_ reader: Reader, start: Double, step: Double = 1) {
        self.reader = reader
        time = start
        self.step = step
    }

    /// The batch's facts for `tests`: batch 7, attempt 1, started at `start`.
    static func facts(_ tests: [TestID], start: Double = 100, rules: TestRules = TestRules(retries: 0, testTimeout: 30)) -> ReaderBatch {
        ReaderBatch(item: WorkItem(id: 7, tests: tests, attempt: 1), shard: 2, logPath: "batches/7.log", start: start, rules: rules)
    }

    /// Lines of the process's output; returns their effects.
    @discardableResult
    mutating func feed(_ lines: [String]) -> [ReaderEffect] {
        var out: [ReaderEffect] = []
        for line in lines {
            time += step
            out += reader.read(line: Substring(line), at: time)
        }
        effects += out
        return out
    }

    /// Lines of the event channel; returns their effects.
    @discardableResult
    mutating func feedEvents(_ lines: [String]) -> [ReaderEffect] {
        var out: [ReaderEffect] = []
        for line in lines {
            time += step
            out += reader.read(event: Substring(line), at: time)
        }
        effects += out
        return out
    }

    /// No input for `seconds`.
    mutating func wait(_ seconds: Double) { time += seconds }

    /// The process ended now.
    mutating func end(_ end: ChildProcess.Termination, timedOut: Bool = false) -> ReaderFinish {
        let finished = reader.finish(end: end, timedOut: timedOut, now: time)
        effects += finished.effects
        return finished
    }

    /// Each reported test with its attempt, in the order reported.
    var reports: [(test: TestID, attempt: Attempt)] {
        effects.compactMap { if case .report(let test, let attempt) = $0 { (test, attempt) } else { nil } }
    }

    /// The one reported attempt of `test` (nil when none; a second report is a failure of the test).
    func attempt(_ test: TestID) -> Attempt? {
        let found = reports.filter { $0.test == test }
        return found.count == 1 ? found[0].attempt : nil
    }

    /// What each test was reported as (nil: nothing reported).
    func outcomes(_ tests: [TestID]) -> [AttemptOutcome?] { tests.map { attempt($0)?.outcome } }

    /// The batch-log lines robotci itself wrote (its notes, not the process's lines).
    var notes: [String] {
        effects.compactMap { if case .log(let line) = $0, line.hasPrefix("robotci: ") { String(line) } else { nil } }
    }
}
