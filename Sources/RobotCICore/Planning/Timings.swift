/// Per-test durations from earlier runs (`timings.json`), used to plan the next one.
/// A test's identity is structure here too: `tests` holds the default engine's tests by their
/// own ids, `browsers` each other engine's (`{"webkit": {id: seconds}}`); repetitions are no
/// measure and are not kept. Version 2 added `browsers`; a version 1 file reads as one without.
public struct Timings: Codable, Sendable, Equatable {
    public var version = Timings.formatVersion
    /// Seconds per test id, on the default engine.
    public var tests: [String: Double]
    /// Seconds per test id, per other browser engine (nil: none ran).
    public var browsers: [String: [String: Double]]?

    public static let formatVersion = 2

    public init(tests: [String: Double] = [:], browsers: [String: [String: Double]]? = nil) {
        self.tests = tests
        self.browsers = browsers
    }

    /// The known duration of `id`'s test on `id`'s browser.
    public subscript(id: TestID) -> Double? {
        guard let browser = id.browser else { return tests[id.test] }
        return browsers?[browser]?[id.test]
    }

    /// Median of the known durations, the guess for tests never seen before.
    public var median: Double? { Self.median(Array(tests.values)) }

    /// The median duration of each class's known tests (`TestID.className`): the guess for a
    /// new test of a class the suite already timed (a UI class's new test is no 1 ms unit test).
    public var classMedians: [String: Double] {
        var byClass: [String: [Double]] = [:]
        for (id, seconds) in tests { byClass[TestID(id).className, default: []].append(seconds) }
        return byClass.compactMapValues(Self.median)
    }

    static func median(_ values: [Double]) -> Double? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        let mid = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
    }

    /// These timings updated with a run's results; tests not in the run keep their old value
    /// so a partition's report does not erase what other machines measured. Repetitions
    /// (`--repeat-each`) are left out: a burn-in run is no measure of the suite's next run.
    public func updated(with tests: [TestRecord]) -> Timings {
        var copy = self
        for t in tests where Self.measures(t) {
            if let browser = t.id.browser {
                copy.browsers = copy.browsers ?? [:]
                copy.browsers?[browser, default: [:]][t.id.test] = t.representativeDuration
            } else {
                copy.tests[t.id.test] = t.representativeDuration
            }
        }
        copy.version = Self.formatVersion
        return copy
    }

    /// Whether `updated(with:)` takes `test`'s duration from its run.
    public static func measures(_ test: TestRecord) -> Bool {
        test.outcome != .skipped && !test.attempts.isEmpty && test.id.repetition == nil
    }
}

/// A test with the time it is expected to take.
public struct PlannedTest: Sendable, Equatable {
    public var id: TestID
    public var expected: Double
    /// Whether `expected` came from history (false: a guess).
    public var known: Bool
    /// For a guess: whether something stands behind it, its class's known tests or (for a
    /// test put back after a crash) its earlier estimate. False: the suite's median, or
    /// `Planner.defaultEstimate` without any history; only such blind guesses are replaced by
    /// what the run learns (`WorkQueue`).
    public var informed: Bool

    public init(id: TestID, expected: Double, known: Bool, informed: Bool = false) {
        self.id = id
        self.expected = expected
        self.known = known
        self.informed = informed
    }

    /// A guess with nothing of the test's own or its class's behind it.
    public var isBlindGuess: Bool { !known && !informed }
}

public enum Planner {
    /// Guess for a test when no history exists at all.
    public static let defaultEstimate = 1.0

    /// Tests ordered longest-first (ties by name, so every machine orders them the same). A
    /// test without history expects its class's median, else the suite's, else the default.
    /// Repetitions (`--repeat-each`) go repetition by repetition, each longest-first, and
    /// expect their test's duration. Browsers (`--browsers`) go browser by browser, in the order
    /// `tests` first names them, each longest-first: a process runs one engine, so interleaved
    /// engines would cut every batch to one test.
    public static func order(_ tests: [TestID], timings: Timings) -> [PlannedTest] {
        let fallback = timings.median ?? defaultEstimate
        let classes = timings.classMedians
        var engines: [String?: Int] = [:]
        for id in tests where engines[id.browser] == nil { engines[id.browser] = engines.count }
        return tests.map { id -> (test: PlannedTest, repetition: Int, engine: Int) in
            let base = id.unrepeated
            let planned = timings[base].map { PlannedTest(id: id, expected: $0, known: true) }
                ?? classes[base.className].map { PlannedTest(id: id, expected: $0, known: false, informed: true) }
                ?? PlannedTest(id: id, expected: fallback, known: false)
            return (planned, id.repetition?.index ?? 0, engines[id.browser] ?? 0)
        }
        .sorted { a, b in
            if a.repetition != b.repetition { return a.repetition < b.repetition }
            if a.engine != b.engine { return a.engine < b.engine }
            return a.test.expected != b.test.expected ? a.test.expected > b.test.expected : a.test.id < b.test.id
        }
        .map(\.test)
    }
}
