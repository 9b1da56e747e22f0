import Foundation
import RobotCICore

/// One input of `robotci merge`: a robotci report folder, or a JUnit file from any tool.
public struct MergeInput {
    public var path: URL
    /// Label for the machine lane group (partition `2/3`, host name or the folder's name).
    public var machine: String
    public var result: RunResult
    /// The folder whose `attachments/` artifact paths are relative to (nil for JUnit files).
    public var reportDirectory: URL?
    /// The folder's `timings.json` as read (the first input's bytes when equal to them,
    /// `Shared`); `ReportMerger` checks and folds them all at once (`TimingsFold`), so 1,000
    /// copies of the suite's timings are not 1,000 dictionaries.
    public var timings: Data?
    /// The folder's `history.json` (nil: none, or unreadable; see `warnings`).
    public var history: RunHistory? = nil
    /// Things worth a warning that do not stop the merge (an unusable history, a journal's
    /// skipped lines, a results.json older than the folder's journal).
    public var warnings: [String] = []
    /// What this input read that the run's other inputs may carry again.
    public var shareable: Shared { Shared(suite: partitionSuite, timings: timings) }
    /// Its partition's suite as its results.json wrote it.
    var partitionSuite: PartitionSuite? = nil

    /// What one input read that the other partitions of its run carry again, byte for byte:
    /// the whole suite in results.json, and timings.json (a CI cache restores the same one on
    /// every machine). An input that carries the same shares it, so 1,000 partitions hold one
    /// copy in memory, not 1,000, and `TimingsFold` skips the repeats.
    public struct Shared: Sendable {
        public var suite: PartitionSuite?
        public var timings: Data?

        public init(suite: PartitionSuite? = nil, timings: Data? = nil) {
            self.suite = suite
            self.timings = timings
        }
    }

    /// Loads and validates an input; every problem names the path and the reason. A
    /// partition's suite written as `sharing`'s (another partition's, read before) is shared,
    /// not decoded again (`ReportReader.partitionResults`); so is a timings.json equal to it.
    public static func load(_ path: String, sharing: Shared = Shared()) throws -> MergeInput {
        let url = URL(fileURLWithPath: path).standardizedFileURL
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDir) else {
            throw MergeError("\(path): does not exist")
        }
        if isDir.boolValue {
            let results = url.appendingPathComponent("results.json")
            if FileManager.default.fileExists(atPath: results.path) {
                return try loadResults(results, folder: url, sharing: sharing)
            }
            let journal = url.appendingPathComponent("results.jsonl")
            if FileManager.default.fileExists(atPath: journal.path) { return try loadJournal(journal, folder: url, sharing: sharing) }
            let junit = url.appendingPathComponent("junit.xml")
            if FileManager.default.fileExists(atPath: junit.path) { return try loadJUnit(junit) }
            throw MergeError("\(path): not a robotci report folder (no results.json, results.jsonl or junit.xml in it)")
        }
        if url.pathExtension == "json" { return try loadResults(url, folder: url.deletingLastPathComponent(), sharing: sharing) }
        if url.pathExtension == "jsonl" { return try loadJournal(url, folder: url.deletingLastPathComponent(), sharing: sharing) }
        return try loadJUnit(url)
    }

    /// A run's journal, for a machine whose robotci was killed before it wrote results.json.
    private static func loadJournal(_ url: URL, folder: URL, sharing: Shared) throws -> MergeInput {
        let loaded: ReportReader.Loaded
        do { loaded = try ReportReader.load(url) } catch { throw MergeError("\(error)") }
        var input = try validated(loaded.result, from: url, folder: folder, sharing: sharing)
        input.warnings = loaded.warnings + input.warnings
        return input
    }

    private static func loadResults(_ url: URL, folder: URL, sharing: Shared) throws -> MergeInput {
        let result: RunResult
        let suite: PartitionSuite?
        do { (result, suite) = try ReportReader.partitionResults(at: url, sharing: sharing.suite) } catch { throw MergeError("\(error)") }
        // A run clears the folder's journal when it starts and writes results.json when it
        // ends: a journal of another run beside results.json means a later run started here
        // and never finished, so results.json is the earlier run's. Use the journal.
        let journal = folder.appendingPathComponent("results.jsonl")
        if FileManager.default.fileExists(atPath: journal.path) {
            switch journalRun(journal) {
            case .some(let m) where m.runID != result.metadata.runID || m.startedAt != result.metadata.startedAt:
                var input = try loadJournal(journal, folder: folder, sharing: sharing)
                input.warnings.insert("\(url.path) is from an earlier run (run id '\(result.metadata.runID)', \(MergeCheck.started(result.metadata))); "
                    + "a later run (run id '\(m.runID)', \(MergeCheck.started(m))) began in \(folder.path) and did not finish: "
                    + "merging its journal results.jsonl instead", at: 0)
                return input
            case .none:
                throw MergeError("\(url.path) is from an earlier run: a later run started in \(folder.path) and was cut off before "
                    + "its journal results.jsonl had a first entry, so this machine has no results of that run. Run its partition "
                    + "again, or leave the folder out (merge then reports its tests as not run)")
            default: break
            }
        }
        var input = try validated(result, from: url, folder: folder, sharing: sharing)
        input.partitionSuite = suite
        return input
    }

    /// The metadata of the run that wrote a journal (its first entry), nil when it has none.
    private static func journalRun(_ url: URL) -> RunMetadata? {
        // Opening a FIFO would wait for a writer: only a regular file is read.
        guard case .regular = RegularFile.kind(ofItemAt: url.path), let handle = try? FileHandle(forReadingFrom: url) else { return nil }
        defer { try? handle.close() }
        // The first entry is the run's metadata: small. Read only up to its newline.
        var data = Data()
        while data.count < 4 << 20, let chunk = try? handle.read(upToCount: 64 << 10), !chunk.isEmpty {
            data.append(chunk)
            if chunk.contains(UInt8(ascii: "\n")) { break }
        }
        guard let line = data.split(separator: UInt8(ascii: "\n")).first,
              case .run(let m)? = try? JSONDecoder().decode(JournalEntry.self, from: Data(line)) else { return nil }
        return m
    }

    private static func validated(_ result: RunResult, from url: URL, folder: URL, sharing: Shared) throws -> MergeInput {
        // Attachments are copied into the merged report: a path that leads out of this
        // report folder ("../../etc/passwd", "/etc/passwd", a symlink out) would copy a file
        // from anywhere, or write one anywhere under the output. Refuse the input.
        for test in result.tests {
            for attempt in test.attempts {
                for artifact in attempt.artifacts where ReportPaths.resolve(artifact.path, in: folder) == nil {
                    throw MergeError("\(url.path): attachment '\(artifact.path)' of \(test.id.description) (attempt \(attempt.number)) "
                                     + "leads outside the report folder \(folder.path); refusing to merge it")
                }
            }
        }
        var timingsWarning: String?
        var timings: Data?
        do {
            timings = try ReportReader.timingsData(at: folder.appendingPathComponent("timings.json"))
            if let shared = sharing.timings, timings == shared { timings = shared }
        } catch {
            timings = nil
            timingsWarning = "\(error); merging without it"
        }
        let label = result.metadata.partition.map { "partition \($0)" } ?? result.metadata.hostname ?? folder.lastPathComponent
        var input = MergeInput(path: url, machine: label, result: result, reportDirectory: folder, timings: timings)
        if let timingsWarning { input.warnings.append(timingsWarning) }
        let historyURL = folder.appendingPathComponent("history.json")
        if RegularFile.kind(ofItemAt: historyURL.path) != .missing {
            // An input is only read: a bad history is left where it is, not moved aside.
            let (history, warning) = RunHistory.load(from: historyURL, moveAside: false)
            input.history = warning == nil ? history : nil
            if let warning { input.warnings.append("\(warning); merging without it") }
        }
        return input
    }

    private static func loadJUnit(_ url: URL) throws -> MergeInput {
        let label = url.deletingPathExtension().lastPathComponent == "junit"
            ? url.deletingLastPathComponent().lastPathComponent : url.deletingPathExtension().lastPathComponent
        let tests: [TestRecord]
        do { tests = try JUnitReader.read(url, machine: label) } catch let e as XMLError { throw MergeError(e.message) }
        let wall = tests.reduce(0) { $0 + $1.attempts.reduce(0) { $0 + $1.duration } }
        var meta = RunMetadata(runID: "junit:\(label)", startedAt: 0, wallTime: wall, shards: 1, retries: 0, robotciVersion: "")
        meta.hostname = label
        return MergeInput(path: url, machine: label, result: RunResult(metadata: meta, tests: tests, batches: []),
                          reportDirectory: nil, timings: nil)
    }
}

/// Why an input could not be merged.
public struct MergeError: Error, Equatable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
