/// Everything known about one test after a run: every attempt and the verdict.
public struct TestRecord: Codable, Sendable, Equatable {
    public var id: TestID
    public var outcome: Outcome
    public var attempts: [Attempt]
    /// Listed as quarantined in config.
    public var quarantined: Bool
    /// Why a `notRun` test has no result (nil for every other verdict).
    public var reason: String?
    /// The `quarantine:` entry that quarantines it (owner, reason, expiry); nil for a regex or none.
    public var quarantineEntry: QuarantineEntry?
    /// A failing test that passed at the same commit before: where (the flake ledger's word).
    public var likelyFlaky: LikelyFlaky?

    public init(id: TestID, attempts: [Attempt], quarantined: Bool = false, reason: String? = nil) {
        self.id = id
        self.attempts = attempts
        self.quarantined = quarantined
        self.outcome = Outcome.verdict(for: attempts.map(\.outcome), quarantined: quarantined)
        self.reason = outcome == .notRun ? (reason ?? "no attempt of it has a result") : nil
    }

    /// A planned test without any result.
    public static func notRun(_ id: TestID, reason: String, quarantined: Bool = false) -> TestRecord {
        TestRecord(id: id, attempts: [], quarantined: quarantined, reason: reason)
    }

    /// Recomputes `outcome` from the attempts (after merging attempts from several inputs).
    public mutating func recomputeOutcome() {
        outcome = Outcome.verdict(for: attempts.map(\.outcome), quarantined: quarantined)
        if outcome != .notRun { reason = nil } else if reason == nil { reason = "no attempt of it has a result" }
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
