import Foundation
import RobotCICore
@testable import RobotCIRunner
import XCTest

/// Where a finished attempt goes: its retry decision (`--retries`, `rules:`, `retry-on`),
/// `--max-failures`, repetitions, and what a finished batch leaves (unstarted, isolated and
/// never-launched tests). One thread: every batch is finished before the next is asked for.
final class AttemptRouterTests: XCTestCase {
    private let a = TestID("M.C/testA"), b = TestID("M.C/testB"), c = TestID("M.C/testC"), d = TestID("M.C/testD")

    private func next(_ f: RunFixture, shard: Int = 0, file: StaticString = #filePath, line: UInt = #line) throws -> WorkItem {
        try XCTUnwrap(f.queue.next(shard: shard), "no batch left", file: file, line: line)
    }

    /// Ends `item`'s process: `exit 0`, or `signal 6` when it `crashed`.
    private func finish(_ f: RunFixture, _ item: WorkItem, shard: Int = 0, crashed: Bool = false, unstarted: [TestID] = [],
                        noTestStarted: Bool = false, isolate: [TestID] = []) {
        let record = BatchRecord(id: item.id, shard: shard, start: 1, end: 2, tests: item.tests,
                                 termination: crashed ? .signaled(6) : .exited(0))
        f.router.batchFinished(item, shard: shard, BatchOutcome(record: record, unstarted: unstarted, noTestStarted: noTestStarted,
                                                               isolate: isolate))
    }

    private func record(_ result: RunResult, _ id: TestID, file: StaticString = #filePath, line: UInt = #line) throws -> TestRecord {
        try XCTUnwrap(result.tests.first { $0.id == id }, "\(id) is not in the run", file: file, line: line)
    }

    // MARK: retries

    func testAFailureWithARetryLeftRunsAgainAloneAtTheNextAttemptAndThenPassesAsFlaky() throws {
        let f = try RunFixture(tests: [a, b], rules: TestRules(retries: 2))
        let first = try next(f)
        XCTAssertEqual(first.tests, [a, b])
        f.router.attemptFinished(a, Attempts.failed(1))
        f.router.attemptFinished(b, Attempts.passed(1))
        finish(f, first)

        let retry = try next(f)
        XCTAssertEqual(retry.tests, [a], "a retry runs alone")
        XCTAssertEqual(retry.attempt, 2)
        f.router.attemptFinished(a, Attempts.passed(2))
        finish(f, retry)
        XCTAssertNil(f.queue.next(shard: 0), "a pass earns no retry")

        let result = f.result()
        XCTAssertEqual(try record(result, a).outcome, .flaky)
        XCTAssertEqual(try record(result, a).attempts.map(\.number), [1, 2])
        XCTAssertEqual(try record(result, b).outcome, .passed)
        XCTAssertEqual(result.counts.failing, 0, "flaky does not fail the run")
    }

    func testTheFailureOnTheLastRetryIsFinal() throws {
        let f = try RunFixture(tests: [a], rules: TestRules(retries: 1))
        XCTAssertFalse(f.router.isFinalFailure(a, Attempts.failed(1)), "one retry left")
        XCTAssertTrue(f.router.isFinalFailure(a, Attempts.failed(2)), "--retries 1: attempt 2 is the last")

        let first = try next(f)
        f.router.attemptFinished(a, Attempts.failed(1))
        finish(f, first)
        let retry = try next(f)
        XCTAssertEqual(retry.attempt, 2)
        f.router.attemptFinished(a, Attempts.failed(2))
        finish(f, retry)
        XCTAssertNil(f.queue.next(shard: 0), "no third attempt")

        let recorded = try record(f.result(), a)
        XCTAssertEqual(recorded.outcome, .failed)
        XCTAssertEqual(recorded.attempts.map(\.outcome), [.failed, .failed])
    }

    func testWithoutRetriesEveryKindOfFailureIsFinalAndNoPassOrSkipIs() throws {
        let f = try RunFixture(tests: [a])
        for outcome in [AttemptOutcome.failed, .crashed, .timedOut] {
            XCTAssertTrue(f.router.isFinalFailure(a, Attempts.failed(1, outcome: outcome)), "\(outcome)")
        }
        XCTAssertFalse(f.router.isFinalFailure(a, Attempts.passed(1)))
        XCTAssertFalse(f.router.isFinalFailure(a, Attempt(number: 1, outcome: .skipped, duration: 0, start: 0, placement: .init(shard: 0, batch: 0))))
    }

    func testARuleGivesItsTestsTheirOwnRetriesAndRetryOnPicksWhichFailuresRunAgain() throws {
        let rules = try TestRules(retries: 3, testTimeout: 300, rules: [TestRule(match: "/testA$", retries: 1, retryOn: "timed out|ECONNRESET")])
        let f = try RunFixture(tests: [a, b], rules: rules)
        let hang = Attempts.failed(1, "timed out: still running after 300 s (--test-timeout)", outcome: .timedOut)
        XCTAssertFalse(f.router.isFinalFailure(a, hang), "retry-on finds 'timed out'")
        XCTAssertTrue(f.router.isFinalFailure(a, Attempts.failed(1, "XCTAssertEqual failed: (\"1\") is not equal to (\"2\")")),
                      "an assertion is not what retry-on retries")
        XCTAssertTrue(f.router.isFinalFailure(a, Attempts.failed(2, "read: ECONNRESET")), "the rule's 1 retry, not the global 3")
        XCTAssertFalse(f.router.isFinalFailure(b, Attempts.failed(3, "anything")), "no rule: the global 3 retries, any failure")
        XCTAssertTrue(f.router.isFinalFailure(b, Attempts.failed(4, "anything")))

        // The queue follows the same decision.
        let first = try next(f)
        f.router.attemptFinished(a, hang)
        f.router.attemptFinished(b, Attempts.passed(1))
        finish(f, first)
        let retry = try next(f)
        XCTAssertEqual(retry.tests, [a])
        XCTAssertEqual(retry.attempt, 2)
        f.router.attemptFinished(a, Attempts.failed(2, "read: ECONNRESET"))
        finish(f, retry)
        XCTAssertNil(f.queue.next(shard: 0))
        XCTAssertEqual(try record(f.result(), a).outcome, .failed)
    }

    func testARepetitionIsRetriedUnderItsOwnIDByItsTestsRule() throws {
        let rules = try TestRules(retries: 0, testTimeout: 300, rules: [TestRule(match: "/testA$", retries: 1)])
        let plan = TestID.repeating([a], count: 2)
        let f = try RunFixture(tests: plan, rules: rules)
        let rep1 = a.repetition(1, of: 2), rep2 = a.repetition(2, of: 2)
        XCTAssertFalse(f.router.isFinalFailure(rep1, Attempts.failed(1)), "the rule matches the repetition's test")

        let first = try next(f)
        XCTAssertEqual(first.tests, [rep1], "one repetition per batch")
        f.router.attemptFinished(rep1, Attempts.failed(1))
        finish(f, first)
        let retry = try next(f)
        XCTAssertEqual(retry.tests, [rep1], "the retry is of repetition 1, not of the test")
        XCTAssertEqual(retry.attempt, 2)
        f.router.attemptFinished(rep1, Attempts.passed(2))
        finish(f, retry)
        let second = try next(f)
        XCTAssertEqual(second.tests, [rep2])
        f.router.attemptFinished(rep2, Attempts.passed(1))
        finish(f, second)
        XCTAssertNil(f.queue.next(shard: 0))

        let result = f.result()
        XCTAssertEqual(result.tests.map(\.id), [rep1, rep2])
        XCTAssertEqual(result.tests.map(\.outcome), [.flaky, .passed])
        XCTAssertEqual(f.recorder.highestRepetition, 2)
    }

    // MARK: finished batches

    func testAFinishedBatchIsRecordedAndItsUnstartedTestsRunAgain() throws {
        let f = try RunFixture(tests: [a, b, c])
        let first = try next(f)
        XCTAssertEqual(first.tests, [a, b, c])
        f.router.attemptFinished(a, Attempts.passed(1))
        finish(f, first, crashed: true, unstarted: [b, c])

        let again = try next(f)
        XCTAssertEqual(again.tests, [b, c], "a first run's leftovers stay one batch")
        XCTAssertEqual(again.attempt, 1, "never started: not a retry")
        f.router.attemptFinished(b, Attempts.passed(1))
        f.router.attemptFinished(c, Attempts.passed(1))
        finish(f, again)
        XCTAssertNil(f.queue.next(shard: 0))

        let result = f.result()
        XCTAssertEqual(result.tests.map(\.outcome), [.passed, .passed, .passed])
        XCTAssertEqual(result.batches.map(\.id), [first.id, again.id])
        XCTAssertEqual(result.batches.map(\.termination), [.signaled(6), .exited(0)])
    }

    func testATestWhoseProcessDiesBeforeItStartsTwiceIsRecordedCrashed() throws {
        let f = try RunFixture(tests: [a])
        let first = try next(f)
        finish(f, first, crashed: true, unstarted: [a], noTestStarted: true)
        XCTAssertEqual(f.result().tests.first?.outcome, .notRun, "once is not yet a verdict")

        let second = try next(f)
        XCTAssertEqual(second.tests, [a])
        finish(f, second, crashed: true, unstarted: [a], noTestStarted: true)
        XCTAssertNil(f.queue.next(shard: 0), "given up: not queued a third time")

        let recorded = try record(f.result(), a)
        XCTAssertEqual(recorded.outcome, .crashed)
        XCTAssertEqual(recorded.attempts.count, 1)
        XCTAssertEqual(recorded.attempts.first?.failures.map(\.message),
                       ["the test process ended (signal 6) before this test started, twice; see the batch log"])
        XCTAssertEqual(recorded.attempts.first?.artifacts, [Artifact(kind: .log, path: "attachments/batches/batch-\(second.id).log")])
        XCTAssertEqual(recorded.attempts.first?.batch, second.id)
    }

    func testIsolatedTestsRunAgainOneByOneAtTheSameAttempt() throws {
        let f = try RunFixture(tests: [a, b])
        let first = try next(f)
        finish(f, first, isolate: [a, b])
        var alone: [[TestID]] = []
        while let item = f.queue.next(shard: 0) {
            XCTAssertEqual(item.attempt, 1, "isolation is no retry")
            alone.append(item.tests)
            for t in item.tests { f.router.attemptFinished(t, Attempts.passed(1)) }
            finish(f, item)
        }
        XCTAssertEqual(alone, [[a], [b]])
        XCTAssertEqual(f.result().tests.map(\.attempts.count), [1, 1])
    }

    // MARK: --max-failures

    func testFailuresThatAreRetriedFlakyOrQuarantinedDoNotCountTowardsMaxFailures() throws {
        let f = try RunFixture(tests: [a, b, c], rules: TestRules(retries: 1), maxFailures: 2, quarantined: [b])
        f.router.attemptFinished(a, Attempts.failed(1))  // retried
        f.router.attemptFinished(a, Attempts.passed(2))  // flaky
        f.router.attemptFinished(b, Attempts.failed(1))
        f.router.attemptFinished(b, Attempts.failed(2))  // quarantined
        f.router.attemptFinished(c, Attempts.failed(1))
        f.router.attemptFinished(c, Attempts.failed(2))  // the first failure for good: 1 of 2
        XCTAssertNil(f.router.interruption.stop, "one test failed for good, --max-failures 2 not reached")
        XCTAssertNotNil(f.queue.next(shard: 0), "the queue still hands out work")
        XCTAssertEqual(f.result().tests.map(\.outcome), [.flaky, .quarantined, .failed])
    }

    func testMaxFailuresStopsTheRunAtTheFailureThatReachesIt() throws {
        let f = try RunFixture(tests: [a, b, c, d], rules: TestRules(retries: 1), maxFailures: 2, quarantined: [b])
        f.router.attemptFinished(a, Attempts.failed(1))
        f.router.attemptFinished(b, Attempts.failed(1))
        f.router.attemptFinished(b, Attempts.failed(2))
        f.router.attemptFinished(a, Attempts.failed(2))
        XCTAssertNil(f.router.interruption.stop, "1 of 2: a retried failure and a quarantined one do not count")
        f.router.attemptFinished(c, Attempts.failed(1))
        XCTAssertNil(f.router.interruption.stop, "c still has its retry")
        f.router.attemptFinished(c, Attempts.failed(2))
        let reason = try XCTUnwrap(f.router.interruption.stop, "the second test failed for good stops the run")
        XCTAssertEqual(reason, .maxFailures(2))
        XCTAssertTrue(reason.notRunReason.hasPrefix("--max-failures 2 reached (2 tests failed for good)"), reason.notRunReason)
        XCTAssertNil(f.queue.next(shard: 0), "nothing new starts")
    }

    func testProvisionalFailuresCountUntilTheirBatchSettles() throws {
        let f = try RunFixture(tests: [a, b, c], maxFailures: 2, quarantined: [b])
        // Batch 0's output says a failed for good; its result comes when the process ends.
        f.router.provisionalFailure(batch: 0, test: a)
        f.router.provisionalSettled(batch: 0)
        f.router.attemptFinished(a, Attempts.failed(1))
        XCTAssertNil(f.router.interruption.stop, "a counts once, not as provisional and reported")
        f.router.provisionalFailure(batch: 1, test: b)
        XCTAssertNil(f.router.interruption.stop, "b is quarantined")
        f.router.provisionalFailure(batch: 1, test: c)
        let reason = try XCTUnwrap(f.router.interruption.stop, "c's provisional failure is the second")
        XCTAssertEqual(reason, .maxFailures(2))
    }
}
