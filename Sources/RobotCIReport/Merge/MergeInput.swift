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
            let junit = url.appendingPathComponent("junit.xml")
            if FileManager.default.fileExists(atPath: junit.path) { return try loadJUnit(junit) }
            throw MergeError("\(path): not a robotci report folder (no results.json or junit.xml in it)")
        }
        if url.pathExtension == "json" { return try loadResults(url, folder: url.deletingLastPathComponent()) }
        return try loadJUnit(url)
    }

    private static func loadResults(_ url: URL, folder: URL) throws -> MergeInput {
        let data: Data
        do { data = try Data(contentsOf: url) } catch { throw MergeError("\(url.path): cannot read: \(error.localizedDescription)") }
        struct Format: Decodable { var format: String? }
        guard let format = try? JSONDecoder().decode(Format.self, from: data) else {
            throw MergeError("\(url.path): not valid JSON")
        }
        guard format.format == RunResult.formatName else {
            throw MergeError("\(url.path): not a robotci results file (format '\(format.format ?? "none")', expected '\(RunResult.formatName)')")
        }
        let result: RunResult
        do { result = try JSONDecoder().decode(RunResult.self, from: data) } catch {
            throw MergeError("\(url.path): corrupt robotci results: \(error)")
        }
        let timings = try? JSONDecoder().decode(Timings.self, from: Data(contentsOf: folder.appendingPathComponent("timings.json")))
        let label = result.metadata.partition.map { "partition \($0)" } ?? result.metadata.hostname ?? folder.lastPathComponent
        return MergeInput(path: url, machine: label, result: result, reportDirectory: folder, timings: timings)
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
