import RobotCICore
@testable import RobotCIRunner
import XCTest

/// The progress line's time left: expected work over the busy shards, not a count of
/// finished tests.
final class RunETATests: XCTestCase {
    private func known(_ name: String, _ seconds: Double) -> PlannedTest {
        PlannedTest(id: TestID("M.C/\(name)"), expected: seconds, known: true)
    }

    private func blind(_ name: String) -> PlannedTest {
        PlannedTest(id: TestID("M.C/\(name)"), expected: 1, known: false, informed: false)
    }

    /// A RunETA with `shards` shards that started a batch at 0 s.
    private func eta(_ plan: [PlannedTest], total: Int? = nil, shards: Int = 1) -> RunETA {
        var eta = RunETA(planned: plan, total: total ?? plan.count)
        for shard in 0..<shards { eta.batchStarted(shard: shard, at: 0) }
        return eta
    }

    /// Ends `name`'s only attempt on `shard` at `end`, after `took` seconds.
    private func finish(_ eta: inout RunETA, _ name: String, took: Double, shard: Int = 0, end: Double) {
        eta.attemptEnded(shard: shard, at: end, took: took)
        eta.finished(TestID("M.C/\(name)"), took: took)
    }

    /// The case that printed "ETA 1738s": longest first, the first test to finish took 10 s of
    /// a 20 s run. Counting finished tests says 169 more of those; the plan says what is left,
    /// less what the other shard's long test has done already, over the two busy shards.
    func testAWarmRunAfterItsLongestTestIsNotCountedAsManyLongTests() {
        let plan = [known("long", 13), known("long2", 10)] + (0..<168).map { known("t\($0)", 0.1) }
        var eta = eta(plan, shards: 2)
        XCTAssertEqual(eta.seconds(now: 0)!, (23 + 16.8) / 2, accuracy: 0.001, "before anything finished")
        finish(&eta, "long2", took: 10, shard: 1, end: 10)
        // Shard 0 is 10.5 s into its 13 s test, shard 1 0.5 s into the small ones.
        XCTAssertEqual(eta.seconds(now: 10.5)!, (13 + 16.8 - 11) / 2, accuracy: 0.001)
    }

    /// Finished tests that ran twice as long as expected make the rest count double.
    func testTheFinishedTestsPaceScalesWhatIsLeft() {
        var eta = eta([known("a", 1), known("b", 1), known("c", 2)])
        finish(&eta, "a", took: 2, end: 2)
        XCTAssertEqual(eta.seconds(now: 2)!, 6, accuracy: 0.001)
        finish(&eta, "b", took: 0, end: 2)
        XCTAssertEqual(eta.seconds(now: 2)!, 2, accuracy: 0.001, "2 s taken for 2 s expected: pace 1")
        XCTAssertEqual(eta.seconds(now: 3)!, 1, accuracy: 0.001, "c runs since 2 s")
        XCTAssertEqual(eta.seconds(now: 9)!, 0, "a test past its time leaves nothing, never less")
    }

    /// A new test (or a skipped one, which never gets a time) in a run with history counts the
    /// plan's guess for it, the suite's median, not the mean of the finished tests: those are
    /// the longest ones. Found on swift-subprocess, where one such test added 11 s.
    func testANewTestInAWarmRunCountsThePlansGuessNotTheLongTestsMean() {
        let plan = [known("long", 10)] + (0..<4).map { known("t\($0)", 0.5) }
            + [PlannedTest(id: TestID("M.C/new"), expected: 0.5, known: false)]
        var eta = eta(plan)
        finish(&eta, "long", took: 10, end: 10)
        XCTAssertEqual(eta.seconds(now: 10)!, 2.5, accuracy: 0.001)
    }

    /// Without history there is nothing to go by until a test finishes; then each test left
    /// counts the mean of what the finished ones took.
    func testWithoutHistoryTheMeanOfTheFinishedTests() {
        var eta = eta((0..<5).map { blind("t\($0)") }, shards: 2)
        XCTAssertNil(eta.seconds(now: 1))
        finish(&eta, "t0", took: 3, shard: 0, end: 3)
        finish(&eta, "t1", took: 1, shard: 1, end: 1)
        XCTAssertEqual(eta.seconds(now: 3)!, (3 * 2 - 2) / 2, accuracy: 0.001)
    }

    /// No shard busy (between batches) divides by one, never by zero; a test the plan did not
    /// list (a progress line made without a plan) counts the finished tests' mean.
    func testIdleShardsAndUnlistedTests() {
        var eta = RunETA(planned: [known("a", 4)], total: 3)
        XCTAssertNil(eta.seconds(now: 0), "two unlisted tests, none finished")
        eta.finished(TestID("M.C/x"), took: 2)
        XCTAssertEqual(eta.seconds(now: 5)!, 4 + 2, accuracy: 0.001)
        eta.batchStarted(shard: 3, at: 5)
        eta.batchFinished(shard: 3, at: 5.5)
        XCTAssertEqual(eta.seconds(now: 6)!, 4 + 2 + 2 * 0.5 / 20, accuracy: 0.001,
                       "a batch that ran no test gives no credit: its 0.5 s are a cost, over 20")
    }

    /// What a batch costs beyond its tests (a process start, set-up) counts too: here each
    /// 1 s test took its shard 2 s, so the 20 left count 40 s. Before 20 attempts ended, what
    /// they cost is spread over 20 (the first batches' starts are not yet shared).
    func testWhatBatchesCostBeyondTheirTestsCountsForEachTestLeft() {
        var eta = eta((0..<40).map { known("t\($0)", 1) })
        XCTAssertEqual(eta.seconds(now: 0)!, 40, accuracy: 0.001)
        for i in 0..<20 {
            eta.batchStarted(shard: 0, at: Double(2 * i))
            finish(&eta, "t\(i)", took: 1, end: Double(2 * i + 2))
            eta.batchFinished(shard: 0, at: Double(2 * i + 2))
            if i == 0 {
                XCTAssertEqual(eta.seconds(now: 2)!, 39 + 39 * (1.0 / 20), accuracy: 0.001, "one attempt: 1 s over 20")
            }
        }
        eta.batchStarted(shard: 0, at: 40)
        XCTAssertEqual(eta.seconds(now: 40)!, 20 * 2, accuracy: 0.001)
    }

    /// Withdrawn repetitions (`--until-failure`) leave the estimate with what they expected.
    func testWithdrawnTestsLeaveTheEstimate() {
        var eta = eta([known("a", 4), known("b", 2), known("c", 1)])
        finish(&eta, "c", took: 1, end: 1)
        XCTAssertEqual(eta.seconds(now: 1)!, 6, accuracy: 0.001)
        eta.withdraw([TestID("M.C/b")])
        XCTAssertEqual(eta.seconds(now: 1)!, 4, accuracy: 0.001)
        eta.withdraw([TestID("M.C/a")])
        XCTAssertEqual(eta.seconds(now: 1)!, 0, accuracy: 0.001)
    }

    /// A test that failed (here: hung until its deadline) says nothing of how fast the others
    /// run: only passed tests set the pace.
    func testOnlyPassedTestsSetThePace() {
        var eta = eta([known("hang", 0.1), known("ok", 1), known("a", 1), known("b", 1)])
        eta.attemptEnded(shard: 0, at: 60, took: 60)
        eta.finished(TestID("M.C/hang"), took: 60, passed: false)
        eta.attemptEnded(shard: 0, at: 62, took: 2)
        eta.finished(TestID("M.C/ok"), took: 2, passed: true)
        XCTAssertEqual(eta.seconds(now: 62)!, 2 * 2, accuracy: 0.001, "pace 2 from the passed test alone")
    }

    /// Before any attempt ended, the work is spread over the shards expected at once, not
    /// over the one shard that started first.
    func testBeforeTheFirstResultTheShardsExpectedAtOnce() {
        var eta = RunETA(planned: (0..<8).map { known("t\($0)", 1) }, total: 8, atOnce: 4)
        eta.batchStarted(shard: 0, at: 0)
        XCTAssertEqual(eta.seconds(now: 0)!, 2, accuracy: 0.001)
        var few = RunETA(planned: [known("a", 3)], total: 1, atOnce: 4)
        few.batchStarted(shard: 0, at: 0)
        XCTAssertEqual(few.seconds(now: 1)!, 2, accuracy: 0.001, "one test left: one shard")
    }
}
