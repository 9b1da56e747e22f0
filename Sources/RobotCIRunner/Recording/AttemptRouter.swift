import Foundation
import ProcessToolkit
import RobotCICore
import StandardStreams

/// The one place a finished attempt goes: recorded (journal, progress, report), then its
/// retry decided by the queue. Batches end here too: the queue takes back their unstarted
/// tests, and a test whose process died before it started, twice, is recorded as crashed.
final class AttemptRouter: Sendable {
    let recorder: RunRecorder
    let queue: BatchSource
    let layout: ReportLayout
    /// `--max-failures`: tests failed for good after which the run stops (nil: never).
    let maxFailures: Int?
    /// `--retries` and `rules:`: which failing attempts run again, the rest fail for good.
    let rules: TestRules
    /// `--until-failure`: the first test that fails for good ends the starting of repetitions.
    let untilFailure: Bool
    /// Whether the run is stopping, and why: this run's, shared with its batches.
    let interruption: RunInterruption

    /// The failures that count towards `--max-failures` and `--until-failure`.
    private struct Failures {
        var forGood = 0
        /// Final failures seen in running batches' output, not yet reported (results are held
        /// until a process ends): they count, so a batch is stopped at the failure that crosses N.
        var provisional: [Int: Int] = [:]
        /// With `untilFailure`: the repetition that failed first (the stop is made once).
        var first: TestID?

        var count: Int { forGood + provisional.values.reduce(0, +) }
    }

    private let failures = Locked(Failures())

    /// With `untilFailure`: the repetition that failed first.
    var firstFailure: TestID? { failures.withLock { $0.first } }

    /// What a finished attempt decides: whether it runs again, and when failures stop the run.
    struct Policy {
        /// `--retries` and `rules:`.
        var rules = TestRules(retries: 0)
        /// `--max-failures` (nil: never).
        var maxFailures: Int?
        /// `--until-failure`.
        var untilFailure = false
    }

    init(recorder: RunRecorder, queue: BatchSource, layout: ReportLayout, policy: Policy = Policy(),
         interruption: RunInterruption = RunInterruption()) {
        self.interruption = interruption
        self.rules = policy.rules
        self.untilFailure = policy.untilFailure
        self.recorder = recorder
        self.queue = queue
        self.layout = layout
        self.maxFailures = policy.maxFailures
    }

    /// A test's attempt is known (from a driver, the moment it is).
    func attemptFinished(_ test: TestID, _ attempt: Attempt) {
        let failedForGood = recorder.record(test, attempt) { attempt in
            queue.attemptFinished(test, attempt: attempt)
        }
        if failedForGood && untilFailure { stopRepetitions(failed: test) }
        guard failedForGood, let maxFailures else { return }
        let count = failures.withLock { f in
            f.forGood += 1
            return f.count
        }
        if count >= maxFailures { stopForFailures(maxFailures) }
    }

    /// A running batch's output says one of its tests failed for good (the result itself
    /// is reported when the process ends).
    func provisionalFailure(batch: Int, test: TestID) {
        guard let maxFailures, !recorder.isQuarantined(test) else { return }
        let count = failures.withLock { f in
            f.provisional[batch, default: 0] += 1
            return f.count
        }
        if count >= maxFailures { stopForFailures(maxFailures) }
    }

    /// The batch's results are about to be reported: its provisional failures stop counting.
    func provisionalSettled(batch: Int) {
        guard maxFailures != nil else { return }
        failures.withLock { _ = $0.provisional.removeValue(forKey: batch) }
    }

    /// Whether a failing `attempt` of `test` is its last (no retry left, or `retry-on` does
    /// not find its failure).
    func isFinalFailure(_ test: TestID, _ attempt: Attempt) -> Bool {
        attempt.outcome.isFailure && !rules.retries(test, after: attempt)
    }

    /// `--until-failure`: `test` failed for good, so no repetition begins any more; the ones
    /// begun finish (their tests are the run), the rest leave the run's plan. Only a recorded
    /// result stops it (never a running batch's provisional failure, which isolation may undo),
    /// so the failure it names is one the report shows.
    private func stopRepetitions(failed test: TestID) {
        let first: Bool = failures.withLock { f in
            guard f.first == nil else { return false }
            f.first = test
            return true
        }
        guard first else { return }
        let (dropped, begun) = queue.stopNewRepetitions()
        recorder.withdraw(dropped)
        StandardStream.error.write("robotci: --until-failure: \(test) failed; no new repetition starts "
            + "(\(begun) begun run to their end, \(dropped.count) test run\(dropped.count == 1 ? "" : "s") of later repetitions dropped)\n")
    }

    private func stopForFailures(_ maxFailures: Int) {
        stopRun(.maxFailures(maxFailures))
    }

    /// Stops the whole run early for `reason`: nothing new starts (on every machine of a
    /// queue, told the reason in words), running batches are killed, and tests left without
    /// a result are `notRun`.
    func stopRun(_ reason: RunStop) {
        guard interruption.stop(reason) else { return }
        StandardStream.error.write("robotci: stopping: \(reason.summary)\n")
        queue.stopRun(reason: reason.notRunReason)
        ChildRegistry.shared.killAll()
    }

    /// A batch's process is gone.
    func batchFinished(_ item: WorkItem, shard: Int, _ outcome: BatchOutcome) {
        recorder.record(outcome.record)
        queue.batchFinished(outcome.record)
        let interrupted = interruption.isInterrupted
        let givenUp = queue.finish(item, unstarted: interrupted ? [] : outcome.unstarted,
                                   noTestStarted: outcome.noTestStarted, isolate: interrupted ? [] : outcome.isolate)
        for test in givenUp {
            let failure = FailureMessage(message: "the test process ended (\(outcome.record.termination)) before this test started, twice; see the batch log")
            attemptFinished(test, Attempt(number: item.attempt, outcome: .crashed, duration: 0, start: outcome.record.start,
                                          placement: .init(shard: shard, batch: item.id),
                                          evidence: .init(
                                              failures: [failure],
                                              artifacts: [Artifact(kind: .log, path: layout.batchLogPath(item.id))])))
        }
    }
}
