import Foundation
import RobotCICore

/// Writes a run as JUnit XML (Ant/Jenkins schema + Surefire's rerun elements)
/// through libxml2.
///
/// - failed / crashed / timedOut: `<failure type="…">` for the first failed attempt,
///   then `<rerunFailure>` for each failed retry;
/// - flaky: `<flakyFailure>` for each failed attempt and no `<failure>`, so the test
///   counts as passed while no attempt is lost;
/// - skipped: `<skipped message="…">`; quarantined: `<skipped>` naming the real verdict;
/// - notRun: `<error type="notRun" message="not run: <reason>">`, counted in `errors`.
public enum JUnitWriter {
    public static func render(_ result: RunResult) throws -> Data {
        let w = try XMLWriter()
        let counts = result.counts
        try w.start("testsuites")
        try w.attribute("name", "robotci")
        try w.attribute("tests", String(counts.total))
        try w.attribute("failures", String(counts.failing - counts.notRun))
        try w.attribute("errors", String(counts.notRun))
        try w.attribute("skipped", String(counts.skipped + counts.quarantined))
        try w.attribute("time", seconds(result.metadata.wallTime))
        try w.attribute("timestamp", isoDate(result.metadata.startedAt))
        // A partition's file holds one share of the suite: say so where a reader of the file
        // alone can see it.
        if let partition = result.metadata.partition {
            try w.start("properties")
            var properties = [("robotci.partition", partition)]
            if let plan = result.plan?.partition { properties.append(("robotci.partition.suite", String(plan.suite.count))) }
            for (name, value) in properties {
                try w.start("property")
                try w.attribute("name", name)
                try w.attribute("value", value)
                try w.end()
            }
            try w.end()
        }

        let bySuite = Dictionary(grouping: result.tests, by: { $0.id.className })
        for suite in bySuite.keys.sorted() {
            let tests = bySuite[suite] ?? []
            let c = OutcomeCounts(tests)
            try w.start("testsuite")
            try w.attribute("name", suite)
            try w.attribute("tests", String(c.total))
            try w.attribute("failures", String(c.failing - c.notRun))
            try w.attribute("errors", String(c.notRun))
            try w.attribute("skipped", String(c.skipped + c.quarantined))
            try w.attribute("time", seconds(tests.reduce(0) { $0 + $1.representativeDuration }))
            try w.attribute("timestamp", isoDate(result.metadata.startedAt))
            if let host = result.metadata.hostname { try w.attribute("hostname", host) }
            for test in tests { try writeCase(test, to: w) }
            try w.end()
        }
        try w.end()
        return try w.finish()
    }

    private static func writeCase(_ test: TestRecord, to w: XMLWriter) throws {
        try w.start("testcase")
        try w.attribute("classname", test.id.className)
        // JUnit is read by people and CI: a repetition's or a browser's run is told by its name.
        try w.attribute("name", test.id.name + test.id.variantText)
        try w.attribute("time", seconds(test.representativeDuration))
        if let loc = test.location {
            try w.attribute("file", loc.file)
            try w.attribute("line", String(loc.line))
        }
        let failed = test.attempts.filter { $0.outcome.isFailure }
        switch test.outcome {
        case .passed:
            break
        case .flaky:
            for a in failed { try writeFailure("flakyFailure", a, to: w) }
        case .failed, .crashed, .timedOut:
            for (i, a) in failed.enumerated() {
                try writeFailure(i == 0 ? "failure" : "rerunFailure", a, note: i == 0 ? test.likelyFlaky?.text : nil, to: w)
            }
        case .skipped:
            try w.start("skipped")
            if let reason = test.attempts.last?.failures.first?.message { try w.attribute("message", reason) }
            try w.end()
        case .quarantined:
            try w.start("skipped")
            let verdict = Outcome.verdict(for: test.attempts.map(\.outcome))
            let who = test.quarantineEntry.map { " (\($0.note))" } ?? ""
            let likely = test.likelyFlaky.map { "; \($0.text)" } ?? ""
            try w.attribute("message", "quarantined\(who): \(verdict.rawValue)\(likely) — \(failed.last?.failures.first?.message ?? "")")
            try w.end()
        case .notRun:
            try w.start("error")
            try w.attribute("message", "not run: \(test.reason ?? "no result")")
            try w.attribute("type", Outcome.notRun.rawValue)
            try w.text("planned, but no attempt of this test has a result: \(test.reason ?? "no result")")
            try w.end()
        }
        if let last = test.attempts.last, !last.output.isEmpty {
            try w.element("system-out", text: last.output)
        }
        try w.end()
    }

    /// `note`: what robotci knows beyond the attempt (a likely flake), first in the message.
    private static func writeFailure(_ element: String, _ attempt: Attempt, note: String? = nil, to w: XMLWriter) throws {
        try w.start(element)
        try w.attribute("message", (note.map { "\($0): " } ?? "") + failureSummary(attempt))
        try w.attribute("type", attempt.outcome.rawValue)
        var detail = ""
        for f in attempt.failures {
            if let file = f.file { detail += "\(file):\(f.line ?? 0): " }
            detail += f.message + "\n"
        }
        detail += "attempt \(attempt.number) on shard \(attempt.shard), \(seconds(attempt.duration)) s"
        if element == "failure" {
            try w.text(detail)
        } else {
            // Surefire's rerun elements carry their own output.
            try w.element("stackTrace", text: detail)
            if !attempt.output.isEmpty { try w.element("system-out", text: attempt.output) }
        }
        try w.end()
    }

    static func failureSummary(_ attempt: Attempt) -> String {
        attempt.failures.first?.message ?? attempt.outcome.rawValue
    }

    static func seconds(_ s: Double) -> String { String(format: "%.3f", s) }

    static func isoDate(_ epoch: Double) -> String {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime]
        return f.string(from: Date(timeIntervalSince1970: epoch))
    }
}
