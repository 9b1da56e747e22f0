import Foundation
import Locks
import RobotCICore

/// `robotci merge`: many report folders (one per machine) → one report.
public enum ReportMerger {
    /// Merges inputs in memory, with their histories. Artifact paths are re-rooted under
    /// `attachments/<machine>/…`; `copies` lists the files to copy there. Histories: each
    /// input's `history.json` (or, without one, its run as a single history entry);
    /// partitions of one run id fold into one run.
    public static func mergeWithHistory(_ inputs: [MergeInput], check: MergeCheck)
        -> (result: RunResult, timings: Timings, history: RunHistory, copies: [(from: URL, to: String)], warnings: [String]) {
        let history = RunHistory.merged(inputs.map { input in
            let own = input.history ?? RunHistory()
            // A folder's history already holds its run, unless it was written without one.
            return own.runs.contains { $0.id == input.result.metadata.runID } ? own : own.recording(input.result)
        })
        let (result, timings, copies, warnings) = mergeRuns(inputs, check: check)
        return (result.carryingNotes(from: inputs.map(\.result)), timings, history, copies, warnings)
    }

    /// One run from the inputs, assembled by `RunAssembly` with the checked plan: every
    /// planned test once (its attempts from every input that ran it), a planned test no input
    /// ran `notRun` with the reason merge knows (a missing partition, no partition's share) or
    /// else the one its input gave (e.g. interrupted).
    /// `warnings` names the inputs whose timings.json could not be used.
    static func mergeRuns(_ inputs: [MergeInput], check: MergeCheck)
        -> (result: RunResult, timings: Timings, copies: [(from: URL, to: String)], warnings: [String]) {
        let labels = machineLabels(inputs)
        let origin = inputs.map(\.result.metadata.startedAt).filter { $0 > 0 }.min() ?? 0
        var assembly = RunAssembly(plan: check.plan)
        var inputReasons: [TestID: String] = [:]
        var copies: [(URL, String)] = []
        var collected: [Collected] = []
        var batchOffset = 0
        var end = 0.0
        for (input, label) in zip(inputs, labels) {
            let meta = input.result.metadata
            // Put every machine on one clock so lanes line up in the timeline.
            let shift = meta.startedAt > 0 ? meta.startedAt - origin : 0
            end = max(end, shift + meta.wallTime)
            let slug = safeName(label)
            var maxBatch = -1
            for b in input.result.batches {
                var b = b
                maxBatch = max(maxBatch, b.id)
                b.id += batchOffset
                b.machine = label
                b.start += shift
                b.end += shift
                assembly.add(b)
            }
            for test in input.result.tests {
                if let reason = test.reason, test.attempts.isEmpty, inputReasons[test.id] == nil {
                    inputReasons[test.id] = "\(label): \(reason)"
                }
                for a in test.attempts {
                    var a = a
                    a.machine = label
                    a.batch += batchOffset
                    a.start += shift
                    a.artifacts = rerooted(a.artifacts, from: input.reportDirectory, slug: slug, copies: &copies)
                    collected.append(Collected(test: test.id, quarantined: test.quarantined, attempt: a, timed: meta.startedAt > 0))
                }
            }
            batchOffset += maxBatch + 1
        }
        // A test's attempts in the order they ran, on the one clock, never in the order the
        // inputs were named: the last one decides fail-then-pass (flaky) from pass-then-fail.
        for c in collected.sorted(by: Collected.ranEarlier) { assembly.add(c.test, quarantined: c.quarantined, attempt: c.attempt) }
        let metadata = mergedMetadata(inputs, labels: labels, startedAt: origin, wallTime: end)
        var result = assembly.result(metadata: metadata) { id in
            check.reasons[id] ?? inputReasons[id] ?? "no input has a result for it"
        }
        // Attempts from several inputs are one test's history: number them in order.
        for i in result.tests.indices {
            for j in result.tests[i].attempts.indices { result.tests[i].attempts[j].number = j + 1 }
        }
        let (timings, warnings) = mergedTimings(inputs, result: result)
        return (result, timings, copies, warnings)
    }

    /// `artifacts` as the merged report files them, under `attachments/<slug>/`, each file to
    /// copy there from the input's report `directory` added to `copies`. Without a directory
    /// (a JUnit input) they stay as they are.
    static func rerooted(_ artifacts: [Artifact], from directory: URL?, slug: String, copies: inout [(URL, String)]) -> [Artifact] {
        artifacts.map { a in
            guard let dir = directory else { return a }
            let target = "attachments/\(slug)/\(a.path.hasPrefix("attachments/") ? String(a.path.dropFirst("attachments/".count)) : a.path)"
            if a.kind == .trace {
                // A trace is its folder: trace.json and the step files it names.
                copies.append((dir.appendingPathComponent(a.path).deletingLastPathComponent(),
                               (target as NSString).deletingLastPathComponent))
            } else {
                copies.append((dir.appendingPathComponent(a.path), target))
            }
            return Artifact(kind: a.kind, path: target)
        }
    }

    /// Each input's machine name as its lane in the merged run; a name given twice gets
    /// ` #2`, ` #3`… in input order.
    static func machineLabels(_ inputs: [MergeInput]) -> [String] {
        var labels: [String] = []
        for input in inputs {
            var label = input.machine
            var n = 2
            while labels.contains(label) { label = "\(input.machine) #\(n)"; n += 1 }
            labels.append(label)
        }
        return labels
    }

    /// The merged run's metadata: its run ids joined, the first input's build facts, every
    /// input's shards and partitions, interrupted if any input was.
    private static func mergedMetadata(_ inputs: [MergeInput], labels: [String], startedAt: Double, wallTime: Double) -> RunMetadata {
        let first = inputs.first?.result.metadata
        let partitions = inputs.compactMap(\.result.metadata.partition)
        var runIDs: [String] = []
        for id in inputs.map(\.result.metadata.runID) where !runIDs.contains(id) { runIDs.append(id) }
        var metadata = RunMetadata(
            runID: runIDs.joined(separator: "+"), startedAt: startedAt, wallTime: wallTime,
            shards: inputs.reduce(0) { $0 + $1.result.metadata.shards }, retries: first?.retries ?? 0,
            robotciVersion: first?.robotciVersion ?? "")
        metadata.commandLine = CommandLine.arguments
        metadata.gitCommit = first?.gitCommit
        metadata.gitBranch = first?.gitBranch
        metadata.partition = partitions.isEmpty ? nil : partitions.joined(separator: ", ")
        metadata.machines = labels
        metadata.interrupted = inputs.contains { $0.result.metadata.interrupted }
        metadata.repetitions = RepetitionSummary.merged(inputs.map(\.result.metadata.repetitions))
        return metadata
    }

    /// The inputs' timings in one (`TimingsFold`), a later input's duration winning, updated
    /// with the merged run. What the run measured replaces every input's value, so those are
    /// not copied: with 1,000 partitions that each carry the whole suite's timings, that is
    /// all but a few of ten million entries.
    /// An input's timings.json that is not timings is left out with a warning.
    static func mergedTimings(_ inputs: [MergeInput], result: RunResult) -> (Timings, warnings: [String]) {
        var fold = TimingsFold()
        var warnings: [String] = []
        for input in inputs {
            guard let data = input.timings else { continue }
            let path = (input.reportDirectory ?? input.path.deletingLastPathComponent()).appendingPathComponent("timings.json").path
            do { try fold.add(data, path: path) } catch { warnings.append("\(error); merging without it") }
        }
        let measured = Set(result.tests.lazy.filter { Timings.measures($0) && $0.id.browser == nil }.map(\.id.test))
        return (fold.timings(skipping: measured).updated(with: result.tests), warnings)
    }

    /// What a merge produced: the run written, and what the checks found worth saying.
    public struct Merged: Sendable {
        public var result: RunResult
        public var notes: [String]
    }

    /// Loads and checks every input, merges, and writes the output folder. Any bad input, and
    /// inputs that cannot be one run (`MergeCheck`), fail before the output folder is touched.
    public static func run(inputs paths: [String], output: URL, warn: (String) -> Void = { _ in }) throws -> Merged {
        guard !paths.isEmpty else { throw MergeError("no inputs: give one or more report folders or JUnit files") }
        let inputs = try loadAll(paths)
        for w in inputs.flatMap(\.warnings) { warn(w) }
        let check = try MergeCheck.check(inputs)
        let (result, timings, history, copies, timingsWarnings) = mergeWithHistory(inputs, check: check)
        for w in timingsWarnings { warn(w) }
        // Every input was validated by `load` and `check` above, so a bad input never gets
        // here and the output folder stays untouched. Attachments are copied before rendering
        // so the HTML report can inline the small ones (steps, mock journal, tree).
        let fm = FileManager.default
        do {
            try fm.createDirectory(at: output, withIntermediateDirectories: true)
            for (from, to) in copies where fm.fileExists(atPath: from.path) {
                // A FIFO or device among an input's attachments would stall the copy.
                if case .special(let what) = RegularFile.kind(ofItemAt: from.path) {
                    warn("\(from.path) is \(what), not a regular file: not copied")
                    continue
                }
                let dest = output.appendingPathComponent(to)
                try fm.createDirectory(at: dest.deletingLastPathComponent(), withIntermediateDirectories: true)
                if fm.fileExists(atPath: dest.path) { try fm.removeItem(at: dest) }
                try fm.copyItem(at: from, to: dest)
                // A copied folder (a trace) keeps plain files only: a link could point anywhere.
                if case .directory = RegularFile.kind(ofItemAt: dest.path) {
                    for name in (try? fm.subpathsOfDirectory(atPath: dest.path)) ?? [] {
                        let item = dest.appendingPathComponent(name)
                        switch RegularFile.kind(ofItemAt: item.path) {
                        case .symbolicLink, .special: try? fm.removeItem(at: item)
                        default: break
                        }
                    }
                }
            }
            // Attempts of one test from different machines: where a failing one parted from a passing one.
            TraceRetention.markDivergences(in: result, directory: output)
            try ReportWriter.write(result, timings: timings, history: history, to: output)
        } catch {
            throw MergeError("cannot write the merged report into \(output.path): \((error as? FileWriteError)?.description ?? FileWriteError.reason(error))")
        }
        return Merged(result: result, notes: check.notes)
    }

    /// Every input, in the order given. The first is read alone: what it carries that the
    /// others carry again (`MergeInput.Shared`: every partition holds the whole suite, and
    /// most the same timings.json) is shared with the rest. The rest are read on every core,
    /// each into its own slot; the first error in input order is the one thrown, so the
    /// message does not depend on which thread finished first. When the first has nothing to
    /// share (a JUnit file), the first input that has is shared from then on: sharing changes
    /// what is held in memory and decoded, never what an input reads as, so the order the
    /// workers take does not show.
    static func loadAll(_ paths: [String]) throws -> [MergeInput] {
        let first = try MergeInput.load(paths[0])
        let shared = Locked(first.shareable)
        let rest = Array(paths.dropFirst())
        let slots = Locked([Result<MergeInput, Error>?](repeating: nil, count: rest.count))
        let workers = max(1, min(ProcessInfo.processInfo.activeProcessorCount, rest.count))
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            for index in stride(from: worker, to: rest.count, by: workers) {
                let sharing = shared.withLock { $0 }
                let loaded = Result<MergeInput, Error> {
                    var input = try MergeInput.load(rest[index], sharing: sharing)
                    shared.withLock { s in
                        if s.suite == nil { s.suite = input.partitionSuite }
                        if s.timings == nil { s.timings = input.timings }
                    }
                    input.partitionSuite = nil
                    return input
                }
                slots.withLock { $0[index] = loaded }
            }
        }
        var inputs = [first]
        inputs.reserveCapacity(paths.count)
        for slot in slots.withLock({ $0 }) {
            guard let slot else { continue }
            inputs.append(try slot.get())
        }
        return inputs
    }

    /// One input's attempt of a test, and whether its input had a clock.
    struct Collected {
        var test: TestID
        var quarantined: Bool
        var attempt: Attempt
        /// False for an input without a start time (a foreign JUnit file without `timestamp`).
        var timed: Bool

        /// Start time on the one clock; attempts of inputs without a clock first, their failures
        /// before their passes (when is unknown, so a pass and a failure read as flaky); ties
        /// by what does not depend on the inputs' order (attempt number, outcome, duration).
        static func ranEarlier(_ x: Collected, _ y: Collected) -> Bool {
            let a = x.attempt, b = y.attempt
            if x.timed != y.timed { return !x.timed }
            if !x.timed, a.outcome.isFailure != b.outcome.isFailure { return a.outcome.isFailure }
            if x.timed, a.start != b.start { return a.start < b.start }
            if a.number != b.number { return a.number < b.number }
            if a.outcome != b.outcome { return a.outcome.rawValue < b.outcome.rawValue }
            if a.start != b.start { return a.start < b.start }
            return a.duration < b.duration
        }
    }

    static func safeName(_ s: String) -> String {
        String(s.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == "." ? $0 : "_" })
    }
}
