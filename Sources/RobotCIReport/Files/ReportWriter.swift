import Foundation
import RobotCICore

/// Writes a report folder: `results.json`, `junit.xml`, `timings.json`, `index.html`,
/// each atomically. Everything is rendered before the first file is written, so a
/// rendering error leaves the folder as it was.
public enum ReportWriter {
    public static func write(_ result: RunResult, timings: Timings, to directory: URL) throws {
        try write(rendered: render(result, timings: timings, directory: directory), to: directory)
    }

    /// The report's files, rendered in memory (nothing touches the disk).
    public static func render(_ result: RunResult, timings: Timings, directory: URL) throws -> [(String, Data)] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return [
            ("results.json", try encoder.encode(result)),
            ("junit.xml", try JUnitWriter.render(result)),
            ("timings.json", try encoder.encode(timings)),
            ("index.html", Data(HTMLReport.render(result, reportDirectory: directory).utf8)),
        ]
    }

    /// Writes rendered files all or nothing: when one cannot be written (disk full, read-only
    /// folder), none of the previous report's files is replaced.
    public static func write(rendered files: [(String, Data)], to directory: URL) throws {
        try AtomicFile.write(files.map { (directory.appendingPathComponent($0.0), $0.1) })
    }
}
