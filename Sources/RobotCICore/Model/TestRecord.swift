/// Everything known about one test after a run: every attempt and the verdict.
public struct TestRecord: Codable, Sendable, Equatable {
    public var id: TestID
    public var outcome: Outcome
    public var attempts: [Attempt]
    /// Listed as quarantined in config.
    public var quarantined: Bool

    public init(id: TestID, attempts: [Attempt], quarantined: Bool = false) {
        self.id = id
        self.attempts = attempts
        self.quarantined = quarantined
        self.outcome = Outcome.verdict(for: attempts.map(\.outcome), quarantined: quarantined)
    }

    /// Recomputes `outcome` from the attempts (after merging attempts from several inputs).
    public mutating func recomputeOutcome() {
        outcome = Outcome.verdict(for: attempts.map(\.outcome), quarantined: quarantined)
    }

    /// Source location of the latest attempt's first located failure, for JUnit's
    /// `file`/`line` and annotations.
    public var location: (file: String, line: Int)? {
        for attempt in attempts.reversed() {
            for f in attempt.failures {
                if let file = f.file, let line = f.line { return (file, line) }
            }
        }
        return nil
    }

    /// Duration used for timings: the last passing attempt, else the last attempt.
    public var representativeDuration: Double {
        (attempts.last(where: { $0.outcome == .passed }) ?? attempts.last)?.duration ?? 0
    }
}
