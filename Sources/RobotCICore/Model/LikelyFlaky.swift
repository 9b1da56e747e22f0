/// Why a failure is likely a flake: the test passed at the same commit before, in an earlier
/// run (the flake ledger's) or in another repetition of this run.
public struct LikelyFlaky: Codable, Sendable, Equatable {
    public var commit: String
    /// The run it passed in; nil when only the ledger's past remembers the pass.
    public var runID: String?
    /// When that run started (seconds since 1970), when known.
    public var startedAt: Double?

    public init(commit: String, runID: String?, startedAt: Double?) {
        self.commit = commit
        self.runID = runID
        self.startedAt = startedAt
    }

    /// `likely flaky: passed at commit 1a2b3c4d5e6f before (run R)`, for the console, JUnit and the report.
    public var text: String {
        "likely flaky: passed at commit \(String(commit.prefix(12))) before" + (runID.map { $0.isEmpty ? "" : " (run \($0))" } ?? "")
    }
}

extension LikelyFlaky {
    /// `result`'s counts for the exit code: with `allowed` (`--allow-likely-flaky`), a likely
    /// flaky failure counts as flaky, not failed.
    public static func counts(_ result: RunResult, allowed: Bool) -> OutcomeCounts {
        guard allowed else { return result.counts }
        var counts = OutcomeCounts()
        for t in result.tests { counts.add(t.likelyFlaky != nil && t.outcome.failsBuild && t.outcome != .notRun ? .flaky : t.outcome) }
        return counts
    }
}
