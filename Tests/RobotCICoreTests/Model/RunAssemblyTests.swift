import XCTest
@testable import RobotCICore

final class RunAssemblyTests: XCTestCase {
    private let a = TestID("M.C/a"), b = TestID("M.C/b"), c = TestID("M.C/c")
    private let meta = RunMetadata(runID: "r", startedAt: 0, wallTime: 1, shards: 1, retries: 0, robotciVersion: "")

    private func attempt(_ o: AttemptOutcome, _ n: Int = 1) -> Attempt {
        Attempt(number: n, outcome: o, duration: 0.1, start: 0, placement: .init(shard: 0, batch: 0))
    }

    func testEveryPlannedTestEndsWithExactlyOneVerdict() {
        var run = RunAssembly(plan: RunPlan(tests: [c, a, b]))
        run.add(a, quarantined: false, attempt: attempt(.passed))
        run.add(b, quarantined: false, attempt: attempt(.failed))
        run.add(b, quarantined: false, attempt: attempt(.passed, 2))
        let result = run.result(metadata: meta) { "lost: \($0.name)" }
        XCTAssertEqual(result.tests.map(\.id), [a, b, c])
        XCTAssertEqual(result.tests.map(\.outcome), [.passed, .flaky, .notRun])
        XCTAssertEqual(result.tests[2].reason, "lost: c")
        XCTAssertEqual(result.counts.failing, 1, "a test that did not run fails the run")
        XCTAssertEqual(result.accounting.description, "3 planned, 3 accounted for (2 with a result, 1 not run)")
        XCTAssertFalse(result.accounting.isComplete)
    }

    func testResultsForUnplannedTestsAreRefused() {
        var run = RunAssembly(plan: RunPlan(tests: [a]))
        XCTAssertTrue(run.add(a, quarantined: false, attempt: attempt(.passed)))
        XCTAssertFalse(run.add(b, quarantined: false, attempt: attempt(.failed)))
        let result = run.result(metadata: meta) { _ in "" }
        XCTAssertEqual(result.tests.map(\.id), [a])
        XCTAssertEqual(result.refused, [b])
        XCTAssertEqual(result.accounting.description, "1 planned, 1 accounted for; 1 result for unplanned tests refused")
    }

    func testAPlanSetLaterRefusesWhatItDoesNotHave() {
        var run = RunAssembly()
        run.add(b, quarantined: false, attempt: attempt(.passed))
        run.setPlan(RunPlan(tests: [a]))
        let result = run.result(metadata: meta) { _ in "never ran" }
        XCTAssertEqual(result.tests.map(\.outcome), [.notRun])
        XCTAssertEqual(result.refused, [b])
    }

    func testWithoutAPlanEveryResultIsKept() {
        var run = RunAssembly()
        run.add(b, quarantined: true, attempt: attempt(.failed))
        let result = run.result(metadata: meta) { _ in "" }
        XCTAssertEqual(result.tests.map(\.outcome), [.quarantined])
        XCTAssertNil(result.accounting.planned)
    }

    func testJournalRebuildAccountsForThePlan() {
        let entries: [JournalEntry] = [
            .run(meta), .plan(RunPlan(tests: [a, b])),
            .attempt(test: a, quarantined: false, attempt: attempt(.passed)),
        ]
        let result = RunResult(journal: entries)
        XCTAssertTrue(result.metadata.interrupted)
        XCTAssertEqual(result.tests.map(\.outcome), [.passed, .notRun])
        XCTAssertEqual(result.plan?.tests, [a, b])
    }

    func testPlanRoundTripsThroughJSON() throws {
        let plan = RunPlan(tests: [b, a], partition: PartitionPlan(index: 1, count: 2, suite: [a, b, c], split: "even", splitDigest: "x"))
        let back = try JSONDecoder().decode(JournalEntry.self, from: JSONEncoder().encode(JournalEntry.plan(plan)))
        XCTAssertEqual(back, .plan(plan))
        XCTAssertEqual(plan.tests, [a, b])
        XCTAssertEqual(plan.digest, RunPlan.digest(of: [a, b]))
    }
}
