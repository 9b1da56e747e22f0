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
    public var timings: Timings?
    /// The folder's `history.json` (nil: none, or unreadable; see `warning`).
    public var history: RunHistory? = nil
    /// Why the folder's history could not be used (the merge goes on without it).
    public var warning: String? = nil

    /// Loads and validates an input; every problem names the path and the reason.
    public static func load(_ path: String) throws -> MergeInput {
        let url = URL(fileURLWithPath: path).standardizedFileURL
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDir) else {
            throw MergeError("\(path): does not exist")
        }
        if isDir.boolValue {
            let results = url.appendingPathComponent("results.json")
            if FileManager.default.fileExists(atPath: results.path) {
                return try loadResults(results, folder: url)
            }
            let journal = url.appendingPathComponent("results.jsonl")
            if FileManager.default.fileExists(atPath: journal.path) { return try loadJournal(journal, folder: url) }
            let junit = url.appendingPathComponent("junit.xml")
            if FileManager.default.fileExists(atPath: junit.path) { return try loadJUnit(junit) }
            throw MergeError("\(path): not a robotci report folder (no results.json, results.jsonl or junit.xml in it)")
        }
        if url.pathExtension == "json" { return try loadResults(url, folder: url.deletingLastPathComponent()) }
        if url.pathExtension == "jsonl" { return try loadJournal(url, folder: url.deletingLastPathComponent()) }
        return try loadJUnit(url)
    }

    /// A run's journal, for a machine whose robotci was killed before it wrote results.json.
    private static func loadJournal(_ url: URL, folder: URL) throws -> MergeInput {
        let result: RunResult
        do { result = try ReportReader.load(url).result } catch { throw MergeError("\(error)") }
        return try validated(result, from: url, folder: folder)
    }

    private static func loadResults(_ url: URL, folder: URL) throws -> MergeInput {
        let result: RunResult
        do { result = try ReportReader.results(at: url) } catch { throw MergeError("\(error)") }
        return try validated(result, from: url, folder: folder)
    }

    private static func validated(_ result: RunResult, from url: URL, folder: URL) throws -> MergeInput {
        // Attachments are copied into the merged report: a path that leads out of this
        // report folder ("../../etc/passwd", "/etc/passwd", a symlink out) would copy a file
        // from anywhere, or write one anywhere under the output. Refuse the input.
        for test in result.tests {
            for attempt in test.attempts {
                for artifact in attempt.artifacts where ReportPaths.resolve(artifact.path, in: folder) == nil {
                    throw MergeError("\(url.path): attachment '\(artifact.path)' of \(test.id.rawValue) (attempt \(attempt.number)) "
                                     + "leads outside the report folder \(folder.path); refusing to merge it")
                }
            }
        }
        let timings = ReportReader.timings(in: folder)
        let label = result.metadata.partition.map { "partition \($0)" } ?? result.metadata.hostname ?? folder.lastPathComponent
        var input = MergeInput(path: url, machine: label, result: result, reportDirectory: folder, timings: timings)
        let historyURL = folder.appendingPathComponent("history.json")
        if FileManager.default.fileExists(atPath: historyURL.path) {
            // An input is only read: a bad history is left where it is, not moved aside.
            let (history, warning) = RunHistory.load(from: historyURL, moveAside: false)
            input.history = warning == nil ? history : nil
            input.warning = warning.map { "\($0); merging without it" }
        }
        return input
    }

    private static func loadJUnit(_ url: URL) throws -> MergeInput {
        let label = url.deletingPathExtension().lastPathComponent == "junit"
            ? url.deletingLastPathComponent().lastPathComponent : url.deletingPathExtension().lastPathComponent
        let tests: [TestRecord]
        do { tests = try JUnitReader.read(url, machine: label) } catch let e as XMLError { throw MergeError(e.message) }
        let wall = tests.reduce(0) { $0 + $1.attempts.reduce(0) { $0 + $1.duration } }
        let meta = RunMetadata(runID: "junit:\(label)", startedAt: 0, wallTime: wall, shards: 1, retries: 0,
                               robotciVersion: "", commandLine: [], hostname: label)
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
