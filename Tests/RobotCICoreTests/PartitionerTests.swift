import RobotCICore
import XCTest

final class PartitionerTests: XCTestCase {
    /// A suite of `count` tests, about two thirds with history (skewed: a few long ones).
    private func suite(count: Int, seed: UInt64) -> (tests: [TestID], timings: Timings) {
        var rng = SplitMix64(seed: seed)
        var tests: [TestID] = []
        var history: [String: Double] = [:]
        for i in 0..<count {
            let id = TestID("Mod\(i % 3).Class\(i % 17)/test\(i)")
            tests.append(id)
            guard Int.random(in: 0..<3, using: &rng) > 0 else { continue }
            let seconds = Int.random(in: 0..<10, using: &rng) == 0
                ? Double.random(in: 5...60, using: &rng) : Double.random(in: 0.001...2, using: &rng)
            history[id.rawValue] = seconds
        }
        // History also names tests that no longer exist.
        history["Gone.Class/testRemoved"] = 100
        return (tests, Timings(tests: history))
    }

    private func load(_ share: [TestID], _ timings: Timings) -> Double {
        share.reduce(0) { $0 + (timings[$1] ?? 0) }
    }

    func testEveryTestExactlyOnceForOneToEightShares() {
        let (tests, timings) = suite(count: 300, seed: 1)
        for n in 1...8 {
            let shares = Partitioner.shares(of: tests, timings: timings, count: n)
            XCTAssertEqual(shares.count, n)
            let all = shares.flatMap { $0 }
            XCTAssertEqual(all.count, tests.count, "N=\(n)")
            XCTAssertEqual(Set(all), Set(tests), "N=\(n)")
            for share in shares { XCTAssertEqual(share, share.sorted(), "shares are sorted by id") }
        }
    }

    func testDeterministicAndIndependentOfInputOrder() {
        let (tests, timings) = suite(count: 400, seed: 2)
        var rng = SplitMix64(seed: 99)
        for n in 1...8 {
            let reference = Partitioner.shares(of: tests, timings: timings, count: n)
            XCTAssertEqual(Partitioner.shares(of: tests, timings: timings, count: n), reference)
            XCTAssertEqual(Partitioner.shares(of: tests.shuffled(using: &rng), timings: timings, count: n), reference, "N=\(n)")
        }
    }

    func testKnownLoadIsBalancedWithinTheLongestTest() {
        for seed: UInt64 in [3, 4, 5] {
            let (tests, timings) = suite(count: 350, seed: seed)
            let longest = tests.compactMap { timings[$0] }.max() ?? 0
            XCTAssertGreaterThan(longest, 5)
            for n in 1...8 {
                let loads = Partitioner.shares(of: tests, timings: timings, count: n).map { load($0, timings) }
                let spread = (loads.max() ?? 0) - (loads.min() ?? 0)
                XCTAssertLessThanOrEqual(spread, longest + 1e-9, "seed \(seed) N=\(n) loads \(loads)")
            }
        }
    }

    func testBalancesBetterThanTheBoundOnAnEasySuite() {
        // 8 tests of 4 s and 8 of 1 s on 4 shares: 10 s each, exactly.
        var history: [String: Double] = [:]
        var tests: [TestID] = []
        for i in 0..<8 {
            tests += [TestID("M.Long/test\(i)"), TestID("M.Short/test\(i)")]
            history["M.Long/test\(i)"] = 4
            history["M.Short/test\(i)"] = 1
        }
        let timings = Timings(tests: history)
        let loads = Partitioner.shares(of: tests, timings: timings, count: 4).map { load($0, timings) }
        XCTAssertEqual(loads, [10, 10, 10, 10])
    }

    func testKnownTestsGreedyLowestIndexOnTies() {
        let timings = Timings(tests: ["M/a": 5, "M/b": 4, "M/c": 3, "M/d": 2, "M/e": 1])
        let shares = Partitioner.shares(of: ["M/e", "M/d", "M/c", "M/b", "M/a"].map { TestID($0) }, timings: timings, count: 2)
        // a→0 (5), b→1 (4), c→1 (7), d→0 (7), e→0 (tie, lowest index: 8)
        XCTAssertEqual(shares.map { $0.map(\.rawValue) }, [["M/a", "M/d", "M/e"], ["M/b", "M/c"]])
    }

    func testUnknownTestsArePlacedByStableHash() {
        let (tests, timings) = suite(count: 300, seed: 6)
        let unknown = tests.filter { timings[$0] == nil }
        XCTAssertGreaterThan(unknown.count, 50)
        for n in 1...8 {
            let shares = Partitioner.shares(of: tests, timings: timings, count: n)
            for t in unknown {
                let expected = Int(Partitioner.stableHash(t.rawValue) % UInt64(n))
                XCTAssertTrue(shares[expected].contains(t), "\(t) N=\(n)")
            }
        }
    }

    func testAddingTestsDoesNotMoveExistingUnknownTests() {
        let (tests, timings) = suite(count: 300, seed: 7)
        let added = (0..<25).map { TestID("Mod9.NewClass/testAdded\($0)") }
        for n in 2...8 {
            let before = Partitioner.shares(of: tests, timings: timings, count: n)
            let after = Partitioner.shares(of: tests + added, timings: timings, count: n)
            for (i, share) in before.enumerated() {
                // Known tests stay too: unknown tests never affect the greedy placement.
                XCTAssertEqual(Set(share).subtracting(after[i]), [], "N=\(n) share \(i) lost tests")
            }
            XCTAssertEqual(Set(after.flatMap { $0 }), Set(tests + added))
        }
    }

    func testUnknownSpreadIsRoughlyEven() {
        let tests = (0..<800).map { TestID("M.C/test\($0)") }
        let shares = Partitioner.shares(of: tests, timings: Timings(), count: 4)
        for share in shares { XCTAssertTrue((150...250).contains(share.count), "\(shares.map(\.count))") }
    }

    func testCountBelowOneIsOneShare() {
        let tests = [TestID("M/b"), TestID("M/a")]
        XCTAssertEqual(Partitioner.shares(of: tests, timings: Timings(), count: 0), [[TestID("M/a"), TestID("M/b")]])
        XCTAssertEqual(Partitioner.shares(of: [], timings: Timings(), count: 3), [[], [], []])
    }

    func testStableHashIsFNV1a64() {
        // Published FNV-1a 64-bit test vectors.
        XCTAssertEqual(Partitioner.stableHash(""), 0xcbf2_9ce4_8422_2325)
        XCTAssertEqual(Partitioner.stableHash("a"), 0xaf63_dc4c_8601_ec8c)
        XCTAssertEqual(Partitioner.stableHash("foobar"), 0x8594_4171_f739_67e8)
    }
}

final class PartitionParsingTests: XCTestCase {
    func testParsesKOverN() throws {
        XCTAssertEqual(try Partition(parsing: "2/4"), try Partition(index: 2, count: 4))
        XCTAssertEqual(try Partition(parsing: " 1 / 1 ").description, "1/1")
        let p = try Partition(parsing: "4/4")
        XCTAssertEqual(p.index, 4)
        XCTAssertEqual(p.count, 4)
    }

    func testNotKOverN() {
        for text in ["2", "", "/", "a/b", "2/4/6", "2/", "/4", "2-4", "2.0/4"] {
            XCTAssertThrowsError(try Partition(parsing: text), text) { error in
                XCTAssertEqual(error as? ConfigError,
                               ConfigError("partition '\(text)' is not K/N: write e.g. --partition 2/4 (the 2nd of 4 machines)"))
            }
        }
    }

    func testOutOfRange() {
        for (text, k, n) in [("0/4", 0, 4), ("5/4", 5, 4), ("1/0", 1, 0), ("-1/4", -1, 4), ("0/0", 0, 0)] {
            XCTAssertThrowsError(try Partition(parsing: text), text) { error in
                XCTAssertEqual(error as? ConfigError,
                               ConfigError("partition \(k)/\(n) is out of range: use K/N with 1 ≤ K ≤ N, e.g. 2/4"))
            }
        }
        XCTAssertThrowsError(try Partition(index: 3, count: 2))
    }

    func testConfigErrorDescriptionIsItsMessage() {
        XCTAssertEqual(ConfigError("x: y").description, "x: y")
    }
}
