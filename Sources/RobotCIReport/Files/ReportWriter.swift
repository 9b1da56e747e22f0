import Foundation
import RobotCICore

/// Writes a report folder: `results.json`, `junit.xml`, `timings.json`, `history.json`
/// (when a history is given), a `viewer.html` beside each step trace, `index.html`, each atomically. Everything is rendered before the first file is written, so a
/// rendering error leaves the folder as it was.
public enum ReportWriter {
    public static func write(_ result: RunResult, timings: Timings, history: RunHistory? = nil, historyURL: URL? = nil, to directory: URL) throws {
        try write(rendered: render(result, timings: timings, history: history, historyURL: historyURL, directory: directory), to: directory)
    }

    /// The report's files, rendered in memory (nothing touches the disk).
    /// `history.json` goes to `historyURL` (`--history`) or, by default, into the folder;
    /// a path is relative to `directory` unless absolute.
    public static func render(_ result: RunResult, timings: Timings, history: RunHistory? = nil, historyURL: URL? = nil,
                              directory: URL) throws -> [(String, Data)] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var files: [(String, Data)] = [
            ("results.json", try encoder.encode(result)),
            ("junit.xml", try JUnitWriter.render(result)),
            ("timings.json", try encoder.encode(timings)),
        ]
        if let history { files.append((historyURL?.path ?? "history.json", try history.encoded())) }
        files += TraceViewer.pages(for: result, in: directory)
        files.append(("index.html", Data(HTMLReport.renderBytes(result, reportDirectory: directory, history: history))))
        return files
    }

    /// Writes rendered files all or nothing: when one cannot be written (disk full, read-only
    /// folder), none of the previous report's files is replaced.
    public static func write(rendered files: [(String, Data)], to directory: URL) throws {
        try AtomicFile.write(files.map { ($0.0.hasPrefix("/") ? URL(fileURLWithPath: $0.0) : directory.appendingPathComponent($0.0), $0.1) })
    }
}
