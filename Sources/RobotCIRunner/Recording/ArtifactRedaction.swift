import Foundation
import RobotCIReport

/// Masks secrets in the text files a test left as artifacts (a console log, a page's HTML, a
/// mock journal, a trace), as they enter the report folder: the report copies them and inlines
/// them into index.html, so a token a page printed would otherwise be published with it.
/// Binary files (a NUL in their first 8 KB, or not UTF-8) and files over `limit` are left as
/// they are; a file is rewritten only when something was masked.
enum ArtifactRedaction {
    static let limit = 32 << 20

    /// Redacts `url`, or every file under it when it is a folder.
    static func redact(_ url: URL, with redactor: SecretRedactor) {
        switch RegularFile.kind(ofItemAt: url.path) {
        case .regular(let size) where size <= limit:
            redactFile(url, with: redactor)
        case .directory:
            for name in (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? [] {
                redact(url.appendingPathComponent(name), with: redactor)
            }
        default:
            break
        }
    }

    private static func redactFile(_ url: URL, with redactor: SecretRedactor) {
        guard let data = try? RegularFile.read(url.path, limit: limit, what: "artifact"),
              !data.prefix(8192).contains(0), let text = String(data: data, encoding: .utf8) else { return }
        let masked = redactor.redact(text)
        guard masked != text else { return }
        try? Data(masked.utf8).write(to: url, options: .atomic)
    }
}
