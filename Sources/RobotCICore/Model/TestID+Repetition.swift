/// `--repeat-each N` / `--until-failure`: the k-th of n runs of a test is a test of its own,
/// so every repetition has its own verdict, retries, report entry and JUnit `<testcase>`, and
/// the run's plan counts n × tests. The repetition is `TestID.repetition`, data in every stored
/// format; its text, `Module.Class/testFoo (repeat 2 of 5)` (JUnit name `testFoo (repeat 2 of
/// 5)`), is only for people and JUnit.
extension TestID {
    /// Which of the runs of a test an id is.
    public struct Repetition: Sendable, Hashable, Codable {
        /// 1-based.
        public var index: Int
        public var count: Int

        public init(index: Int, count: Int) {
            self.index = index
            self.count = count
        }

        private enum CodingKeys: String, CodingKey { case index, count }

        /// A file is text from anywhere: a repetition outside 1…count is refused, not run.
        public init(from decoder: Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            index = try c.decode(Int.self, forKey: .index)
            count = try c.decode(Int.self, forKey: .count)
            guard index >= 1, index <= count else {
                throw DecodingError.dataCorruptedError(forKey: .index, in: c, debugDescription: "repetition \(index) of \(count) is out of range")
            }
        }
    }

    /// The `index`-th of `count` repetitions of this test (of a repetition's test), on its browser.
    public func repetition(_ index: Int, of count: Int) -> TestID {
        TestID(test, repetition: Repetition(index: index, count: count), browser: browser)
    }

    /// Each of `tests` `count` times, repetition by repetition (all tests' first runs, then
    /// all second runs…), so a batch cut off the front holds one repetition of each test and
    /// later repetitions can land on other shards. `count` ≤ 1: the tests as they are.
    public static func repeating(_ tests: [TestID], count: Int) -> [TestID] {
        guard count > 1 else { return tests }
        return (1...count).flatMap { k in tests.map { $0.repetition(k, of: count) } }
    }
}
