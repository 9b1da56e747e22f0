import RobotCICore

extension ReportData {
    /// `,"notes":[[test index, kind, text]…]`: what robotci knows of a test beyond its attempts,
    /// `likely-flaky` (it passed at this commit before) and `quarantine` (the entry's owner,
    /// reason and expiry). Only tests that have one get a row.
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
        for (i, t) in result.tests.enumerated() {
            if let likely = t.likelyFlaky { note(i, "likely-flaky", likely.text) }
            if let entry = t.quarantineEntry { note(i, "quarantine", "quarantined: " + entry.note) }
        }
        w.raw("]")
    }
}
