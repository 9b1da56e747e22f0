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
            history[id.description] = seconds
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
        XCTAssertEqual(shares.map { $0.map(\.description) }, [["M/a", "M/d", "M/e"], ["M/b", "M/c"]])
    }

    func testUnknownTestsArePlacedByStableHash() {
        let (tests, timings) = suite(count: 300, seed: 6)
        let unknown = tests.filter { timings[$0] == nil }
        XCTAssertGreaterThan(unknown.count, 50)
        for n in 1...8 {
            let shares = Partitioner.shares(of: tests, timings: timings, count: n)
            for t in unknown {
                let expected = Int(Partitioner.stableHash(t.description) % UInt64(n))
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
                               ConfigError("partition '\(text)' is not K/N: write e.g. --partition 2/4 (the 2nd of 4 machines), or --partition auto (K/N from the CI's parallel-job variables)"))
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

/// The default split: the sorted suite dealt round-robin, the same on every machine whatever
/// its own report folder holds.
final class EvenSplitTests: XCTestCase {
    private func suite(_ count: Int) -> [TestID] { (0..<count).map { TestID("Mod\($0 % 3).Class\($0 % 7)/test\($0)") } }

    func testEveryTestExactlyOnceAndCountsWithinOne() {
        for size in [0, 1, 5, 40, 41, 333] {
            let tests = suite(size)
            for n in 1...8 {
                let shares = Partitioner.evenShares(of: tests, count: n)
                XCTAssertEqual(shares.count, n)
                XCTAssertEqual(shares.flatMap { $0 }.sorted(), tests.sorted(), "size \(size) N=\(n)")
                let counts = shares.map(\.count)
                XCTAssertLessThanOrEqual((counts.max() ?? 0) - (counts.min() ?? 0), 1, "size \(size) N=\(n): \(counts)")
                for share in shares { XCTAssertEqual(share, share.sorted()) }
            }
        }
    }

    func testDeterministicAndIndependentOfInputOrderAndDuplicates() {
        let tests = suite(120)
        var rng = SplitMix64(seed: 5)
        for n in 1...6 {
            let reference = Partitioner.evenShares(of: tests, count: n)
            XCTAssertEqual(Partitioner.evenShares(of: tests.shuffled(using: &rng), count: n), reference)
            XCTAssertEqual(Partitioner.evenShares(of: tests + tests.prefix(3), count: n), reference)
        }
    }

    func testPlanRecordsTheSplitAndADigestEveryMachineAgreesOn() {
        let tests = suite(40)
        let plans = (1...4).map { Partitioner.plan(suite: tests.shuffled(), index: $0, count: 4, split: .even) }
        XCTAssertEqual(Set(plans.map(\.plan.splitDigest)).count, 1)
        XCTAssertEqual(Set(plans.map(\.plan.suiteDigest)), [RunPlan.digest(of: tests)])
        XCTAssertEqual(plans.map(\.share.count), [10, 10, 10, 10])
        XCTAssertEqual(plans[1].plan.split, "an even split of the 40 selected tests (sorted by id, dealt round-robin)")
        XCTAssertEqual(Partitioner.recomputedShares(of: plans[2].plan), Partitioner.evenShares(of: tests, count: 4))
        XCTAssertNotEqual(Partitioner.plan(suite: tests, index: 1, count: 5, split: .even).plan.splitDigest, plans[0].plan.splitDigest,
                          "N is part of the split")
        XCTAssertNotEqual(Partitioner.plan(suite: Array(tests.dropLast()), index: 1, count: 4, split: .even).plan.splitDigest,
                          plans[0].plan.splitDigest, "the suite is part of the split")
    }

    func testATimingsSplitIsRecordedWithItsDurationsAndCannotBeRecomputed() {
        let tests = suite(30)
        let a = Timings(tests: [tests[0].description: 30, tests[1].description: 2])
        let b = Timings(tests: [tests[0].description: 1, tests[1].description: 2])
        let pa = Partitioner.plan(suite: tests, index: 1, count: 3, split: .timings(a, source: "cache/timings.json"))
        let pb = Partitioner.plan(suite: tests, index: 1, count: 3, split: .timings(b, source: "cache/timings.json"))
        XCTAssertEqual(pa.share, Partitioner.shares(of: tests, timings: a, count: 3)[0])
        XCTAssertEqual(pa.plan.split, "durations from cache/timings.json (2 of 30 tests known)")
        XCTAssertNotEqual(pa.plan.splitDigest, pb.plan.splitDigest, "machines reading different files disagree, and merge sees it")
        XCTAssertNotEqual(pa.plan.splitDigest, Partitioner.plan(suite: tests, index: 1, count: 3, split: .even).plan.splitDigest)
        XCTAssertNil(Partitioner.recomputedShares(of: pa.plan))
    }

    func testRunIDComesFromTheCIOrROBOTCI_RUN_ID() {
        XCTAssertNil(CIRunID.detect([:]))
        XCTAssertEqual(CIRunID.detect(["GITHUB_RUN_ID": "99", "GITHUB_RUN_ATTEMPT": "2"])?.id, "99-2")
        XCTAssertEqual(CIRunID.detect(["GITHUB_RUN_ID": "99"])?.id, "99-1")
        XCTAssertEqual(CIRunID.detect(["CI_PIPELINE_ID": "512"]), CIRunID.Detected(id: "512", source: "CI_PIPELINE_ID (GitLab)"))
        XCTAssertEqual(CIRunID.detect(["BUILDKITE_BUILD_ID": "b"])?.id, "b")
        XCTAssertEqual(CIRunID.detect(["CIRCLE_WORKFLOW_ID": "w"])?.id, "w")
        XCTAssertEqual(CIRunID.detect(["ROBOTCI_RUN_ID": "mine", "CI_PIPELINE_ID": "512"])?.id, "mine", "explicit wins")
        XCTAssertNil(CIRunID.detect(["ROBOTCI_RUN_ID": " "]))
    }
}
