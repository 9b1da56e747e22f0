/// `--repeat-each N` / `--until-failure`: the k-th of n runs of a test is a test of its own,
/// `Module.Class/testFoo (repeat 2 of 5)`, so every repetition has its own verdict, retries,
/// report entry and JUnit `<testcase>` (name `testFoo (repeat 2 of 5)`), and the run's plan
/// counts n × tests. The suffix has no `/` and no `::`, so `className` and `name` split the
/// id as they split the test's own, and a JUnit file read back gives the same id.
extension TestID {
    /// Which repetition of which test an id is.
    public struct Repetition: Sendable, Hashable {
        /// The test as its runner names it.
        public var base: TestID
        /// 1-based.
        public var index: Int
        public var count: Int
    }

    /// The `index`-th of `count` repetitions of this test.
    public func repetition(_ index: Int, of count: Int) -> TestID {
        TestID("\(rawValue) (repeat \(index) of \(count))")
    }

    /// The repetition this id names, nil for a test's own id.
    public var repetition: Repetition? {
        // ` (repeat K of N)` at the very end, K and N decimal, 1 ≤ K ≤ N.
        guard rawValue.hasSuffix(")"), let open = rawValue.range(of: " (repeat ", options: .backwards) else { return nil }
        let inner = rawValue[open.upperBound..<rawValue.index(before: rawValue.endIndex)]
        let parts = inner.split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[1] == "of", parts[0].allSatisfy(\.isASCII), parts[2].allSatisfy(\.isASCII),
              let k = Int(parts[0]), let n = Int(parts[2]), k >= 1, k <= n, open.lowerBound > rawValue.startIndex
        else { return nil }
        return Repetition(base: TestID(String(rawValue[..<open.lowerBound])), index: k, count: n)
    }

    /// The test this id runs: the id itself, or the test a repetition repeats.
    public var base: TestID { repetition?.base ?? self }

    /// Each of `tests` `count` times, repetition by repetition (all tests' first runs, then
    /// all second runs…), so a batch cut off the front holds one repetition of each test and
    /// later repetitions can land on other shards. `count` ≤ 1: the tests as they are.
    public static func repeating(_ tests: [TestID], count: Int) -> [TestID] {
        guard count > 1 else { return tests }
        return (1...count).flatMap { k in tests.map { $0.repetition(k, of: count) } }
    }
}
