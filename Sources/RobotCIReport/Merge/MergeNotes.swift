import RobotCICore

extension RunResult {
    /// This merged result with what its inputs knew of each test beyond the attempts (a
    /// failure likely flaky, the quarantine entry that holds it), which assembly does not carry:
    /// the first input that has one gives it.
    func carryingNotes(from inputs: [RunResult]) -> RunResult {
        var likely: [TestID: LikelyFlaky] = [:], entries: [TestID: QuarantineEntry] = [:]
        for input in inputs {
            for t in input.tests {
                if let l = t.likelyFlaky, likely[t.id] == nil { likely[t.id] = l }
                if let e = t.quarantineEntry, entries[t.id] == nil { entries[t.id] = e }
            }
        }
        guard !likely.isEmpty || !entries.isEmpty else { return self }
        var out = self
        for i in out.tests.indices {
            let id = out.tests[i].id
            if out.tests[i].outcome.failsBuild || out.tests[i].outcome == .quarantined { out.tests[i].likelyFlaky = likely[id] }
            if out.tests[i].quarantined { out.tests[i].quarantineEntry = entries[id] }
        }
        return out
    }
}
