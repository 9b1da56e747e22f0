/// Splits a suite between N machines.
///
/// Every machine computes its own share, so the split may depend only on what every machine
/// is sure to have in common: the selected test list, N, and (only when asked for, with
/// `--partition-timings FILE`) one durations file every machine reads. A machine's own report
/// folder (its `timings.json`, its cache) never enters the split: machines with different
/// caches would cut the suite differently, and a test could run on no machine or on two.
public enum Partitioner {
    /// What a split is computed from.
    public enum Split: Sendable, Equatable {
        /// The sorted test list dealt round-robin: counts within 1, no history needed.
        case even
        /// Longest-first onto the least-loaded share, from one durations file every machine
        /// reads (`source` names it for messages).
        case timings(Timings, source: String)
    }

    /// This machine's share (sorted) and the plan that records how it was cut.
    public static func plan(suite: [TestID], index: Int, count: Int, split: Split) -> (share: [TestID], plan: PartitionPlan) {
        let n = max(1, count)
        let shares: [[TestID]]
        let words: String
        let digest: String
        switch split {
        case .even:
            shares = evenShares(of: suite, count: n)
            words = "an even split of the \(suite.count) selected tests (sorted by id, dealt round-robin)"
            digest = evenSplitDigest(of: suite, count: n)
        case .timings(let timings, let source):
            shares = Self.shares(of: suite, timings: timings, count: n)
            let known = suite.filter { timings[$0] != nil }.count
            words = "durations from \(source) (\(known) of \(suite.count) tests known)"
            digest = planDigest(of: suite, timings: timings, count: n)
        }
        let k = min(max(index, 1), n)
        return (shares[k - 1], PartitionPlan(index: k, count: n, suite: suite, split: words, splitDigest: digest))
    }

    /// The sorted list dealt round-robin: test i (by id) goes to share i mod N. Counts differ
    /// by at most one, every machine computes the same shares from the same list, and a
    /// class's tests (often alike in length) are spread over the machines, not stacked on one.
    public static func evenShares(of tests: [TestID], count: Int) -> [[TestID]] {
        let n = max(1, count)
        var shares = Array(repeating: [TestID](), count: n)
        for (i, t) in Set(tests).sorted().enumerated() { shares[i % n].append(t) }
        return shares
    }

    /// The digest of an even split (the suite and N): equal on every machine that made it.
    public static func evenSplitDigest(of tests: [TestID], count n: Int) -> String {
        "even-" + String(stableHash("even\n\(n)\n" + RunPlan.digest(of: tests)), radix: 16)
    }

    /// The shares `plan` was cut into, when they can be recomputed from the plan alone (an
    /// even split); nil for a timings split (its durations are not recorded).
    public static func recomputedShares(of plan: PartitionPlan) -> [[TestID]]? {
        guard plan.splitDigest == evenSplitDigest(of: plan.suite, count: plan.count) else { return nil }
        return evenShares(of: plan.suite, count: plan.count)
    }

    /// Longest-first onto the least-loaded share (ties by name; ties in load to the lowest
    /// index). Tests without a duration are spread by a stable hash of their name, so adding
    /// a test never moves the others.
    public static func shares(of tests: [TestID], timings: Timings, count: Int) -> [[TestID]] {
        let n = max(1, count)
        var shares = Array(repeating: [TestID](), count: n)
        var load = Array(repeating: 0.0, count: n)
        let known = tests.filter { timings[$0] != nil }
        let unknown = tests.filter { timings[$0] == nil }
        for t in Planner.order(known, timings: timings) {
            var best = 0
            for i in 1..<n where load[i] < load[best] { best = i }
            shares[best].append(t.id)
            load[best] += t.expected
        }
        for t in unknown.sorted() {
            shares[Int(stableHash(t.description) % UInt64(n))].append(t)
        }
        return shares.map { $0.sorted() }
    }

    /// What a timings split depends on (N, the tests, their durations), as a short digest:
    /// machines whose digests differ may have put a test in no share or in two.
    public static func planDigest(of tests: [TestID], timings: Timings, count n: Int) -> String {
        var text = "\(n)\n"
        for t in tests.map(\.description).sorted() {
            text += t + "=" + (timings.tests[t].map { String($0) } ?? "?") + "\n"
        }
        return String(stableHash(text), radix: 16)
    }

    /// FNV-1a: the same on every machine and Swift version (unlike `hashValue`).
    public static func stableHash(_ s: String) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in s.utf8 {
            h ^= UInt64(b)
            h = h &* 0x100_0000_01b3
        }
        return h
    }
}
