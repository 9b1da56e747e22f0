import Foundation
import RobotCICore
import XCTest

final class TimingsTests: XCTestCase {
    func testMedianOfOddCount() {
        XCTAssertEqual(Timings(tests: ["a": 3, "b": 1, "c": 2]).median, 2)
        XCTAssertEqual(Timings(tests: ["a": 7]).median, 7)
    }

    func testMedianOfEvenCountIsTheMeanOfTheMiddleTwo() {
        XCTAssertEqual(Timings(tests: ["a": 4, "b": 1, "c": 10, "d": 2]).median, 3)
        XCTAssertEqual(Timings(tests: ["a": 1, "b": 2]).median, 1.5)
    }

    func testMedianOfNothingIsNil() {
        XCTAssertNil(Timings().median)
    }

    func testSubscriptByTestID() {
        let timings = Timings(tests: ["M.A/t": 2.5])
        XCTAssertEqual(timings[TestID("M.A/t")], 2.5)
        XCTAssertNil(timings[TestID("M.A/u")])
    }

    func testUpdatedKeepsTestsNotInTheRun() {
        let old = Timings(tests: ["M.A/kept": 9, "M.A/changed": 1])
        let new = old.updated(with: [TestRecord(id: TestID("M.A/changed"), attempts: [attempt(.passed, duration: 4)])])
        XCTAssertEqual(new.tests, ["M.A/kept": 9, "M.A/changed": 4])
        XCTAssertEqual(old.tests, ["M.A/kept": 9, "M.A/changed": 1], "the original is a value and unchanged")
    }

    func testUpdatedAddsNewTestsWithRepresentativeDuration() {
        let new = Timings().updated(with: [
            TestRecord(id: TestID("M.A/flaky"), attempts: [attempt(.failed, duration: 8), attempt(.passed, number: 2, duration: 2)]),
            TestRecord(id: TestID("M.A/failed"), attempts: [attempt(.failed, duration: 3), attempt(.timedOut, number: 2, duration: 60)]),
            TestRecord(id: TestID("M.A/quarantined"), attempts: [attempt(.crashed, duration: 0.5)], quarantined: true),
        ])
        XCTAssertEqual(new.tests, ["M.A/flaky": 2, "M.A/failed": 60, "M.A/quarantined": 0.5])
    }

    func testUpdatedIgnoresSkippedAndUnrunTests() {
        let old = Timings(tests: ["M.A/skipped": 5])
        let new = old.updated(with: [
            TestRecord(id: TestID("M.A/skipped"), attempts: [attempt(.skipped, duration: 0)]),
            TestRecord(id: TestID("M.A/neverRan"), attempts: []),
        ])
        XCTAssertEqual(new.tests, ["M.A/skipped": 5])
    }

    func testCodable() throws {
        let timings = Timings(tests: ["M.A/t": 1.25])
        let data = try JSONEncoder().encode(timings)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
        XCTAssertEqual(object["version"] as? Int, 2)
        XCTAssertEqual(try JSONDecoder().decode(Timings.self, from: data), timings)
    }
}

final class PlannerTests: XCTestCase {
    private func ids(_ names: String...) -> [TestID] { names.map { TestID($0) } }

    func testLongestFirstTiesByName() {
        let timings = Timings(tests: ["M/a": 1, "M/b": 5, "M/c": 5, "M/d": 0.5, "M/e": 3])
        let planned = Planner.order(ids("M/d", "M/c", "M/a", "M/e", "M/b"), timings: timings)
        XCTAssertEqual(planned.map(\.id.description), ["M/b", "M/c", "M/e", "M/a", "M/d"])
        XCTAssertEqual(planned.map(\.expected), [5, 5, 3, 1, 0.5])
        XCTAssertTrue(planned.allSatisfy(\.known))
    }

    func testUnknownTestsGetTheMedianOfHistory() {
        // The median is over all of history, including tests not in this run; a test of a
        // class with history gets its class's median instead (M's is 3 here).
        let timings = Timings(tests: ["N/a": 10, "N/b": 1, "N/other": 4, "M/x": 3])
        let planned = Planner.order(ids("N/new2", "N/a", "N/b", "X/new1", "M/y"), timings: timings)
        XCTAssertEqual(planned, [
            PlannedTest(id: TestID("N/a"), expected: 10, known: true),
            PlannedTest(id: TestID("N/new2"), expected: 4, known: false, informed: true),
            PlannedTest(id: TestID("X/new1"), expected: 3.5, known: false),
            PlannedTest(id: TestID("M/y"), expected: 3, known: false, informed: true),
            PlannedTest(id: TestID("N/b"), expected: 1, known: true),
        ])
    }

    func testKnownAndUnknownTiedAtTheMedianSortByName() {
        let timings = Timings(tests: ["M/b": 2])
        let planned = Planner.order(ids("M/c", "M/b", "M/a"), timings: timings)
        XCTAssertEqual(planned.map(\.id.description), ["M/a", "M/b", "M/c"])
        XCTAssertEqual(planned.map(\.known), [false, true, false])
    }

    func testDefaultEstimateWithoutHistory() {
        XCTAssertEqual(Planner.defaultEstimate, 1.0)
        let planned = Planner.order(ids("M/b", "M/a"), timings: Timings())
        XCTAssertEqual(planned, [PlannedTest(id: TestID("M/a"), expected: 1, known: false),
                                 PlannedTest(id: TestID("M/b"), expected: 1, known: false)])
    }

    func testEmpty() {
        XCTAssertEqual(Planner.order([], timings: Timings(tests: ["x": 1])), [])
    }

    func testOrderDoesNotDependOnInputOrder() {
        var rng = SplitMix64(seed: 7)
        let tests = (0..<200).map { TestID("M.C/test\($0)") }
        var history: [String: Double] = [:]
        for t in tests where Bool.random(using: &rng) { history[t.description] = Double(Int.random(in: 1...20, using: &rng)) / 4 }
        let timings = Timings(tests: history)
        let reference = Planner.order(tests, timings: timings)
        for _ in 0..<5 {
            XCTAssertEqual(Planner.order(tests.shuffled(using: &rng), timings: timings), reference)
        }
        let misordered = zip(reference, reference.dropFirst()).first { a, b in
            !(a.expected > b.expected || (a.expected == b.expected && a.id < b.id))
        }
        XCTAssertNil(misordered.map { "\($0.0) before \($0.1)" })
    }
}

final class BatchCutterTests: XCTestCase {
    private func queue(_ seconds: [Double]) -> ArraySlice<PlannedTest> {
        ArraySlice(seconds.enumerated().map { PlannedTest(id: TestID("M.C/t\($0.offset)"), expected: $0.element, known: true) })
    }

    private func size(_ seconds: [Double], shards: Int, cutter: BatchCutter = BatchCutter()) -> Int {
        cutter.nextBatchSize(queue: queue(seconds), remainingSeconds: seconds.reduce(0, +), shards: shards)
    }

    func testDefaults() {
        XCTAssertEqual(BatchCutter(), BatchCutter(batchesPerShard: 2, minimumBatchSeconds: 0.5, maximumTests: 2_000))
    }

    func testEmptyQueueGivesZero() {
        XCTAssertEqual(BatchCutter().nextBatchSize(queue: [], remainingSeconds: 0, shards: 4), 0)
    }

    func testFirstBatchIsOneLongTestWhenItExceedsTheTarget() {
        // target = 150 / (2 × 2) = 37.5; the 100 s test alone is over it.
        XCTAssertEqual(size([100] + Array(repeating: 1, count: 50), shards: 2), 1)
    }

    func testFillsUpToTheTarget() {
        // target = 32 / (2 × 2) = 8: 4 + 2 + 2 = 8 fits exactly, the next 2 would not.
        XCTAssertEqual(size([4] + Array(repeating: 2, count: 14), shards: 2), 3)
    }

    func testStopsAtTheFirstTestThatWouldOverflow() {
        // target = 16 / 4 = 4: 3 fits, then 2 overflows; the 1 after it is not skipped to.
        XCTAssertEqual(size([3, 2] + Array(repeating: 1, count: 11), shards: 2), 1)
    }

    func testCountCapIsCeilingOfTestsOverSlotsWithoutHistory() {
        // Guessed durations: the time target (0.5 s minimum) would take all ten, the count cap splits them.
        func unknown(_ n: Int, shards: Int) -> Int {
            let q = ArraySlice((0..<n).map { PlannedTest(id: TestID("M.C/t\($0)"), expected: 0.01, known: false) })
            return BatchCutter().nextBatchSize(queue: q, remainingSeconds: Double(n) * 0.01, shards: shards)
        }
        XCTAssertEqual(unknown(10, shards: 4), 3)
        XCTAssertEqual(unknown(12, shards: 4), 3)
        XCTAssertEqual(unknown(13, shards: 4), 4)
        XCTAssertEqual(unknown(3, shards: 8), 1)
        XCTAssertEqual(unknown(10, shards: 1), 10)
    }

    func testKnownTinyTestsShareOneProcessUpToTheMinimumBatchTime() {
        // With history the time target rules: 0.1 s of work is not worth 4 process starts.
        XCTAssertEqual(size(Array(repeating: 0.01, count: 10), shards: 4), 10)
        XCTAssertEqual(size(Array(repeating: 0.03125, count: 100), shards: 4), 16, "0.5 s minimum batch: 16 × 1/32 s")
    }

    func testMinimumBatchSecondsRaisesTheTarget() {
        // 8 × 0.125 s on two shards: target = max(1 / (2 × 2), minimum).
        let tests = Array(repeating: 0.125, count: 8)
        XCTAssertEqual(size(tests, shards: 2), 4)
        XCTAssertEqual(size(tests, shards: 2, cutter: BatchCutter(minimumBatchSeconds: 0.75)), 6)
        XCTAssertEqual(size(tests, shards: 2, cutter: BatchCutter(minimumBatchSeconds: 0)), 2)
        XCTAssertEqual(size(tests, shards: 2, cutter: BatchCutter(batchesPerShard: 8, minimumBatchSeconds: 0)), 1)
    }

    func testOneShardTakesAllThatFitsInOneBatch() {
        // No other shard to even out with: no halving series of process starts.
        let tests = Array(repeating: 0.4, count: 23)
        XCTAssertEqual(size(tests, shards: 1), 23)
        XCTAssertEqual(size(tests, shards: 1, cutter: BatchCutter(batchesPerShard: 8, minimumBatchSeconds: 0)), 23)
        XCTAssertEqual(size(tests, shards: 1, cutter: BatchCutter(maximumTests: 10)), 10)
        XCTAssertEqual(size(tests, shards: 2), 5, "two shards still halve: 9.2 / (2 × 2) = 2.3 s, five tests")
    }

    func testMaximumTestsCaps() {
        let tests = Array(repeating: 0.001, count: 100)
        XCTAssertEqual(size(tests, shards: 1, cutter: BatchCutter(maximumTests: 7)), 7)
        XCTAssertEqual(size(tests, shards: 1, cutter: BatchCutter(maximumTests: 1)), 1)
        XCTAssertEqual(size(tests, shards: 1, cutter: BatchCutter(maximumTests: 0)), 1, "never less than one test")
    }

    func testZeroOrNegativeSlotsCountAsOne() {
        let tests = Array(repeating: 0.01, count: 10)
        XCTAssertEqual(size(tests, shards: 0), 10)
        XCTAssertEqual(size(tests, shards: -3), 10)
    }

    func testUsesRemainingSecondsNotTheQueueSum() {
        // The caller's estimate of what is left may differ from the planned times.
        let q = queue(Array(repeating: 1, count: 40))
        XCTAssertEqual(BatchCutter().nextBatchSize(queue: q, remainingSeconds: 40, shards: 2), 10)
        XCTAssertEqual(BatchCutter().nextBatchSize(queue: q, remainingSeconds: 80, shards: 2), 20)
        XCTAssertEqual(BatchCutter().nextBatchSize(queue: q, remainingSeconds: 0, shards: 2), 1)
    }

    func testCutsFromAnySliceOffset() {
        let whole = queue([5, 5, 1, 1, 1, 1])
        XCTAssertEqual(BatchCutter().nextBatchSize(queue: whole[2...], remainingSeconds: 8, shards: 2), 2)
    }

    func testBatchesShrinkTowardsTheEnd() {
        // 200 × 1 s on 4 shards, cut one after another.
        var rest = queue(Array(repeating: 1, count: 200))
        var sizes: [Int] = []
        let cutter = BatchCutter()
        while !rest.isEmpty {
            let n = cutter.nextBatchSize(queue: rest, remainingSeconds: Double(rest.count), shards: 4)
            XCTAssertGreaterThan(n, 0)
            sizes.append(n)
            rest = rest.dropFirst(n)
        }
        XCTAssertEqual(sizes.reduce(0, +), 200)
        XCTAssertEqual(Array(sizes.prefix(4)), [25, 21, 19, 16])
        XCTAssertEqual(sizes, sizes.sorted(by: >), "never grows")
        XCTAssertEqual(Array(sizes.suffix(2)), [1, 1])
    }
}
