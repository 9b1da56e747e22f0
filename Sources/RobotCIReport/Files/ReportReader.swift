import Foundation
import RobotCICore

/// The one reader of the files robotci writes: a `results.json` (format-checked), a
/// `results.jsonl` journal (rebuilt with `RunResult(journal:)`), and `timings.json`.
/// `robotci report`, `robotci merge` and `robotci run` (planning) all read through it.
/// Errors name the file, and the line for a journal.
public enum ReportReader {
    public struct Loaded: Sendable {
        public var result: RunResult
        /// True when the input was a journal (so `results.json` is worth writing too).
        public var fromJournal: Bool
        /// Things worth telling but not fatal, e.g. an unterminated last journal line.
        public var warnings: [String]
    }

    /// A results file that cannot be used; the message says which file, where and why.
    public struct Error: Swift.Error, Equatable, CustomStringConvertible, Sendable {
        public let description: String
    }

    /// `timings.json` of a report folder; nil when there is none or it is unreadable (a run
    /// then plans without history, as on its first run).
    public static func timings(in directory: URL) -> Timings? {
        (try? timingsFile(at: directory.appendingPathComponent("timings.json"))) ?? nil
    }

    /// A `timings.json`: nil when there is none; an error naming it when it is not a regular
    /// file, is over `RegularFile.historyLimit` or is not timings.
    public static func timingsFile(at url: URL) throws -> Timings? {
        guard RegularFile.kind(ofItemAt: url.path) != .missing else { return nil }
        do {
            let data = try RegularFile.read(url.path, limit: RegularFile.historyLimit, what: "timings file")
            return try decodeTimings(data)
        } catch let e as RegularFileError {
            throw Error(description: e.message)
        } catch {
            throw Error(description: "\(url.path): not a robotci timings.json (\(DecodingFailure.describe(error)))")
        }
    }

    /// A `timings.json`'s bytes as read, for merge to fold many at once (`TimingsFold`, which
    /// checks them with `decodeTimings(_:path:)`); nil when there is none; an error naming it
    /// when it is not a regular file or is over `RegularFile.historyLimit`.
    static func timingsData(at url: URL) throws -> Data? {
        guard RegularFile.kind(ofItemAt: url.path) != .missing else { return nil }
        do {
            return try RegularFile.read(url.path, limit: RegularFile.historyLimit, what: "timings file")
        } catch let e as RegularFileError {
            throw Error(description: e.message)
        }
    }

    /// `decodeTimings`, its error naming the file as `timingsFile`'s does.
    static func decodeTimings(_ data: Data, path: String) throws -> Timings {
        do { return try decodeTimings(data) } catch {
            throw Error(description: "\(path): not a robotci timings.json (\(DecodingFailure.describe(error)))")
        }
    }

    /// A `timings.json`'s bytes: robotci's own shape read directly (`TimingsScanner`), anything
    /// else through `JSONDecoder`.
    static func decodeTimings(_ data: Data) throws -> Timings {
        if let timings = data.withUnsafeBytes(TimingsScanner.timings) { return timings }
        return try JSONDecoder().decode(Timings.self, from: data)
    }

    /// Reads and checks a `results.json`.
    public static func results(at url: URL) throws -> RunResult {
        try results(read(url), path: url.path)
    }

    /// Loads `url`: a journal when its name ends in `.jsonl`, a `results.json` otherwise.
    public static func load(_ url: URL) throws -> Loaded {
        let data = try read(url)
        if url.pathExtension.lowercased() == "jsonl" { return try journal(data, path: url.path) }
        return Loaded(result: try results(data, path: url.path), fromJournal: false, warnings: [])
    }

    /// A regular file of at most `RegularFile.resultsLimit` bytes: a FIFO would block the read,
    /// a huge file fill the memory.
    static func read(_ url: URL) throws -> Data {
        do {
            return try RegularFile.read(url.path, limit: RegularFile.resultsLimit, what: "results file")
        } catch let e as RegularFileError {
            throw Error(description: e.message)
        }
    }

    private struct FormatProbe: Decodable { var format: String? }

    static func results(_ data: Data, path: String) throws -> RunResult {
        let probe: FormatProbe
        do {
            probe = try JSONDecoder().decode(FormatProbe.self, from: data)
        } catch {
            throw Error(description: "\(path): not JSON or not an object (\(DecodingFailure.describe(error)))")
        }
        if let format = probe.format, let newer = RunResult.newerFormatMessage(format) {
            throw Error(description: "\(path): \(newer)")
        }
        guard let format = probe.format, RunResult.isReadableFormat(format) else {
            let found = probe.format.map { "format '\($0)'" } ?? "no 'format' field"
            throw Error(description:
                "\(path): not a robotci results file (\(found), expected '\(RunResult.formatName)'); "
                + "pass the results.json or results.jsonl that robotci wrote")
        }
        do {
            guard PreviousFormat.writesTextIDs(format) else { return try JSONDecoder().decode(RunResult.self, from: data) }
            // A run rebuilt from a journal cut short is marked interrupted: its metadata has no say.
            var result = try PreviousFormat.decoder().decode(RunResult.self, from: data)
            result.metadata.stop = result.metadata.stop ?? PreviousFormat.stop(in: data)
            return PreviousFormat.upgrading(result, metadataIsFinal: !result.metadata.interrupted)
        } catch {
            throw Error(description: "\(path): invalid \(RunResult.formatName) data: \(DecodingFailure.describe(error))")
        }
    }

    static func journal(_ data: Data, path: String) throws -> Loaded {
        var entries: [JournalEntry] = []
        var warnings: [String] = []
        var skipped = 0
        var decoder = JSONDecoder()
        var textIDs = false
        let lines = data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        let endsWithNewline = data.last == UInt8(ascii: "\n")
        /// A line from a newer robotci (its run entry carries the format marker) fails as such;
        /// one from a robotci that wrote ids as text has the rest read as such.
        func checkFormat(_ line: Data, _ index: Int) throws {
            let format = (try? decoder.decode(FormatProbe.self, from: line))?.format
            if let format, let newer = RunResult.newerFormatMessage(format) {
                throw Error(description: "\(path):\(index + 1): \(newer)")
            }
            if PreviousFormat.writesTextIDs(format) {
                decoder = PreviousFormat.decoder()
                textIDs = true
            }
        }
        for (index, line) in lines.enumerated() {
            if line.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\r") || $0 == UInt8(ascii: "\t") }) { continue }
            if entries.isEmpty { try checkFormat(Data(line), index) }
            do {
                entries.append(try decoder.decode(JournalEntry.self, from: Data(line)))
            } catch {
                try checkFormat(Data(line), index)
                // A coordinator killed mid-write leaves an unterminated last line, a full disk a
                // torn line in the middle: keep every other entry, and say which were skipped.
                if index == lines.count - 1 && !endsWithNewline {
                    warnings.append("\(path):\(index + 1): ignored the unterminated last line (the run was cut off while writing it)")
                    continue
                }
                skipped += 1
                if skipped <= 5 {
                    warnings.append("\(path):\(index + 1): skipped a corrupt journal entry (\(DecodingFailure.describe(error)))")
                }
            }
        }
        if skipped > 5 { warnings.append("\(path): skipped \(skipped) corrupt journal entries in all") }
        guard !entries.isEmpty else {
            throw Error(description: "\(path): the journal has no readable entries" + (skipped > 0 ? " (\(skipped) corrupt lines)" : ""))
        }
        // The `finished` entry carries the run's final metadata (`repetitions` included).
        let finished = entries.contains { if case .finished = $0 { true } else { false } }
        let result = RunResult(journal: entries)
        return Loaded(result: textIDs ? PreviousFormat.upgrading(result, metadataIsFinal: finished) : result, fromJournal: true,
                      warnings: warnings)
    }
}
