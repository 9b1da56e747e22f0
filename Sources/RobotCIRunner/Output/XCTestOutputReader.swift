import ProcessToolkit
import RobotCICore

/// Reads an XCTest bundle process's console: the `Test Case` lines give the order, the last
/// `Executed …` line the summary, and the exit status has the last word
/// (`OutputReaderCore` holds the rules). Lines name a test `Class.test`.
struct XCTestOutputReader: BundleOutputReading {
    var core: OutputReaderCore
    /// The last `Executed …` line: the whole process's counts, XCTest's own when it ended normally.
    private var summary: (executed: Int, skipped: Int, failures: Int)?

    init(batch: ReaderBatch) {
        core = OutputReaderCore(batch: batch, name: \.outputName)
    }

    mutating func read(line: Substring, at time: Double) -> [ReaderEffect] {
        var effects: [ReaderEffect] = [.log(line)]
        let event = XCTestLine(line)
        switch event {
        case .error(_, _, let test, _): core.doubtUnlessRunning(test)
        case .summary(let executed, let skipped, let failures): summary = (executed, skipped, failures)
        default: break
        }
        core.handle(event, line: line, at: time, into: &effects)
        return effects
    }

    /// XCTest has no event channel.
    mutating func read(event: Substring, at time: Double) -> [ReaderEffect] { [] }

    mutating func finish(end: ChildProcess.Termination, timedOut: Bool, now: Double) -> ReaderFinish {
        let summary = summary
        return core.finish(end: end, timedOut: timedOut, now: now, loneSkipped: { _ in summary?.skipped == 1 },
                           disagreement: { Self.disagreement(summary: summary, exitCode: $0, held: $1, doubted: $2) })
    }

    /// Why the held results cannot be trusted as a whole, or nil when XCTest's summary, the
    /// exit status and the result lines agree.
    static func disagreement(summary: (executed: Int, skipped: Int, failures: Int)?, exitCode: Int32,
                             held: [Attempt], doubted: Int) -> String? {
        let failed = held.filter { $0.outcome == .failed }.count
        let skipped = held.filter { $0.outcome == .skipped }.count
        if doubted > 0 { return "lines printed by the tests look like XCTest's own (\(doubted) tests in doubt)" }
        guard let summary else { return "the process ended (exit \(exitCode)) without XCTest's summary line" }
        if summary.executed != held.count || summary.skipped != skipped || (summary.failures == 0) != (failed == 0) || failed > summary.failures {
            return "XCTest's summary (\(summary.executed) executed, \(summary.skipped) skipped, \(summary.failures) failures) disagrees with the result lines (\(held.count) results, \(skipped) skipped, \(failed) failed)"
        }
        if (exitCode == 0) != (failed == 0) {
            return "the test process exited \(exitCode) but the result lines say \(failed) failed"
        }
        return nil
    }
}
