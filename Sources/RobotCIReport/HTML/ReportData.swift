import Foundation
import RobotCICore

/// The run as the page's script reads it: compact JSON (arrays, interned class and file
/// names, milliseconds) with long texts cut to a shared budget so 10,000 tests × 3
/// attempts stay well under 5 MB. `web-report/README.md` documents the layout.
struct ReportData {
    struct Limits: Sendable {
        /// Target size of the whole data block; texts share what the structure leaves.
        var totalBytes = 4_400_000
        /// Most of an attempt's output kept when the budget allows (its tail).
        var failingOutputBytes = 4096
        var passingOutputBytes = 1024
        var messageBytes = 4096
        var failuresPerAttempt = 10
        var inlineFileBytes = 256 * 1024
        var inlineTextBytes = 64 * 1024
        var inlineItems = 500
        var inlineFiles = 1500
        var inlineStringBytes = 2048

        static let standard = Limits()
    }

    static let testOutcomes: [Outcome] = [.passed, .failed, .flaky, .skipped, .timedOut, .crashed, .quarantined, .notRun]
    static let attemptOutcomes: [AttemptOutcome] = [.passed, .failed, .skipped, .timedOut, .crashed]

    let result: RunResult
    let reportDirectory: URL?
    let limits: Limits
    /// Earlier runs (history.json), shown as per-test strips and a run chart.
    var history: RunHistory? = nil

    /// How hard the data is squeezed: texts get less room, and in lean mode passing
    /// attempts lose their output and artifact lists (results.json keeps everything).
    struct Squeeze {
        var textReduction = 0
        var lean = false
        /// In lean mode, tests from this index on keep only their failures (no output, no files).
        var detailTests = Int.max

        func slim(_ a: Attempt, test index: Int) -> Bool {
            lean && (!a.outcome.isFailure || index >= detailTests)
        }
    }

    /// The data, within `limits.totalBytes` when at all possible: rendered once, and again
    /// with less room for texts (then lean) if the estimate of the structure was short.
    func json() -> [UInt8] {
        // The history does not shrink with the squeeze: written once, spliced into each try.
        let historyPart = historyJSON()
        // A test's class and name take a walk over its id each: worked out once, not per try.
        let names = result.tests.map(TestNames.init)
        var squeeze = Squeeze()
        var bytes = json(squeeze, history: historyPart, names: names)
        for _ in 0..<2 where bytes.count > limits.totalBytes {
            let before = budgets(squeeze, historyBytes: historyPart.count)
            squeeze.textReduction += (bytes.count - limits.totalBytes) * 11 / 10
            // Texts already at their floor: only dropping details can help.
            if budgets(squeeze, historyBytes: historyPart.count) == before { break }
            bytes = json(squeeze, history: historyPart, names: names)
        }
        if bytes.count > limits.totalBytes {
            squeeze.lean = true
            bytes = json(squeeze, history: historyPart, names: names)
        }
        guard bytes.count > limits.totalBytes else { return bytes }
        // Still too big (thousands of failing attempts with many files each): keep the
        // details of fewer and fewer tests; every failure message stays. When even no
        // details at all are over the target (the structure alone is, at 100,000 tests),
        // halving towards it would render the whole run log2(tests) times to end there.
        squeeze.detailTests = 0
        let least = json(squeeze, history: historyPart, names: names)
        if least.count > limits.totalBytes { return least }
        var detail = result.tests.count
        while bytes.count > limits.totalBytes && detail > 0 {
            detail /= 2
            squeeze.detailTests = detail
            bytes = detail == 0 ? least : json(squeeze, history: historyPart, names: names)
        }
        return bytes
    }

    /// A test's class and name as the page shows them, and whether its id is `class/name`.
    struct TestNames {
        var className: String
        var name: String
        var plainID: Bool

        init(_ test: TestRecord) {
            className = test.id.className
            // The report is read by people: a repetition's or a browser's run shows as text.
            name = test.id.name + test.id.variantText
            plainID = test.id.description == className + "/" + name
        }
    }

    /// One rendering's state: the tables it interns names in, and the room its texts have.
    private struct Rendering {
        var tables = Tables()
        let squeeze: Squeeze
        let outputCap: Int
        let messageCap: Int
        let inlined: [AttemptKey: [Int: ArtifactInliner.Inlined]]
    }

    func json(_ squeeze: Squeeze, history historyPart: [UInt8], names: [TestNames]) -> [UInt8] {
        let (outputCap, messageCap, inlineBudget) = budgets(squeeze, historyBytes: historyPart.count)
        var inliner = reportDirectory.map {
            ArtifactInliner(
                directory: $0, budget: inlineBudget, filesLeft: limits.inlineFiles,
                maxFileBytes: limits.inlineFileBytes, maxItems: limits.inlineItems,
                maxTextBytes: limits.inlineTextBytes)
        }
        var rendering = Rendering(
            squeeze: squeeze, outputCap: outputCap, messageCap: messageCap, inlined: inlineArtifacts(&inliner, squeeze))
        for n in names { _ = rendering.tables.classes.index(n.className) }

        var w = SafeJSONWriter(capacity: 1 << 20)
        w.raw("{\"format\":\"robotci-report-data-v2\",\"lean\":")
        w.bool(squeeze.lean)
        w.raw(",")
        writeVocabulary(&w)
        w.raw(",\"meta\":")
        writeMeta(&w)
        w.raw(",\"tests\":[")
        for (ti, t) in result.tests.enumerated() {
            if ti > 0 { w.raw(",") }
            writeTest(t, index: ti, names: names[ti], &w, &rendering)
        }
        w.raw("],\"batches\":[")
        writeBatches(&w, &rendering.tables)
        w.raw("],\"history\":")
        w.append(historyPart)
        writeTables(rendering.tables, &w)
        w.raw(",\"dirs\":[")
        for (i, d) in rendering.tables.dirs.entries.enumerated() {
            if i > 0 { w.raw(",") }
            var row = ReportRow<ReportColumns.Dir>()
            row.column(.parent, &w); w.int(d.parent)
            row.column(.name, &w); w.string(d.name)
            row.end(&w)
        }
        w.raw("]")
        writeNotes(&w)
        w.raw("}")
        return w.bytes
    }

    // MARK: - Parts

    /// How to read the rows: outcome names by index, the history letters' outcomes, and the
    /// columns of every kind of row (`ReportColumns`).
    private func writeVocabulary(_ w: inout SafeJSONWriter) {
        w.raw("\"outcomes\":")
        writeStrings(Self.testOutcomes.map(\.rawValue), &w)
        w.raw(",\"attemptOutcomes\":")
        writeStrings(Self.attemptOutcomes.map(\.rawValue), &w)
        w.raw(",\"letters\":{")
        for (i, o) in Outcome.allCases.enumerated() {
            if i > 0 { w.raw(",") }
            w.string(String(o.letter)); w.raw(":"); w.string(o.rawValue)
        }
        w.raw("},\"columns\":{")
        for (i, table) in ReportColumns.all.enumerated() {
            if i > 0 { w.raw(",") }
            w.string(table.table); w.raw(":")
            writeStrings(table.names, &w)
        }
        w.raw("}")
    }

    /// `{"runs":[[id, startedMs, commit|null, passed, failing, flaky]…], "current": column|-1,
    ///   "tests":[[letters, durations]|0 …]}` (packed: `HistoryPacking`) with `tests` aligned to
    /// the data's test list; null when there is no history.
    private func historyJSON() -> [UInt8] {
        var w = SafeJSONWriter(capacity: history.map { 1024 + $0.tests.count * (16 + $0.runs.count * 3) } ?? 16)
        writeHistory(&w)
        return w.bytes
    }

    private func writeHistory(_ w: inout SafeJSONWriter) {
        guard let h = history, !h.runs.isEmpty else { return w.raw("null") }
        var passed = Array(repeating: 0, count: h.runs.count), failing = passed, flaky = passed
        for t in h.engines.lazy.flatMap(\.tests.values) {
            for (k, c) in t.o.enumerated() where k < passed.count {
                switch Outcome(letter: c) {
                case .passed: passed[k] += 1
                case .failed, .timedOut, .crashed: failing[k] += 1
                case .flaky: flaky[k] += 1
                default: break
                }
            }
        }
        w.raw("{\"runs\":[")
        for (k, r) in h.runs.enumerated() {
            if k > 0 { w.raw(",") }
            var row = ReportRow<ReportColumns.HistoryRun>()
            row.column(.id, &w); w.string(r.id)
            row.column(.startedMs, &w); w.millis(r.startedAt)
            row.column(.commit, &w)
            if let c = r.commit { w.string(c) } else { w.raw("null") }
            row.column(.passed, &w); w.int(passed[k])
            row.column(.failing, &w); w.int(failing[k])
            row.column(.flaky, &w); w.int(flaky[k])
            row.end(&w)
        }
        w.raw("],\"current\":")
        w.int(h.column(of: result.metadata.runID) ?? -1)
        w.raw(",\"tests\":[")
        for (ti, t) in result.tests.enumerated() {
            if ti > 0 { w.raw(",") }
            // The history keeps each engine's runs of each test apart (`RunHistory.recording`).
            guard let e = h.test(t.id) else { w.raw("0"); continue }
            var row = ReportRow<ReportColumns.HistoryTest>()
            row.column(.letters, &w); w.string(HistoryPacking.letters(e.o))
            row.column(.durations, &w); w.string(HistoryPacking.durations(e.d))
            row.end(&w)
        }
        w.raw("]}")
    }

    private func writeMeta(_ w: inout SafeJSONWriter) {
        let m = result.metadata
        let c = result.counts
        w.raw("{\"runID\":"); w.string(m.runID)
        w.raw(",\"startedAt\":"); w.millis(m.startedAt)
        w.raw(",\"wallTime\":"); w.millis(m.wallTime)
        w.raw(",\"serialTime\":"); w.millis(result.serialTime)
        w.raw(",\"shardEfficiency\":"); w.double((result.shardEfficiency * 1000).rounded() / 1000)
        w.raw(",\"shards\":"); w.int(m.shards)
        w.raw(",\"retries\":"); w.int(m.retries)
        w.raw(",\"version\":"); w.string(m.robotciVersion)
        w.raw(",\"commandLine\":"); writeStrings(m.commandLine, &w)
        w.raw(",\"gitCommit\":"); w.string(m.gitCommit)
        w.raw(",\"gitBranch\":"); w.string(m.gitBranch)
        w.raw(",\"hostname\":"); w.string(m.hostname)
        w.raw(",\"partition\":"); w.string(m.partition)
        w.raw(",\"machines\":")
        if let machines = m.machines { writeStrings(machines, &w) } else { w.raw("null") }
        w.raw(",\"interrupted\":"); w.bool(m.interrupted)
        // [[ms since the start, batches running], …]: the timeline's concurrency strip.
        w.raw(",\"concurrency\":")
        if let series = m.concurrency, !series.isEmpty {
            w.raw("[")
            for (i, sample) in series.enumerated() {
                if i > 0 { w.raw(",") }
                var row = ReportRow<ReportColumns.Concurrency>()
                row.column(.ms, &w); w.millis(sample.time)
                row.column(.running, &w); w.int(sample.running)
                row.end(&w)
            }
            w.raw("]")
        } else {
            w.raw("null")
        }
        // What stopped the run, when robotci did (a signal is the `interrupted` banner).
        w.raw(",\"stoppedEarly\":"); w.string(m.stop.flatMap { $0.isSignal ? nil : $0.summary })
        w.raw(",\"rerunOf\":"); w.string(m.rerunOf)
        w.raw(",\"repetitions\":"); w.string(m.repetitions?.description)
        w.raw(",\"accounting\":"); w.string(result.accounting.description)
        w.raw(",\"counts\":{")
        let pairs: [(StaticString, Int)] = [
            ("\"total\":", c.total), (",\"passed\":", c.passed), (",\"failed\":", c.failed),
            (",\"flaky\":", c.flaky), (",\"skipped\":", c.skipped), (",\"timedOut\":", c.timedOut),
            (",\"crashed\":", c.crashed), (",\"quarantined\":", c.quarantined), (",\"notRun\":", c.notRun),
        ]
        for (key, value) in pairs {
            w.raw(key)
            w.int(value)
        }
        w.raw("}}")
    }

    private func writeTest(_ t: TestRecord, index ti: Int, names: TestNames, _ w: inout SafeJSONWriter, _ r: inout Rendering) {
        var row = ReportRow<ReportColumns.Test>()
        row.column(.classIndex, &w); w.int(r.tables.classes.index(names.className))
        row.column(.name, &w); w.string(names.name)
        row.column(.outcome, &w); w.int(Self.testOutcomes.firstIndex(of: t.outcome) ?? 0)
        // bit 0: quarantined; bit 1: the ID is not `class/name` (a Swift Testing free function,
        // a pytest node id): it follows the attempts in full; bit 2: a not-run reason follows.
        let plainID = names.plainID
        row.column(.flags, &w); w.int((t.quarantined ? 1 : 0) | (plainID ? 0 : 2) | (t.reason == nil ? 0 : 4))
        row.column(.attempts, &w); w.raw("[")
        for (ai, a) in t.attempts.enumerated() {
            if ai > 0 { w.raw(",") }
            writeAttempt(a, key: AttemptKey(test: ti, attempt: ai), &w, &r)
        }
        w.raw("]")
        if !plainID || t.reason != nil || t.id.browser != nil {
            row.column(.id, &w)
            if plainID { w.raw("null") } else { w.string(t.id.description) }
        }
        if let reason = t.reason {
            row.column(.reason, &w); w.string(String(reason.prefix(2000)))
        } else if t.id.browser != nil {
            row.column(.reason, &w); w.raw("null")
        }
        if let browser = t.id.browser {
            row.column(.browser, &w); w.string(browser)
        }
        row.end(&w)
    }

    private func writeBatches(_ w: inout SafeJSONWriter, _ tables: inout Tables) {
        for (i, b) in result.batches.enumerated() {
            if i > 0 { w.raw(",") }
            var row = ReportRow<ReportColumns.Batch>()
            row.column(.id, &w); w.int(b.id)
            row.column(.shard, &w); w.int(b.shard)
            row.column(.machine, &w); w.int(b.machine.map { tables.machines.index($0) } ?? -1)
            row.column(.startMs, &w); w.millis(b.start)
            row.column(.endMs, &w); w.millis(b.end)
            row.column(.testCount, &w); w.int(b.tests.count)
            row.column(.termination, &w); w.string(b.termination.description)
            row.column(.clean, &w); w.bool(b.termination.isCleanExit)
            row.end(&w)
        }
    }

    /// The interned names the rows point into.
    private func writeTables(_ tables: Tables, _ w: inout SafeJSONWriter) {
        w.raw(",\"classes\":")
        writeStrings(tables.classes.values, &w)
        w.raw(",\"files\":")
        writeStrings(tables.files.values, &w)
        w.raw(",\"machines\":")
        writeStrings(tables.machines.values, &w)
        w.raw(",\"kinds\":")
        writeStrings(tables.kinds.values, &w)
        w.raw(",\"names\":")
        writeStrings(tables.names.values, &w)
    }

    private func writeAttempt(_ a: Attempt, key: AttemptKey, _ w: inout SafeJSONWriter, _ r: inout Rendering) {
        let slim = r.squeeze.slim(a, test: key.test)
        var row = ReportRow<ReportColumns.Attempt>()
        row.column(.outcome, &w); w.int(Self.attemptOutcomes.firstIndex(of: a.outcome) ?? 0)
        row.column(.durationMs, &w); w.millis(a.duration)
        row.column(.startMs, &w); w.millis(a.start)
        row.column(.shard, &w); w.int(a.shard)
        row.column(.batch, &w); w.int(a.batch)
        row.column(.machine, &w); w.int(a.machine.map { r.tables.machines.index($0) } ?? -1)
        guard !(a.failures.isEmpty && a.output.isEmpty && a.artifacts.isEmpty), !(slim && a.failures.isEmpty) else {
            return row.end(&w)
        }

        row.column(.failures, &w); w.raw("[")
        for (i, f) in a.failures.prefix(limits.failuresPerAttempt).enumerated() {
            if i > 0 { w.raw(",") }
            let (message, cut) = f.message.utf8Head(r.messageCap)
            var failure = ReportRow<ReportColumns.Failure>()
            failure.column(.file, &w); w.int(f.file.map { r.tables.files.index($0) } ?? -1)
            failure.column(.line, &w); w.int(f.line ?? 0)
            failure.column(.message, &w); w.string(message)
            failure.column(.bytesCut, &w); w.int(cut)
            failure.end(&w)
        }
        w.raw("]")
        row.column(.failuresLeftOut, &w); w.int(max(0, a.failures.count - limits.failuresPerAttempt))

        // output: its tail, and how many bytes before it were cut.
        let (output, cut) = a.output.utf8Tail(min(slim ? 0 : r.outputCap, outputWanted(a)))
        row.column(.output, &w); w.string(output)
        row.column(.outputCut, &w); w.int(cut)

        // Paths are interned (a trie of folders + file names): they would otherwise dominate the size.
        row.column(.artifacts, &w); w.raw("[")
        for (i, artifact) in (slim ? [] : a.artifacts).enumerated() {
            if i > 0 { w.raw(",") }
            let (dir, name) = r.tables.dirs.split(artifact.path)
            var cells = ReportRow<ReportColumns.Artifact>()
            cells.column(.kind, &w); w.int(r.tables.kinds.index(artifact.kind.rawValue))
            cells.column(.dir, &w); w.int(dir)
            cells.column(.name, &w); w.int(r.tables.names.index(name))
            cells.column(.linkable, &w); w.int(ReportPaths.isSafeRelative(artifact.path) ? 1 : 0)
            switch r.inlined[key]?[i] {
            case .json(let value, let cutItems)?:
                cells.column(.inline, &w); writeJSON(value, &w)
                cells.column(.cut, &w); w.int(cutItems)
            case .text(let text, let cutBytes)?:
                cells.column(.inline, &w); w.string(text)
                cells.column(.cut, &w); w.int(cutBytes)
            case nil: break
            }
            cells.end(&w)
        }
        w.raw("]")
        row.end(&w)
    }

    private func writeJSON(_ value: JSONValue, _ w: inout SafeJSONWriter) {
        switch value {
        case .null: w.raw("null")
        case .bool(let b): w.bool(b)
        case .number(let n): w.double(n)
        case .string(let s):
            let (head, cut) = s.utf8Head(limits.inlineStringBytes)
            w.string(cut > 0 ? head + "… (\(cut) bytes cut)" : head)
        case .array(let items):
            w.raw("[")
            for (i, item) in items.enumerated() {
                if i > 0 { w.raw(",") }
                writeJSON(item, &w)
            }
            w.raw("]")
        case .object(let fields):
            w.raw("{")
            for (i, key) in fields.keys.sorted().enumerated() {
                if i > 0 { w.raw(",") }
                w.string(key)
                w.raw(":")
                if let v = fields[key] { writeJSON(v, &w) }
            }
            w.raw("}")
        }
    }

    private func writeStrings(_ values: [String], _ w: inout SafeJSONWriter) {
        w.raw("[")
        for (i, v) in values.enumerated() {
            if i > 0 { w.raw(",") }
            w.string(v)
        }
        w.raw("]")
    }

    // MARK: - Budgets

    /// How much of an attempt's output is worth keeping before the shared budget applies.
    private func outputWanted(_ a: Attempt) -> Int {
        a.outcome.isFailure ? limits.failingOutputBytes : limits.passingOutputBytes
    }

    /// Caps for outputs and messages, and the bytes left for inlined artifacts: what the
    /// structure itself needs is estimated first, texts share the rest.
    private func budgets(_ squeeze: Squeeze, historyBytes: Int) -> (output: Int, message: Int, inline: Int) {
        var structure = 4096 + result.batches.count * 48 + squeeze.textReduction
        structure += historyBytes
        var outputs: [Int] = []
        var messages: [Int] = []
        for (ti, t) in result.tests.enumerated() {
            structure += t.id.description.utf8.count + 16
            for a in t.attempts {
                let slim = squeeze.slim(a, test: ti)
                structure += 40 + (slim ? 0 : a.artifacts.count * 18)
                structure += min(a.failures.count, limits.failuresPerAttempt) * 24
                if !a.output.isEmpty && !slim { outputs.append(min(a.output.utf8.count, outputWanted(a))) }
                for f in a.failures.prefix(limits.failuresPerAttempt) {
                    messages.append(min(f.message.utf8.count, limits.messageBytes))
                }
            }
        }
        // Folders of artifacts are stored once each: roughly one per test and attempt.
        structure += result.tests.count * 48
        let texts = max(64 * 1024, limits.totalBytes - structure)
        // Escaping grows text a little (newlines, quotes); leave room for it.
        let messageBudget = texts * 30 / 100 * 9 / 10
        let messageCap = TextBudget.cap(for: messages, budget: messageBudget)
        let messageUse = messages.reduce(0) { $0 + min($1, messageCap) }
        let outputBudget = (texts - messageUse) * 75 / 100 * 9 / 10
        let outputCap = TextBudget.cap(for: outputs, budget: outputBudget)
        let outputUse = outputs.reduce(0) { $0 + min($1, outputCap) }
        let inline = max(0, texts - messageUse - outputUse) * 8 / 10
        return (outputCap, messageCap, inline)
    }

    /// Reads inline artifacts, failing attempts first, so the budget goes where it matters.
    private func inlineArtifacts(
        _ inliner: inout ArtifactInliner?, _ squeeze: Squeeze
    ) -> [AttemptKey: [Int: ArtifactInliner.Inlined]] {
        guard inliner != nil else { return [:] }
        var keys: [(priority: Int, key: AttemptKey)] = []
        for (ti, t) in result.tests.enumerated() {
            for (ai, a) in t.attempts.enumerated()
            where !squeeze.slim(a, test: ti)
                && a.artifacts.contains(where: { ArtifactInliner.inlineKinds.contains($0.kind) }) {
                let priority = a.outcome.isFailure ? 0 : (t.outcome == .passed || t.outcome == .skipped ? 2 : 1)
                keys.append((priority, AttemptKey(test: ti, attempt: ai)))
            }
        }
        keys.sort { ($0.priority, $0.key.test, $0.key.attempt) < ($1.priority, $1.key.test, $1.key.attempt) }
        var out: [AttemptKey: [Int: ArtifactInliner.Inlined]] = [:]
        for (_, key) in keys {
            let attempt = result.tests[key.test].attempts[key.attempt]
            for (i, artifact) in attempt.artifacts.enumerated() {
                if let value = inliner?.inline(artifact) { out[key, default: [:]][i] = value }
            }
        }
        return out
    }
}

private struct AttemptKey: Hashable {
    var test: Int
    var attempt: Int
}
