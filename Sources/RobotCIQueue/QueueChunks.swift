import RobotCICore

/// The plan a queue run starts from: the tests, longest first, in small chunks that a
/// lease merges into a batch sized for the machines there are when it is asked for
/// (`QueueScripts.step`). A chunk holds tests that may share a process: one batch group
/// (`TestDriver.batchGroup`), one repetition and one browser.
public enum QueueChunks {
    /// A chunk of tests with history closes at this many tests…
    public static let maximumTests = 8
    /// …or once they are expected to take this long. A test without history is a chunk of
    /// its own: its guess says nothing of its length, so the lease merges guesses one by one
    /// (by count, in effect, as `BatchCutter` cuts a cold run).
    public static let seconds = 0.1

    public static func cut(_ planned: [PlannedTest], maximumTests: Int = maximumTests,
                    group: (TestID) -> Int) -> [QueuedBatch] {
        var open: [String: (tests: [TestID], seconds: Double, known: Bool)] = [:]
        var chunks: [QueuedBatch] = []
        func close(_ key: String) {
            guard let c = open.removeValue(forKey: key), !c.tests.isEmpty else { return }
            chunks.append(.chunk(c.tests, group: key, expectedSeconds: c.seconds))
        }
        for test in planned {
            // A browser's runs share no process with another's (`--browsers`).
            let key = "\(group(test.id)).\(test.id.repetition?.index ?? 0)" + (test.id.browser.map { ".\($0)" } ?? "")
            var c = open[key] ?? ([], 0, true)
            c.tests.append(test.id)
            c.seconds += test.expected
            c.known = c.known && test.known
            open[key] = c
            if !c.known || c.tests.count >= max(1, maximumTests) || c.seconds >= seconds { close(key) }
        }
        // What is left open closes in the order the chunks began (longest first).
        for key in open.keys.sorted(by: { open[$0]!.seconds > open[$1]!.seconds }) { close(key) }
        return chunks
    }
}
