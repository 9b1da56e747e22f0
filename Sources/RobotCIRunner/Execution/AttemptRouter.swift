import Foundation
import RobotCICore

/// The one place a finished attempt goes: recorded (journal, progress, report), then its
/// retry decided by the queue. Batches end here too: the queue takes back their unstarted
/// tests, and a test whose process died before it started, twice, is recorded as crashed.
final class AttemptRouter: @unchecked Sendable {
    let recorder: RunRecorder
    let queue: BatchSource
    let layout: ReportLayout
    /// `--max-failures`: tests failed for good after which the run stops (nil: never).
    let maxFailures: Int?
    private let lock = NSLock()
    private var failedForGood = 0

    init(recorder: RunRecorder, queue: BatchSource, layout: ReportLayout, maxFailures: Int? = nil) {
        self.recorder = recorder
        self.queue = queue
        self.layout = layout
        self.maxFailures = maxFailures
    }

    /// A test's attempt is known (from a driver, the moment it is).
    func attemptFinished(_ test: TestID, _ attempt: Attempt) {
        let failedForGood = recorder.record(test, attempt) { attempt in
            queue.attemptFinished(test, attempt: attempt)
        }
        guard failedForGood, let maxFailures else { return }
        let count = lock.withLock { () -> Int in
            self.failedForGood += 1
            return self.failedForGood
        }
        if count == maxFailures {
            stopRun("--max-failures \(maxFailures) reached (\(count) test\(count == 1 ? "" : "s") failed for good); robotci stopped the run before this test had a result")
        }
    }

    /// Stops the whole run early for `reason`: nothing new starts (on every machine of a
    /// queue), running batches are killed, and tests left without a result are `notRun`.
    func stopRun(_ reason: String) {
        guard RunInterruption.shared.stopEarly(reason) else { return }
        FileHandle.standardError.write(Data("robotci: stopping: \(reason.components(separatedBy: ";").first ?? reason)\n".utf8))
        queue.stopRun(reason: reason)
        ChildRegistry.shared.killAll()
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
