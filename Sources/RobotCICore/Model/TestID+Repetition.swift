/// `--repeat-each N` / `--until-failure`: the k-th of n runs of a test is a test of its own,
/// so every repetition has its own verdict, retries, report entry and JUnit `<testcase>`, and
/// the run's plan counts n × tests. Inside the program the repetition is `TestID.repetition`;
/// its text, `Module.Class/testFoo (repeat 2 of 5)` (JUnit name `testFoo (repeat 2 of 5)`),
/// exists only where ids go out and come back in. The suffix has no `/` and no `::`, so
/// `className` and `name` split the text as they split the test's own, and a JUnit file read
/// back gives the same id.
extension TestID {
    /// Which of the runs of a test an id is.
    public struct Repetition: Sendable, Hashable {
        /// 1-based.
        public var index: Int
        public var count: Int

        public init(index: Int, count: Int) {
            self.index = index
            self.count = count
        }
    }

    /// The `index`-th of `count` repetitions of this test (of a repetition's test).
    public func repetition(_ index: Int, of count: Int) -> TestID {
        TestID(ownID: base.rawValue, repetition: Repetition(index: index, count: count))
    }

    /// This id's test as `repetition` (nil: the test's own id): a repetition's id rebuilt
    /// around a test's renamed id.
    public func repeated(as repetition: Repetition?) -> TestID {
        repetition.map { TestID(ownID: base.rawValue, repetition: $0) } ?? base
    }

    /// The id that `text`, as robotci writes ids, names: ` (repeat K of N)` at its very end
    /// (K and N decimal, 1 ≤ K ≤ N, after a non-empty id) makes it a repetition; any other
    /// text is a test's own id. For text coming in (results.json, the journal, JUnit, the
    /// queue): a test's own name that ends like a repetition reads back as one, since its
    /// text is the same, until the reader knows better (`RunResult.resolvingRepetitions`).
    public static func parsing(_ text: String) -> TestID {
        guard text.hasSuffix(")"), let open = text.range(of: " (repeat ", options: .backwards) else { return TestID(text) }
        let inner = text[open.upperBound..<text.index(before: text.endIndex)]
        let parts = inner.split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[1] == "of", parts[0].allSatisfy(\.isASCII), parts[2].allSatisfy(\.isASCII),
              let k = Int(parts[0]), let n = Int(parts[2]), k >= 1, k <= n, open.lowerBound > text.startIndex
        else { return TestID(text) }
        return TestID(ownID: String(text[..<open.lowerBound]), repetition: Repetition(index: k, count: n))
    }

    /// Each of `tests` `count` times, repetition by repetition (all tests' first runs, then
    /// all second runs…), so a batch cut off the front holds one repetition of each test and
    /// later repetitions can land on other shards. `count` ≤ 1: the tests as they are.
    public static func repeating(_ tests: [TestID], count: Int) -> [TestID] {
        guard count > 1 else { return tests }
        return (1...count).flatMap { k in tests.map { $0.repetition(k, of: count) } }
    }
}
