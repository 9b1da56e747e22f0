/// Splits a suite between N machines so each runs about the same expected time.
///
/// Deterministic: every machine computes the same split from the same test list and
/// timings (longest-first, ties by name; each test goes to the least-loaded share,
/// ties to the lowest index). Tests with no history are spread by a stable hash of
/// their name, so adding a test never moves the others.
public enum Partitioner {
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
            shares[Int(stableHash(t.rawValue) % UInt64(n))].append(t)
        }
        return shares.map { $0.sorted() }
    }

    /// FNV-1a: the same on every machine and Swift version (unlike `hashValue`).
    /// What a split depends on, as a short digest: machines whose digests differ may have
    /// put a test in no share or in two.
    public static func planDigest(of tests: [TestID], timings: Timings, count n: Int) -> String {
        var text = "\(n)\n"
        for t in tests.map(\.rawValue).sorted() {
            text += t + "=" + (timings.tests[t].map { String($0) } ?? "?") + "\n"
        }
        return String(stableHash(text), radix: 16)
    }

    public static func stableHash(_ s: String) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in s.utf8 {
            h ^= UInt64(b)
            h = h &* 0x100_0000_01b3
        }
        return h
    }
}
