import Foundation
import RobotCICore
@testable import RobotCIRunner
import XCTest

/// What the recorder keeps of a run: each attempt journaled and assembled into the result,
/// whether it failed for good (it asks, never decides, about retries), and the accounting of
/// the planned tests (`notRun` for those without a result, refusals for unplanned ones).
final class RunRecorderTests: XCTestCase {
    private let a = TestID("M.C/testA"), b = TestID("M.C/testB"), c = TestID("M.C/testC")

    private func attempts(in entries: [JournalEntry]) -> [(TestID, Bool, Attempt)] {
        entries.compactMap { if case .attempt(let t, let q, let at) = $0 { (t, q, at) } else { nil } }
    }

    private func plans(in entries: [JournalEntry]) -> [RunPlan] {
        entries.compactMap { if case .plan(let p) = $0 { p } else { nil } }
    }

    func testRecordSaysWhetherAnAttemptFailedForGood() throws {
        let f = try RunFixture(tests: [a, b, c], quarantined: [c])
        XCTAssertFalse(f.recorder.record(a, Attempts.passed(1)))
        XCTAssertFalse(f.recorder.record(a, Attempt(number: 1, outcome: .skipped, duration: 0, start: 0, placement: .init(shard: 0, batch: 0))))
        XCTAssertFalse(f.recorder.record(b, Attempts.failed(1)) { _ in true }, "retried: not yet for good")
        XCTAssertTrue(f.recorder.record(b, Attempts.failed(2)) { _ in false })
        XCTAssertTrue(f.recorder.record(b, Attempts.failed(3, outcome: .crashed)), "no retry closure: none")
        XCTAssertFalse(f.recorder.record(c, Attempts.failed(1, outcome: .timedOut)), "quarantined never fails for good")
    }

    func testEveryAttemptIsJournaledBeforeItsRetryIsAskedForAndPassesAreAskedToo() throws {
        let f = try RunFixture(tests: [a])
        var asked: [AttemptOutcome] = []
        var journaledFirst: [Bool] = []
        for attempt in [Attempts.failed(1), Attempts.passed(2)] {
            f.recorder.record(a, attempt) { seen in
                asked.append(seen.outcome)
                journaledFirst.append(((try? f.journal()).map(self.attempts) ?? []).contains { $0.2.number == seen.number })
                return seen.outcome.isFailure
            }
        }
        XCTAssertEqual(asked, [.failed, .passed], "a queue source stores passes too")
        XCTAssertEqual(journaledFirst, [true, true], "in the journal before a retry of it can be")
        XCTAssertEqual(f.result().tests.first?.outcome, .flaky)
    }

    func testPlannedTestsWithoutAResultAreNotRunWithTheBestReasonKnown() throws {
        let f = try RunFixture(tests: [a, b, c])
        f.recorder.record(a, Attempts.passed(1))
        f.recorder.notRun(b, reason: "--max-failures 1 reached")
        let result = f.result()
        XCTAssertEqual(result.tests.map(\.id), [a, b, c])
        XCTAssertEqual(result.tests.map(\.outcome), [.passed, .notRun, .notRun])
        XCTAssertEqual(result.tests.map(\.reason), [nil, "--max-failures 1 reached", "no result"],
                       "a reason said where it became known wins over the run's general one")
        XCTAssertEqual(result.accounting.description, "3 planned, 3 accounted for (1 with a result, 2 not run)")
        XCTAssertFalse(result.accounting.isComplete)
    }

    func testALaterResultWinsOverANotRunReason() throws {
        let f = try RunFixture(tests: [a])
        f.recorder.notRun(a, reason: "its batch was killed")
        f.recorder.record(a, Attempts.passed(1))
        let test = try XCTUnwrap(f.result().tests.first)
        XCTAssertEqual(test.outcome, .passed)
        XCTAssertNil(test.reason)
    }

    func testAResultForAnUnplannedTestIsRefusedAndNeverJournaled() throws {
        let stranger = TestID("M.Other/testNotPlanned")
        let f = try RunFixture(tests: [a])
        XCTAssertFalse(f.recorder.record(stranger, Attempts.failed(1)), "refused: not a failure of this run")
        f.recorder.record(a, Attempts.passed(1))
        let result = f.result()
        XCTAssertEqual(result.tests.map(\.id), [a])
        XCTAssertEqual(result.refused, [stranger])
        XCTAssertEqual(result.accounting.description, "1 planned, 1 accounted for; 1 result for unplanned tests refused")
        XCTAssertEqual(attempts(in: try f.journal()).map(\.0), [a])
    }

    func testThePlanIsJournaledFirstAndTheJournalRebuildsTheSameRun() throws {
        let f = try RunFixture(tests: [a, b, c], quarantined: [c])
        f.recorder.record(a, Attempts.failed(1, "boom")) { _ in true }
        f.recorder.record(b, Attempts.passed(1))
        f.recorder.record(c, Attempts.failed(1))
        f.recorder.record(a, Attempts.failed(2, "boom again"))
        f.recorder.record(BatchRecord(id: 0, shard: 0, start: 0, end: 1, tests: [a, b, c], termination: .exited(1)))
        let entries = try f.journal()
        guard case .plan(let plan)? = entries.first else { return XCTFail("the plan comes first: \(entries)") }
        XCTAssertEqual(plan.tests, [a, b, c])
        XCTAssertEqual(attempts(in: entries).map(\.0), [a, b, c, a], "in the order they came")
        XCTAssertEqual(attempts(in: entries).map(\.1), [false, false, true, false], "quarantine is journaled with the attempt")

        let live = f.result()
        let rebuilt = RunResult(journal: entries)
        XCTAssertEqual(rebuilt.plan, live.plan)
        XCTAssertEqual(rebuilt.tests.map(\.outcome), live.tests.map(\.outcome))
        XCTAssertEqual(rebuilt.tests.map(\.attempts), live.tests.map(\.attempts))
        XCTAssertEqual(rebuilt.batches, live.batches)
        XCTAssertEqual(live.tests.map(\.outcome), [.failed, .passed, .quarantined])
    }

    func testQueueModeJournalsNoPlanAndReportsWhatRan() throws {
        let f = try RunFixture(tests: [a, b], queueMode: true)
        f.recorder.record(b, Attempts.passed(1))
        f.recorder.record(a, Attempts.failed(1))
        let result = f.result()
        XCTAssertNil(result.plan)
        XCTAssertEqual(result.tests.map(\.id), [a, b], "sorted")
        XCTAssertNil(result.refused, "without a plan nothing is refused")
        XCTAssertEqual(plans(in: try f.journal()), [])
    }

    func testSecretsAreMaskedBeforeTheJournalAndTheReport() throws {
        let secret = "hunter2-very-secret"
        let f = try RunFixture(tests: [a], redactor: SecretRedactor(environment: ["API_TOKEN": secret]))
        f.recorder.record(a, Attempts.failed(1, "login with \(secret) refused", output: "token=\(secret)\n"))
        let attempt = try XCTUnwrap(f.result().tests.first?.attempts.first)
        XCTAssertEqual(attempt.output, "token=***\n")
        XCTAssertEqual(attempt.failures.map(\.message), ["login with *** refused"])
        let journal = try String(contentsOf: f.layout.journal, encoding: .utf8)
        XCTAssertFalse(journal.contains(secret), journal)
        XCTAssertTrue(journal.contains("token=***"), journal)
    }

    func testWithdrawnTestsLeaveThePlanAndTheJournalSaysSo() throws {
        let f = try RunFixture(tests: [a, b, c])
        f.recorder.withdraw([])
        XCTAssertEqual(plans(in: try f.journal()).count, 1, "nothing withdrawn: no new plan")
        f.recorder.record(a, Attempts.passed(1))
        f.recorder.withdraw([c])
        XCTAssertFalse(f.recorder.record(c, Attempts.failed(1)), "no longer planned: refused")
        let result = f.result()
        XCTAssertEqual(result.plan?.tests, [a, b])
        XCTAssertEqual(result.tests.map(\.id), [a, b])
        XCTAssertEqual(result.accounting.description, "2 planned, 2 accounted for (1 with a result, 1 not run); 1 result for unplanned tests refused")
        XCTAssertEqual(plans(in: try f.journal()).last?.tests, [a, b], "a rebuild accounts for the same tests")
    }

    func testHighestRepetitionIsTheHighestWithARecordedAttempt() throws {
        let reps = TestID.repeating([a], count: 5)
        let f = try RunFixture(tests: reps + [b])
        XCTAssertEqual(f.recorder.highestRepetition, 0)
        f.recorder.record(b, Attempts.passed(1))
        XCTAssertEqual(f.recorder.highestRepetition, 0, "a test's own id is no repetition")
        f.recorder.record(a.repetition(3, of: 5), Attempts.passed(1))
        f.recorder.record(a.repetition(1, of: 5), Attempts.passed(1))
        XCTAssertEqual(f.recorder.highestRepetition, 3)
    }
}
