/// How a run repeated its tests (`--repeat-each N`, `--until-failure`), for results.json,
/// the report's summary and the console.
public struct RepetitionSummary: Codable, Sendable, Equatable, CustomStringConvertible {
    /// N of `--repeat-each N`; with `untilFailure`, the most repetitions the run may start.
    public var count: Int
    /// `--until-failure`: no repetition starts after one failed for good.
    public var untilFailure: Bool
    /// Repetitions that began (with `untilFailure`: those the first failure did not cancel).
    public var ran: Int
    /// With `untilFailure`: the repetition whose failure stopped the run, if one did.
    public var firstFailure: TestID?

    public init(count: Int, untilFailure: Bool, ran: Int, firstFailure: TestID? = nil) {
        self.count = count
        self.untilFailure = untilFailure
        self.ran = ran
        self.firstFailure = firstFailure
    }

    /// Several machines' summaries of one run (partitions, a queue): the first's, with the
    /// highest repetition any of them ran; nil when none repeated.
    public static func merged(_ summaries: [RepetitionSummary?]) -> RepetitionSummary? {
        let given = summaries.compactMap { $0 }
        guard var merged = given.first else { return nil }
        merged.ran = given.map(\.ran).max() ?? merged.ran
        merged.firstFailure = given.compactMap(\.firstFailure).first
        return merged
    }

    public var description: String {
        guard untilFailure else { return "each test \(count) times (--repeat-each \(count))" }
        guard let firstFailure else {
            return "--until-failure: all \(ran) of \(count) repetitions ran without a failure (the cap)"
        }
        return "--until-failure: \(ran) of up to \(count) repetitions ran; \(firstFailure) failed first, "
            + "so no later repetition started"
    }
}
