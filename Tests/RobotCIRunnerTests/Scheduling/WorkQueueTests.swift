import RobotCICore
@testable import RobotCIRunner
import XCTest

/// Single-threaded use only: `next` blocks when nothing is left but batches are in flight,
/// so every test finishes its items before asking again at the end.
final class WorkQueueTests: XCTestCase {
    /// Zero-padded so that name order is number order.
    private func id(_ n: Int) -> TestID { TestID(n < 10 ? "M.C/test0\(n)" : "M.C/test\(n)") }

    private func queue(_ seconds: [Double], shards: Int = 2, maxRetries: Int = 2,
                       cutter: BatchCutter = BatchCutter()) -> WorkQueue {
        let planned = Planner.order(seconds.indices.map(id), timings: Timings(tests: Dictionary(
            uniqueKeysWithValues: seconds.enumerated().map { (id($0.offset).description, $0.element) })))
        return WorkQueue(planned: planned, shards: shards, maxRetries: maxRetries, cutter: cutter)
    }

    func testCutsBatchesLongestFirst() throws {
        // test0 10 s, test1 5 s, test2 3 s, test3 1 s, test4 1 s — on 2 shards.
        let q = queue([10, 5, 3, 1, 1])
        var batches: [[TestID]] = []
        for shard in [0, 1, 0, 1, 0] {
            let item = try XCTUnwrap(q.next(shard: shard))
            XCTAssertEqual(item.attempt, 1)
            batches.append(item.tests)
            XCTAssertEqual(q.finish(item, unstarted: [], noTestStarted: false), [])
        }
        XCTAssertEqual(batches, [[id(0)], [id(1)], [id(2)], [id(3)], [id(4)]])
        XCTAssertNil(q.next(shard: 0))
    }

    /// Cut for the shards that will run at once (3 of 8 here): batches sized for three, not a
    /// tail of small ones for shards that will wait.
    func testBatchesAreCutForTheShardsThatRunAtOnce() throws {
        let seconds = Array(repeating: 1.0, count: 24)
        func firstBatch(_ q: WorkQueue) throws -> Int { try XCTUnwrap(q.next(shard: 0)).tests.count }
        let planned = Planner.order(seconds.indices.map(id), timings: Timings(tests: Dictionary(
            uniqueKeysWithValues: seconds.enumerated().map { (id($0.offset).description, $0.element) })))
        let all = WorkQueue(planned: planned, shards: 8, rules: TestRules(retries: 0), cutter: BatchCutter())
        let three = WorkQueue(planned: planned, shards: 8, rules: TestRules(retries: 0), cutter: BatchCutter(), cutFor: 3)
        XCTAssertEqual(try firstBatch(all), 1, "24 s over 8 shards × 2 batches: 1.5 s, one test")
        XCTAssertEqual(try firstBatch(three), 4, "24 s over 3 shards × 2 batches: 4 s")
        let clamped = WorkQueue(planned: planned, shards: 2, rules: TestRules(retries: 0), cutter: BatchCutter(), cutFor: 5)
        XCTAssertEqual(clamped.cutFor, 2, "never cut for more shards than there are")
    }

    func testTinyTestsWithoutHistoryAreSharedBetweenSlots() throws {
        // No timings: every test is a guess, so the count cap spreads them.
        let planned = Planner.order((0..<9).map(id), timings: Timings())
        let q = WorkQueue(planned: planned, shards: 3, maxRetries: 2, cutter: BatchCutter(minimumBatchSeconds: 100))
        let first = try XCTUnwrap(q.next(shard: 0))
        XCTAssertEqual(first.tests, [id(0), id(1), id(2)], "at most ⌈9 / 3⌉ tests")
        let second = try XCTUnwrap(q.next(shard: 1))
        XCTAssertEqual(second.tests, [id(3), id(4)], "⌈6 / 3⌉ of what is left")
        let third = try XCTUnwrap(q.next(shard: 2))
        XCTAssertEqual(third.tests, [id(5), id(6)], "⌈4 / 3⌉")
    }

    /// A new test of a timed class expects the class's median; one of an unknown class the suite's.
    func testANewTestExpectsItsClasssMedian() {
        let timings = Timings(tests: ["UI.Login/testA": 4, "UI.Login/testB": 6, "Unit.Math/testA": 0.01])
        let planned = Planner.order([TestID("UI.Login/testNew"), TestID("Other.X/testY"), TestID("Unit.Math/testA")], timings: timings)
        XCTAssertEqual(planned.map(\.id.description), ["UI.Login/testNew", "Other.X/testY", "Unit.Math/testA"])
        XCTAssertEqual(planned.map(\.expected), [5, 4, 0.01])
        XCTAssertEqual(planned.map(\.isBlindGuess), [false, true, false])
        XCTAssertEqual(planned.map(\.known), [false, false, true])
    }

    func testKnownTinyTestsShareOneBatch() throws {
        let q = queue(Array(repeating: 0.01, count: 9), shards: 3)
        let first = try XCTUnwrap(q.next(shard: 0))
        XCTAssertEqual(first.tests.count, 9, "0.09 s of known work is one process, not three")
        XCTAssertEqual(q.finish(first, unstarted: [], noTestStarted: false), [])
        XCTAssertNil(q.next(shard: 1))
    }

    func testBatchIDsCountUp() throws {
        let q = queue([1, 1, 1], shards: 3)
        let ids = try (0..<3).map { try XCTUnwrap(q.next(shard: $0)).id }
        XCTAssertEqual(ids, [0, 1, 2])
    }

    func testReturnsNilWhenEverythingIsDone() {
        XCTAssertNil(queue([]).next(shard: 0))
        let q = queue([1])
        guard let item = q.next(shard: 0) else { return XCTFail("no work") }
        _ = q.finish(item, unstarted: [], noTestStarted: false)
        XCTAssertNil(q.next(shard: 0))
        XCTAssertNil(q.next(shard: 1), "stays done")
    }

    func testStopMakesNextReturnNil() {
        let q = queue([5, 4, 3])
        q.stop()
        XCTAssertNil(q.next(shard: 0))
        XCTAssertFalse(q.shouldRetry(id(0), attempt: 1, shard: 0), "no retries after stop")
    }

    func testStopWithWorkInFlightDoesNotRequeue() throws {
        let q = queue([5, 4, 3], shards: 1, cutter: BatchCutter(batchesPerShard: 0.5))
        let item = try XCTUnwrap(q.next(shard: 0))
        XCTAssertEqual(item.tests.count, 3)
        q.stop()
        XCTAssertEqual(q.finish(item, unstarted: [id(1), id(2)], noTestStarted: false), [])
        XCTAssertNil(q.next(shard: 0))
    }

    // MARK: retries

    func testRetryGoesToAnotherWorkerFirst() throws {
        let q = queue([4, 3, 2, 1], shards: 2)
        let a = try XCTUnwrap(q.next(shard: 0))
        let b = try XCTUnwrap(q.next(shard: 1))
        XCTAssertEqual(a.tests, [id(0)])
        XCTAssertEqual(b.tests, [id(1)])
        XCTAssertTrue(q.shouldRetry(id(0), attempt: 1, shard: 0))
        XCTAssertTrue(q.shouldRetry(id(1), attempt: 1, shard: 1))
        _ = q.finish(a, unstarted: [], noTestStarted: false)
        _ = q.finish(b, unstarted: [], noTestStarted: false)
        // Shard 0 gets the retry that failed on shard 1, and vice versa, before any new batch.
        let r0 = try XCTUnwrap(q.next(shard: 0))
        XCTAssertEqual(r0.tests, [id(1)])
        XCTAssertEqual(r0.attempt, 2)
        let r1 = try XCTUnwrap(q.next(shard: 1))
        XCTAssertEqual(r1.tests, [id(0)])
        XCTAssertEqual(r1.attempt, 2)
        _ = q.finish(r0, unstarted: [], noTestStarted: false)
        _ = q.finish(r1, unstarted: [], noTestStarted: false)
        let fresh = try XCTUnwrap(q.next(shard: 0))
        XCTAssertEqual(fresh.attempt, 1)
        XCTAssertEqual(fresh.tests.first, id(2))
    }

    func testRetryComesBeforeTheQueue() throws {
        let q = queue([4, 3, 2, 1], shards: 2)
        let a = try XCTUnwrap(q.next(shard: 0))
        XCTAssertTrue(q.shouldRetry(id(0), attempt: 1, shard: 0))
        _ = q.finish(a, unstarted: [], noTestStarted: false)
        let r = try XCTUnwrap(q.next(shard: 1))
        XCTAssertEqual(r.tests, [id(0)])
        XCTAssertEqual(r.attempt, 2)
    }

    func testRetryGoesToTheSameWorkerWhenNoOtherIsIdle() throws {
        // No other shard is waiting in next(): the shard that failed takes its own retry.
        let q = queue([4, 3, 2, 1], shards: 2)
        let a = try XCTUnwrap(q.next(shard: 0))
        XCTAssertTrue(q.shouldRetry(id(0), attempt: 1, shard: 0))
        _ = q.finish(a, unstarted: [], noTestStarted: false)
        let r = try XCTUnwrap(q.next(shard: 0))
        XCTAssertEqual(r.tests, [id(0)])
        XCTAssertEqual(r.attempt, 2)
    }

    func testRetriesAreServedInOrder() throws {
        let q = queue([4, 3, 2, 1], shards: 4)
        let items = try (0..<4).map { try XCTUnwrap(q.next(shard: $0)) }
        for (w, item) in items.enumerated() {
            XCTAssertTrue(q.shouldRetry(item.tests[0], attempt: 1, shard: w))
            _ = q.finish(item, unstarted: [], noTestStarted: false)
        }
        let retried = try (0..<4).map { _ in try XCTUnwrap(q.next(shard: 9)).tests }
        XCTAssertEqual(retried, [[id(0)], [id(1)], [id(2)], [id(3)]])
    }

    func testAttemptNumbersUpToMaxRetries() throws {
        let q = queue([1], shards: 2, maxRetries: 2)
        var attempts: [Int] = []
        var shard = 0
        while let item = q.next(shard: shard) {
            attempts.append(item.attempt)
            let retrying = q.shouldRetry(item.tests[0], attempt: item.attempt, shard: shard)
            XCTAssertEqual(retrying, item.attempt <= 2, "attempt \(item.attempt)")
            _ = q.finish(item, unstarted: [], noTestStarted: false)
            shard = 1 - shard
            if attempts.count > 5 { break }
        }
        XCTAssertEqual(attempts, [1, 2, 3], "one try plus two retries")
    }

    func testNoRetriesWhenMaxIsZero() throws {
        let q = queue([1], maxRetries: 0)
        let item = try XCTUnwrap(q.next(shard: 0))
        XCTAssertFalse(q.shouldRetry(id(0), attempt: 1, shard: 0))
        _ = q.finish(item, unstarted: [], noTestStarted: false)
        XCTAssertNil(q.next(shard: 0))
    }

    // MARK: re-queue after a crash or hang

    func testUnstartedTestsGoBackToTheFront() throws {
        let q = queue([1.5, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1])
        // target = 12.5 / (2 × 2) = 3.125: the 1.5 s test and one 1 s test.
        let first = try XCTUnwrap(q.next(shard: 0))
        XCTAssertEqual(first.tests, [id(0), id(1)])
        // test0 crashed; test1 never started.
        XCTAssertEqual(q.finish(first, unstarted: [id(1)], noTestStarted: false), [])
        let second = try XCTUnwrap(q.next(shard: 0))
        XCTAssertEqual(second.attempt, 1)
        XCTAssertEqual(second.tests.first, id(1))
        // 11 s left (the re-queued one counts again): target 2.75, two 1 s tests.
        XCTAssertEqual(second.tests.count, 2)
    }

    func testUnstartedTestsOfARetryStayRetries() throws {
        let q = queue([2, 1], shards: 2)
        let a = try XCTUnwrap(q.next(shard: 0))
        XCTAssertTrue(q.shouldRetry(id(0), attempt: 1, shard: 0))
        _ = q.finish(a, unstarted: [], noTestStarted: false)
        let retry = try XCTUnwrap(q.next(shard: 1))
        XCTAssertEqual(retry.attempt, 2)
        // The retry's process died before the test started: it is offered again, to anyone.
        XCTAssertEqual(q.finish(retry, unstarted: [id(0)], noTestStarted: true), [])
        let again = try XCTUnwrap(q.next(shard: 1))
        XCTAssertEqual(again.tests, [id(0)])
        XCTAssertEqual(again.attempt, 2)
    }

    func testNoTestStartedTwiceGivesUp() throws {
        let q = queue([1, 1], shards: 1, cutter: BatchCutter(batchesPerShard: 0.5))
        let first = try XCTUnwrap(q.next(shard: 0))
        XCTAssertEqual(first.tests, [id(0), id(1)])
        XCTAssertEqual(q.finish(first, unstarted: first.tests, noTestStarted: true), [], "first launch failure re-queues")
        let second = try XCTUnwrap(q.next(shard: 0))
        XCTAssertEqual(second.tests, [id(0), id(1)])
        XCTAssertEqual(q.finish(second, unstarted: second.tests, noTestStarted: true), [id(0), id(1)])
        XCTAssertNil(q.next(shard: 0), "given-up tests are not re-queued")
    }

    func testLaunchFailuresCountPerTest() throws {
        let q = queue([3, 2, 1], shards: 1, cutter: BatchCutter(maximumTests: 1))
        let a = try XCTUnwrap(q.next(shard: 0))
        XCTAssertEqual(a.tests, [id(0)])
        XCTAssertEqual(q.finish(a, unstarted: [id(0)], noTestStarted: true), [])
        let b = try XCTUnwrap(q.next(shard: 0))
        XCTAssertEqual(b.tests, [id(0)])
        // It started this time; test1's launch failures are counted separately.
        XCTAssertEqual(q.finish(b, unstarted: [], noTestStarted: false), [])
        let c = try XCTUnwrap(q.next(shard: 0))
        XCTAssertEqual(c.tests, [id(1)])
        XCTAssertEqual(q.finish(c, unstarted: [id(1)], noTestStarted: true), [], "test1's first launch failure")
    }

    func testUnstartedAfterACrashDoNotCountAsLaunchFailures() throws {
        let q = queue([1, 1], shards: 1, cutter: BatchCutter(batchesPerShard: 0.5))
        for _ in 0..<3 {
            let item = try XCTUnwrap(q.next(shard: 0))
            XCTAssertEqual(item.tests.last, id(1))
            XCTAssertEqual(q.finish(item, unstarted: [id(1)], noTestStarted: false), [])
        }
    }

    // MARK: limits

    func testFilterArgumentStaysUnderTheLimit() throws {
        // 300 tests with 500-byte ids: all would fit the time target, but not one argument.
        let longName = String(repeating: "x", count: 500 - "M.C/".count)
        let planned = (0..<300).map { PlannedTest(id: TestID("M.C/\(longName)\(1000 + $0)"), expected: 0.001, known: true) }
        let q = WorkQueue(planned: planned, shards: 1, maxRetries: 0, cutter: BatchCutter(batchesPerShard: 0.5))
        XCTAssertEqual(q.maxFilterBytes, 100_000)
        let first = try XCTUnwrap(q.next(shard: 0))
        XCTAssertEqual(first.tests.map(\.description).joined(separator: ",").utf8.count + 1, first.tests.count * 505)
        XCTAssertEqual(first.tests.count, 198)
        XCTAssertLessThanOrEqual(first.tests.map(\.description).joined(separator: ",").utf8.count, 100_000)
        XCTAssertEqual(first.tests, planned.prefix(198).map(\.id))
    }

    func testManyBatchesEachTestExactlyOnce() {
        // Enough single-test batches to go through the queue's compaction.
        let planned = (0..<6000).map { PlannedTest(id: TestID("M.C/t\(100_000 + $0)"), expected: 0.01, known: true) }
        let q = WorkQueue(planned: planned, shards: 1, maxRetries: 0, cutter: BatchCutter(maximumTests: 1))
        var seen: [TestID] = []
        var requeued = false
        while let item = q.next(shard: 0) {
            seen += item.tests
            if seen.count == 5000 && !requeued {
                // Crash after compaction: the test goes back to the front.
                requeued = true
                seen.removeLast()
                _ = q.finish(item, unstarted: item.tests, noTestStarted: false)
                continue
            }
            _ = q.finish(item, unstarted: [], noTestStarted: false)
        }
        XCTAssertTrue(requeued)
        XCTAssertEqual(seen, planned.map(\.id))
    }

    /// A batch is one process, and a process runs one engine: two browsers' runs never share one.
    func testBrowsersNeverShareABatch() throws {
        let tests = (0..<4).map(id)
        let ids = tests + tests.map { TestID($0.test, repetition: nil, browser: "webkit") }
        let q = WorkQueue(planned: Planner.order(ids, timings: Timings()), shards: 1, rules: TestRules(retries: 0), cutter: BatchCutter())
        var batches: [[TestID]] = []
        while let item = q.next(shard: 0) {
            batches.append(item.tests)
            XCTAssertEqual(q.finish(item, unstarted: [], noTestStarted: false), [])
        }
        XCTAssertEqual(batches.map { Set($0.map(\.browser)).count }, Array(repeating: 1, count: batches.count), "\(batches)")
        XCTAssertEqual(batches.count, 2, "one batch per engine on one shard: \(batches)")
        XCTAssertEqual(batches.flatMap { $0 }.count, 8)
    }
}
