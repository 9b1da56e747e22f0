import Foundation
import RobotCICore
import StandardStreams

/// The table printed when a run ends.
public struct Summary {
    let result: RunResult
    let reportDir: String
    let planTime: Double
    let writeTime: Double
    let failOnFlaky: Bool
    /// Queue mode: this machine ran a share of a run whose accounting and verdict are the
    /// whole run's (printed after this table), so this table's verdict is labelled as a share.
    var queueShare = false
    /// The adaptive concurrency's signal and whose pressure it saw (`ConcurrencyGovernor.decisions`)
    /// when it governed the run; nil: off.
    var adaptive: String?
    /// `--allow-likely-flaky`: failures of tests that passed at this commit before do not fail the run.
    var allowLikelyFlaky = false
    /// With `--fail-on-new-flaky`: how many tests were flaky for the first time (they fail the run).
    var newFlaky = 0

    /// Not-run tests named one per line, at most this many (a lost queue may leave thousands).
    static let notRunListed = 20

    /// `NOT RUN     id: reason` for the first `notRunListed` of `notRun`, and how many more.
    public static func notRunListing(_ notRun: [TestRecord]) -> [String] {
        var lines = notRun.prefix(notRunListed).map { "  NOT RUN     \($0.id): \($0.reason ?? "no result")" }
        if notRun.count > notRunListed {
            lines.append("  … and \(notRun.count - notRunListed) more not run (every one is in junit.xml and results.json)")
        }
        return lines
    }

    /// With `--browsers` naming another engine than the default: each engine's counts, so a
    /// test flaky or failing on one engine only is seen as that engine's
    /// (`  webkit       28 passed, 1 flaky`). None for a run of the default engine alone.
    static func engineLines(_ tests: [TestRecord]) -> [String] {
        guard tests.contains(where: { $0.id.browser != nil }) else { return [] }
        var engines: [String?: [TestRecord]] = [:]
        for t in tests { engines[t.id.browser, default: []].append(t) }
        return engines.keys.sorted { ($0 ?? "") < ($1 ?? "") }.map { browser in
            let c = OutcomeCounts(engines[browser] ?? [])
            let parts = [("passed", c.passed), ("failed", c.failed), ("flaky", c.flaky), ("skipped", c.skipped), ("timed out", c.timedOut),
                         ("crashed", c.crashed), ("quarantined", c.quarantined), ("not run", c.notRun)]
                .filter { $0.1 > 0 || $0.0 == "passed" }.map { "\($0.1) \($0.0)" }
            return "  \((browser ?? "chromium").padding(toLength: 12, withPad: " ", startingAt: 0)) " + parts.joined(separator: ", ")
        }
    }

    func print(to stream: StandardStream) {
        let c = result.counts
        let m = result.metadata
        var lines = problemLines()
        lines.append("")
        lines.append("  outcome      tests")
        for (name, n) in [("passed", c.passed), ("failed", c.failed), ("flaky", c.flaky), ("skipped", c.skipped),
                          ("timed out", c.timedOut), ("crashed", c.crashed), ("quarantined", c.quarantined),
                          ("not run", c.notRun)] where n > 0 || name == "passed" || name == "failed" {
            lines.append("  \(name.padding(toLength: 12, withPad: " ", startingAt: 0)) \(n)")
        }
        lines.append("  total        \(c.total)")
        lines += Self.engineLines(result.tests)
        let serial = result.serialTime
        let speedup = m.wallTime > 0 ? serial / m.wallTime : 0
        lines.append(String(format: "  wall %.2fs, serial (sum of test times) %.2fs, speed-up %.2fx on %d shards, shard efficiency %.0f%%",
                            m.wallTime, serial, speedup, m.shards, result.shardEfficiency * 100))
        if let series = m.concurrency, series.count > 1 {
            let how = adaptive.map { "adaptive to CPU pressure (\($0))" } ?? "adaptive concurrency off"
            lines.append(String(format: "  concurrency: %d shards, running at once %.1f on average, at most %d", m.shards, series.mean, series.peak)
                         + " (\(how))")
        }
        lines.append(String(format: "  planning %.3fs, report writing %.3fs", planTime, writeTime))
        lines.append("  report: \(reportDir)/index.html, \(reportDir)/junit.xml, \(reportDir)/results.json")
        if queueShare {
            lines.append("robotci: \(c.total) tests ran on this machine (its share of the queue run; the whole run's accounting follows)")
        } else {
            lines.append("robotci: \(result.accounting)")
        }
        lines.append("robotci: \(verdict())")
        // The plain closing line CI log readers understand (flaky tests passed in the end); a
        // partition's says it is one share, so a green job is not read as a green suite.
        let share = m.partition.map { k in
            " (partition \(k): this machine's share" + (result.plan?.partition.map { " of \($0.suite.count) tests" } ?? "") + "; merge the partitions for the suite's verdict)"
        } ?? ""
        lines.append("robotci: \(c.passed + c.flaky) passed, \(c.failing) failed, \(c.skipped + c.quarantined) skipped\(share)")
        stream.write(lines.joined(separator: "\n") + "\n")
    }

    /// The tests that did not run, then each failed, flaky or quarantined test with its first
    /// failure; nothing when every test passed or was skipped.
    private func problemLines() -> [String] {
        var lines: [String] = []
        let problems = result.tests.filter {
            ($0.outcome.failsBuild && $0.outcome != .notRun) || $0.outcome == .flaky || $0.outcome == .quarantined
        }
        let notRun = result.tests.filter { $0.outcome == .notRun }
        if !problems.isEmpty || !notRun.isEmpty {
            lines.append("")
            lines += Self.notRunListing(notRun)
            for t in problems {
                let first = t.attempts.first(where: { $0.outcome.isFailure })?.failures.first
                let loc = first?.file.map { " at \($0):\(first?.line ?? 0)" } ?? ""
                lines.append("  \(t.outcome.rawValue.uppercased().padding(toLength: 11, withPad: " ", startingAt: 0)) \(t.id)\(loc) (\(t.attempts.count) attempt\(t.attempts.count == 1 ? "" : "s"))")
                if let msg = first?.message { lines.append("              " + FailureMessage.consoleText(msg, limit: 200, indent: 14)) }
                if let likely = t.likelyFlaky { lines.append("              " + likely.text) }
                if let entry = t.quarantineEntry { lines.append("              quarantined: " + entry.note) }
            }
            if let accept = SnapshotAcceptance.command(for: problems) {
                lines.append("  snapshots differ from their baselines (the report shows each); to accept the actual images:")
                lines.append("    " + accept)
            }
        }
        return lines
    }

    /// The run's verdict, as the exit code decides it.
    private func verdict() -> String {
        let c = result.counts
        // The exit code's counts: with --allow-likely-flaky a likely flaky failure is flaky.
        let judged = LikelyFlaky.counts(result, allowed: allowLikelyFlaky)
        var verdict: String
        if result.metadata.interrupted { verdict = "INTERRUPTED (partial report written)" }
        else if c.notRun > 0 { verdict = "FAILED (\(c.notRun) planned test\(c.notRun == 1 ? "" : "s") did not run)" }
        else if judged.failing > 0 { verdict = "FAILED" }
        else if failOnFlaky && judged.flaky > 0 { verdict = "FAILED (flaky tests with --fail-on-flaky)" }
        else if newFlaky > 0 { verdict = "FAILED (\(newFlaky) new flaky test\(newFlaky == 1 ? "" : "s") with --fail-on-new-flaky)" }
        else if c.failing > 0 { verdict = "PASSED (\(c.failing) likely flaky failure\(c.failing == 1 ? "" : "s") allowed by --allow-likely-flaky)" }
        else { verdict = "PASSED" }
        return queueShare ? "this machine's share: " + verdict : verdict
    }
}

extension FailureMessage {
    /// A message for the console: at most `limit` characters and 4 lines, continuation lines
    /// indented to sit under the first (runners such as pytest write multi-line messages).
    static func consoleText(_ message: String, limit: Int, indent: Int) -> String {
        var lines = message.prefix(limit).split(separator: "\n", omittingEmptySubsequences: true).prefix(5).map(String.init)
        if lines.count == 5 { lines[4] = "…" }
        return lines.joined(separator: "\n" + String(repeating: " ", count: indent))
    }
}
