import Foundation
import RobotCICore

extension ReportData {
    /// `flaky in 3 of 20 runs (flake ledger); at commits 1a2b3c4d5e6f, …; last 2026-11-28 07:00 UTC`.
    static func ledgerText(_ s: FlakeLedger.Standing) -> String {
        var text = "flaky in \(s.flakyRuns) of \(s.runs) run\(s.runs == 1 ? "" : "s") (flake ledger)"
        if !s.flakyCommits.isEmpty { text += "; at commit\(s.flakyCommits.count == 1 ? "" : "s") " + s.flakyCommits.reversed().map { String($0.prefix(12)) }.joined(separator: ", ") }
        if let last = s.lastFlaky {
            let f = DateFormatter()
            f.locale = Locale(identifier: "en_US_POSIX")
            f.timeZone = TimeZone(identifier: "UTC")
            f.dateFormat = "yyyy-MM-dd HH:mm"
            text += "; last " + f.string(from: Date(timeIntervalSince1970: last)) + " UTC"
        }
        return text
    }

    /// `,"notes":[[test index, kind, text]…]`: what robotci knows of a test beyond its attempts,
    /// `likely-flaky` (it passed at this commit before), `quarantine` (the entry's owner,
    /// reason and expiry) and `ledger` (its flaky runs and commits, for a test that did not pass
    /// cleanly and has flaked). Only tests that have one get a row.
    func writeNotes(_ w: inout SafeJSONWriter) {
        w.raw(",\"notes\":[")
        var first = true
        func note(_ index: Int, _ kind: String, _ text: String) {
            if !first { w.raw(",") }
            first = false
            w.raw("[")
            w.int(index)
            w.raw(",")
            w.string(kind)
            w.raw(",")
            w.string(String(text.prefix(2000)))
            w.raw("]")
        }
        let ledger = history?.ledger
        for (i, t) in result.tests.enumerated() {
            if let likely = t.likelyFlaky { note(i, "likely-flaky", likely.text) }
            if let entry = t.quarantineEntry { note(i, "quarantine", "quarantined: " + entry.note) }
            // The tests a reader opens (not passed, not skipped), once per test, not per repetition:
            // the page stays small at 10,000 tests that all flaked once.
            if let ledger, t.outcome != .passed && t.outcome != .skipped, t.id.repetition == nil || t.id.repetition?.index == 1 {
                let s = ledger.standing(of: t.id)
                if s.flakyRuns > 0 { note(i, "ledger", Self.ledgerText(s)) }
            }
        }
        w.raw("]")
    }
}
