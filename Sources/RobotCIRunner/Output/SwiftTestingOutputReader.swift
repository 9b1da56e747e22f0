import ProcessToolkit
import RobotCICore

/// Reads a Swift Testing bundle process: results come as JSON events on their own channel
/// (fd 3), which the tests cannot write to by printing, so the console is only the tests'
/// output. A test's verdict comes from structure (issues, a cancellation), and the exit
/// status still has a say (`OutputReaderCore` holds the rules). Events name a test by its
/// listed id.
struct SwiftTestingOutputReader: BundleOutputReading {
    var core: OutputReaderCore

    init(batch: ReaderBatch) {
        core = OutputReaderCore(batch: batch, name: \.test)
    }

    /// A line of the process's output: only the tests' output, results come on the event channel.
    mutating func read(line: Substring, at time: Double) -> [ReaderEffect] {
        var effects: [ReaderEffect] = [.log(line)]
        core.handle(.other, line: line, at: time, into: &effects)
        return effects
    }

    /// A line of Swift Testing's event stream.
    mutating func read(event: Substring, at time: Double) -> [ReaderEffect] {
        var effects: [ReaderEffect] = []
        for parsed in SwiftTestingEvent.parse(event) {
            let renamed = SwiftTestingEvent.renamed(parsed, plannedName)
            core.handle(renamed, line: nil, at: time, into: &effects)
        }
        return effects
    }

    /// The stream's id (`M.S/f()/F.swift:3:4`) as planned: overloads are listed with their
    /// location, every other test without it.
    private func plannedName(_ streamID: String) -> String {
        core.byOutputName[streamID] != nil ? streamID : SwiftTestingEvent.listedID(streamID)
    }

    /// The one test of a batch was skipped when its events said so.
    mutating func finish(end: ChildProcess.Termination, timedOut: Bool, now: Double) -> ReaderFinish {
        core.finish(end: end, timedOut: timedOut, now: now, loneSkipped: { $0.outcome == .skipped },
                    disagreement: { exitCode, held, _ in Self.disagreement(exitCode: exitCode, held: held) })
    }

    /// Swift Testing's events are their own channel; the exit status still has a say.
    static func disagreement(exitCode: Int32, held: [Attempt]) -> String? {
        let failed = held.contains { $0.outcome == .failed }
        return failed == (exitCode != 0) ? nil : "the test process exited \(exitCode) but the results say \(failed ? "a test failed" : "every test passed")"
    }
}
