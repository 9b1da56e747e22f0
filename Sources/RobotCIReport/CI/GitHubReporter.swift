import Foundation
import RobotCICore
import StandardStreams

/// GitHub Actions output: `::error`/`::warning` workflow commands that annotate the
/// failing lines, and a Markdown job summary for `$GITHUB_STEP_SUMMARY`.
public enum GitHubReporter {
    /// Workflow commands, one per failing (error) or flaky (warning) test.
    public static func annotations(_ result: RunResult, workspace: String?) -> [String] {
        var lines: [String] = []
        for test in result.tests {
            let kind: String
            switch test.outcome {
            case .failed, .crashed, .timedOut, .notRun: kind = "error"
            case .flaky: kind = "warning"
            default: continue
            }
            let failing = test.attempts.first { $0.outcome.isFailure }
            let failure = failing?.failures.first { $0.file != nil } ?? failing?.failures.first
            var props: [String] = []
            if let file = failure?.file {
                var path = file
                if let ws = workspace, !ws.isEmpty, path.hasPrefix(ws) {
                    path = String(path.dropFirst(ws.count)).trimmingPrefix("/")
                }
                props.append("file=\(escapeProperty(path))")
                if let line = failure?.line { props.append("line=\(line)") }
            }
            let title = test.outcome == .flaky ? "flaky: \(test.id)" : "\(test.outcome.rawValue): \(test.id)"
            props.append("title=\(escapeProperty(title))")
            var message = failure?.message ?? test.reason.map { "not run: \($0)" } ?? test.outcome.rawValue
            message += " (\(test.attempts.count) attempt\(test.attempts.count == 1 ? "" : "s"))"
            if let likely = test.likelyFlaky { message = likely.text + ": " + message }
            lines.append("::\(kind) \(props.joined(separator: ","))::\(escapeData(message))")
        }
        return lines
    }

    /// A Markdown summary: counts, timing and the problem tests.
    public static func summary(_ result: RunResult) -> String {
        let c = result.counts
        let m = result.metadata
        var md = "### robotci: \(c.failing > 0 ? "❌ failed" : "✅ passed")\(m.partition.map { " (partition \($0))" } ?? "")\n\n"
        md += "| passed | failed | flaky | skipped | timed out | crashed | quarantined | not run | total |\n"
        md += "|---|---|---|---|---|---|---|---|---|\n"
        md += "| \(c.passed) | \(c.failed) | \(c.flaky) | \(c.skipped) | \(c.timedOut) | \(c.crashed) | \(c.quarantined) | \(c.notRun) | \(c.total) |\n\n"
        md += "\(result.accounting)\n\n"
        md += String(format: "Wall time %.1f s on %d shards; serial time %.1f s; speed-up %.2fx.\n\n",
                     m.wallTime, m.shards, result.serialTime, m.wallTime > 0 ? result.serialTime / m.wallTime : 0)
        let problems = result.tests.filter { $0.outcome.failsBuild || $0.outcome == .flaky }
        if !problems.isEmpty {
            md += "| test | verdict | attempts | first failure |\n|---|---|---|---|\n"
            for t in problems.prefix(50) {
                let msg = t.attempts.first { $0.outcome.isFailure }?.failures.first?.message ?? t.reason ?? ""
                md += "| `\(cell(t.id.description))` | \(t.outcome.rawValue) | \(t.attempts.count) | \(cell(String(msg.prefix(160)))) |\n"
            }
            if problems.count > 50 { md += "\n…and \(problems.count - 50) more in the report.\n" }
        }
        return md
    }

    /// Prints annotations to stdout and appends the summary to `GITHUB_STEP_SUMMARY` if set.
    public static func report(_ result: RunResult, environment: [String: String]) {
        for line in annotations(result, workspace: environment["GITHUB_WORKSPACE"]) { print(line) }
        if let path = environment["GITHUB_STEP_SUMMARY"], !path.isEmpty,
           let handle = FileHandle(forWritingAtPath: path) ?? (FileManager.default.createFile(atPath: path, contents: nil) ? FileHandle(forWritingAtPath: path) : nil) {
            // A full disk loses the summary, not the run (the non-throwing `write` traps).
            do {
                _ = try handle.seekToEnd()
                try handle.write(contentsOf: Data((summary(result) + "\n").utf8))
            } catch {
                StandardStream.error.write("robotci: warning: cannot append the job summary to \(path): \(error.localizedDescription)\n")
            }
            try? handle.close()
        }
    }

    /// Whether `--reporter` (or auto-detection) asks for GitHub output.
    public static func isWanted(reporter: CIReporter?, environment: [String: String]) -> Bool {
        switch reporter {
        case .github: return true
        case .plain: return false
        case .auto, nil: return environment["GITHUB_ACTIONS"] == "true"
        }
    }

    static func escapeData(_ s: String) -> String {
        s.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "\r", with: "%0D").replacingOccurrences(of: "\n", with: "%0A")
    }

    static func escapeProperty(_ s: String) -> String {
        escapeData(s).replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: ",", with: "%2C")
    }

    private static func cell(_ s: String) -> String {
        s.replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "\n", with: " ")
    }
}

private extension String {
    func trimmingPrefix(_ p: String) -> String { hasPrefix(p) ? String(dropFirst(p.count)) : self }
}
