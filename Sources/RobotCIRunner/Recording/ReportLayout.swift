import Foundation
import RobotCICore
import RobotCIReport

/// Where things go inside the report folder.
struct ReportLayout: Sendable {
    let directory: URL

    var workDirectory: URL { directory.appendingPathComponent(".robotci-work") }
    var journal: URL { directory.appendingPathComponent("results.jsonl") }

    /// Relative path of a batch's full log.
    func batchLogPath(_ batch: Int) -> String { "attachments/batches/batch-\(batch).log" }

    /// Relative folder of one attempt's artifacts.
    /// Its readable part masks what `redactor` would (a token in a pytest id); the hash is
    /// the real id's, so two masked ids still get folders of their own.
    func attemptDirectory(_ test: TestID, attempt: Int, redactor: SecretRedactor) -> String {
        "attachments/\(ReportLayout.slug(test.description, shownAs: redactor.redact(test.description)))/\(attempt)"
    }

    /// A file-system-safe, collision-free name for a test id: readable part + hash of the id.
    /// `shownAs`: the text the readable part is made of, when not `s` itself.
    static func slug(_ s: String, shownAs shown: String? = nil) -> String {
        let hash = String(Partitioner.stableHash(s) & 0xffff_ffff, radix: 16)
        return "\(readable(shown ?? s))-\(hash)"
    }

    private static func readable(_ s: String) -> String {
        var out = ""
        for ch in s.unicodeScalars {
            if ch.properties.isAlphabetic || ("0"..."9").contains(ch) || ch == "_" || ch == "-" || ch == "." {
                out.unicodeScalars.append(ch)
            } else {
                out.append("_")
            }
        }
        // Bytes, not characters: 160 CJK characters were 480 bytes, over the 255-byte name limit,
        // and the attempt's artifacts were dropped without a word.
        return BoundedFileName.prefix(out, maxBytes: 160)
    }

    /// Clears what belongs to a previous run (its journal, attachments, work files);
    /// keeps `timings.json`, which the new run plans with.
    func prepare() throws {
        let fm = FileManager.default
        do {
            try fm.createDirectory(at: directory, withIntermediateDirectories: true)
            for name in ["attachments", ".robotci-work", "results.jsonl"] {
                let url = directory.appendingPathComponent(name)
                if fm.fileExists(atPath: url.path) { try fm.removeItem(at: url) }
            }
            try fm.createDirectory(at: directory.appendingPathComponent("attachments/batches"), withIntermediateDirectories: true)
            try fm.createDirectory(at: workDirectory, withIntermediateDirectories: true)
        } catch {
            throw RunnerError.report("cannot write the report folder \(directory.path): \(FileWriteError.reason(error)); "
                                     + "pass a writable --report-dir")
        }
    }
}
