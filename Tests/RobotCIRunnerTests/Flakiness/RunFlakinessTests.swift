import Foundation
import RobotCICore
import RobotCIReport
@testable import RobotCIRunner
import XCTest

final class RunFlakinessTests: XCTestCase {
    private func record(_ id: TestID, _ outcomes: [AttemptOutcome], quarantined: Bool = false) -> TestRecord {
        TestRecord(id: id, attempts: outcomes.enumerated().map { n, o in
            Attempt(number: n + 1, outcome: o, duration: 0.1, start: 0, placement: .init(shard: 0, batch: 0))
        }, quarantined: quarantined)
    }

    private func run(_ id: String, commit: String?, _ tests: [TestRecord]) -> RunResult {
        var metadata = RunMetadata(runID: id, startedAt: 100, wallTime: 1, shards: 1, retries: 0, robotciVersion: "t")
        metadata.gitCommit = commit
        return RunResult(metadata: metadata, tests: tests, batches: [])
    }

    private let a = TestID("M.C/a"), b = TestID("M.C/b")

    func testAFailureThatPassedAtThisCommitIsLikelyFlakyAndStillFailsUnlessAllowed() {
        let before = FlakeLedger().recording(run("r1", commit: "c", [record(a, [.passed]), record(b, [.failed])]))
        let flakiness = RunFlakiness(before: before, policy: QuarantinePolicy(patterns: [], entries: [], now: 0))
        let result = flakiness.annotated(run("r2", commit: "c", [record(a, [.failed]), record(b, [.failed])]))
        XCTAssertEqual(result.tests[0].likelyFlaky, LikelyFlaky(commit: "c", runID: "r1", startedAt: 100))
        XCTAssertNil(result.tests[1].likelyFlaky, "b never passed here")
        let annotations = GitHubReporter.annotations(result, workspace: nil)
        XCTAssertEqual(annotations.filter { $0.contains("::likely flaky: passed at commit c before (run r1): ") }.count, 1, "\(annotations)")
        XCTAssertEqual(LikelyFlaky.counts(result, allowed: false).failing, 2)
        XCTAssertEqual(LikelyFlaky.counts(result, allowed: true).failing, 1)
        XCTAssertEqual(LikelyFlaky.counts(result, allowed: true).flaky, 1)
        // Another commit: nothing to compare with.
        XCTAssertNil(flakiness.annotated(run("r3", commit: "d", [record(a, [.failed])])).tests[0].likelyFlaky)
        // A repetition that failed while another passed in this run.
        let r1 = TestID("M.C/b", repetition: .init(index: 1, count: 2)), r2 = TestID("M.C/b", repetition: .init(index: 2, count: 2))
        let reps = flakiness.annotated(run("r4", commit: "e", [record(r1, [.passed]), record(r2, [.crashed])]))
        XCTAssertEqual(reps.tests[1].likelyFlaky?.runID, "r4")
        XCTAssertNil(reps.tests[0].likelyFlaky)
    }

    func testNewFlakesAreThoseTheLedgerNeverSawAndQuarantineIsLeftOut() throws {
        let entry = try QuarantineEntry(number: 1, fields: ["test": "M.C/q", "owner": "@o", "expires": "2099-01-01"], source: "s")
        let q = TestID("M.C/q")
        let policy = QuarantinePolicy(patterns: [], entries: [entry], now: 0)
        let before = FlakeLedger().recording(run("r1", commit: "c1", [record(a, [.failed, .passed]), record(b, [.passed]), record(q, [.passed])]))
        let flakiness = RunFlakiness(before: before, policy: policy)
        let now = run("r2", commit: "c2", [record(a, [.failed, .passed]), record(b, [.failed, .passed]), record(q, [.failed, .passed], quarantined: true)])
        let after = before.recording(now)
        XCTAssertEqual(flakiness.newFlaky(runID: "r2", after: after), [b])
        XCTAssertEqual(flakiness.annotated(now).tests[2].quarantineEntry, entry)
        // Released after N clean runs (q is flaky in r2: its streak starts again).
        var ledger = after
        for k in 3...5 { ledger = ledger.recording(run("r\(k)", commit: "c\(k)", [record(q, [.passed], quarantined: true)])) }
        XCTAssertEqual(flakiness.releasable([q], after: 3, in: ledger).map(\.id), [q])
        XCTAssertEqual(flakiness.releasable([q], after: 4, in: ledger).map(\.id), [])
        XCTAssertEqual(flakiness.releasable([a], after: 1, in: ledger).map(\.id), [], "a is not quarantined")
    }
}
