import Foundation
import RobotCICore

/// The one place a finished attempt goes: recorded (journal, progress, report), then its
/// retry decided by the queue. Batches end here too: the queue takes back their unstarted
/// tests, and a test whose process died before it started, twice, is recorded as crashed.
final class AttemptRouter: @unchecked Sendable {
    let recorder: RunRecorder
    let queue: BatchSource
    let layout: ReportLayout

    init(recorder: RunRecorder, queue: BatchSource, layout: ReportLayout) {
        self.recorder = recorder
        self.queue = queue
        self.layout = layout
    }

    /// A test's attempt is known (from a driver, the moment it is).
    func attemptFinished(_ test: TestID, _ attempt: Attempt) {
        recorder.record(test, attempt) { attempt in
            queue.attemptFinished(test, attempt: attempt)
        }
    }

    /// A batch's process is gone.
    func batchFinished(_ item: WorkItem, shard: Int, _ outcome: BatchOutcome) {
        recorder.record(outcome.record)
        queue.batchFinished(outcome.record)
        let interrupted = RunInterruption.shared.isInterrupted
        let givenUp = queue.finish(item, unstarted: interrupted ? [] : outcome.unstarted,
                                   noTestStarted: outcome.noTestStarted, isolate: interrupted ? [] : outcome.isolate)
        for test in givenUp {
            let failure = FailureMessage(message: "the test process ended (\(outcome.record.termination)) before this test started, twice; see the batch log")
            attemptFinished(test, Attempt(number: item.attempt, outcome: .crashed, duration: 0, start: outcome.record.start,
                                          shard: shard, batch: item.id, failures: [failure],
                                          artifacts: [Artifact(kind: .log, path: layout.batchLogPath(item.id))]))
        }
    }
}
