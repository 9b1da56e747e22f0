import Foundation
import RobotCICore
import RobotCIReport

/// What the flake ledger says of one run: which failures are likely flaky (the test passed at
/// this commit before), which flakes are new to the ledger, which quarantined tests may go.
public struct RunFlakiness {
    /// The ledger as it was before this run.
    let before: FlakeLedger
    let policy: QuarantinePolicy

    init(before: FlakeLedger, policy: QuarantinePolicy) {
        self.before = before
        self.policy = policy
    }

    /// With no quarantine (`robotci report`, which reads no robotci.yml): likely flakes only.
    public init(before: FlakeLedger) {
        self.init(before: before, policy: QuarantinePolicy(patterns: [], entries: [], now: 0))
    }

    /// `result` with each failing test that passed at the run's commit before marked
    /// `likelyFlaky` (an earlier run's pass, or another repetition's in this run), and each test
    /// a `quarantine:` entry holds given that entry (owner, reason, expiry).
    public func annotated(_ result: RunResult) -> RunResult {
        var out = result
        let commit = FlakeLedger.commit(of: result.metadata)
        var passedHere = Set<TestID>()
        for t in result.tests where [.passed, .flaky].contains(Outcome.verdict(for: t.attempts.map(\.outcome))) {
            passedHere.insert(t.id.unrepeated)
        }
        for i in out.tests.indices {
            let t = out.tests[i]
            if t.quarantined, let entry = policy.entry(for: t.id) { out.tests[i].quarantineEntry = entry }
            guard let commit, Outcome.verdict(for: t.attempts.map(\.outcome)).failsBuild, !t.attempts.isEmpty else { continue }
            if let run = before.passingRun(of: t.id, at: commit, excluding: result.metadata.runID) {
                out.tests[i].likelyFlaky = LikelyFlaky(commit: commit, runID: run.id.isEmpty ? nil : run.id,
                                                       startedAt: run.startedAt > 0 ? run.startedAt : nil)
            } else if t.id.repetition != nil && passedHere.contains(t.id.unrepeated) {
                out.tests[i].likelyFlaky = LikelyFlaky(commit: commit, runID: result.metadata.runID, startedAt: result.metadata.startedAt)
            }
        }
        return out
    }

    /// The tests flaky in run `runID` of `after` (within it, or unlike an earlier run at its
    /// commit) that `before` had never seen flaky; quarantined tests are left out.
    func newFlaky(runID: String, after: FlakeLedger) -> [TestID] {
        after.flakyTests(inRun: runID).filter { before.standing(of: $0).flakyRuns == 0 && !policy.isQuarantined($0) }
    }

    /// The quarantined tests among `tests` that passed their last `after` runs in a row (in the
    /// ledger `ledger`), each with what quarantines it.
    func releasable(_ tests: [TestID], after n: Int, in ledger: FlakeLedger) -> [(id: TestID, entry: QuarantineEntry?, pattern: String?)] {
        var seen = Set<TestID>()
        var out: [(id: TestID, entry: QuarantineEntry?, pattern: String?)] = []
        for id in tests.map(\.unrepeated).sorted() where seen.insert(id).inserted && policy.isQuarantined(id) {
            guard ledger.standing(of: id).cleanStreak >= n else { continue }
            out.append((id, policy.entry(for: id), policy.entry(for: id) == nil ? policy.pattern(for: id) : nil))
        }
        return out
    }

    /// The lines after the summary: likely flaky failures, new flakes, expired quarantines,
    /// quarantined tests to release (with the `quarantine:` lines to delete).
    func lines(result: RunResult, newFlaky: [TestID], failOnNewFlaky: Bool, allowLikelyFlaky: Bool,
               releasable: [(id: TestID, entry: QuarantineEntry?, pattern: String?)], releaseAfter: Int) -> [String] {
        var lines: [String] = []
        let likely = result.tests.filter { $0.likelyFlaky != nil && $0.outcome.failsBuild }
        if !likely.isEmpty {
            lines.append("robotci: \(likely.count) failure\(likely.count == 1 ? " is" : "s are") likely flaky (passed at this commit before); "
                         + (allowLikelyFlaky ? "--allow-likely-flaky: \(likely.count == 1 ? "it does" : "they do") not fail the run:"
                            : "still failing the run (--allow-likely-flaky lets them pass):"))
            for t in likely.prefix(20) { lines.append("  \(t.id): \(t.likelyFlaky?.text ?? "")") }
        }
        if !newFlaky.isEmpty {
            lines.append("robotci: \(newFlaky.count) test\(newFlaky.count == 1 ? " was" : "s were") flaky for the first time in the flake ledger"
                         + (failOnNewFlaky ? " (--fail-on-new-flaky: the run fails):" : ":"))
            for id in newFlaky.prefix(20) { lines.append("  \(id)") }
        }
        lines += policy.expiryLines
        if !releasable.isEmpty {
            lines.append("robotci: \(releasable.count) quarantined test\(releasable.count == 1 ? "" : "s") passed the last \(releaseAfter) runs in a row; "
                         + "release \(releasable.count == 1 ? "it" : "them") by deleting from robotci.yml's quarantine:")
            for r in releasable.prefix(20) {
                if let e = r.entry {
                    lines.append(e.yaml + "    # \(e.source)")
                } else if let p = r.pattern {
                    lines.append("  - '\(p.replacingOccurrences(of: "'", with: "''"))'    # \(r.id) (the regex may hold other tests too)")
                }
            }
        }
        return lines
    }
}
