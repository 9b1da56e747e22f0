import Foundation
import RobotCICore

/// The step trace viewer: one `viewer.html` beside each kept `trace.json`, the `web-report/`
/// trace template with the trace (and, when the attempt parted from a passing one, the
/// passing attempt's trace) embedded as JSON. It loads nothing but the trace folders' images
/// and snapshot files, so it works from `file://` and under its own CSP; `index.html` only
/// links it, so the report stays small however many steps were recorded.
public enum TraceViewer {
    /// The viewer's file name, in the trace folder.
    public static let fileName = "viewer.html"

    /// Only its own script (by hash); images and the sandboxed snapshot frames from the report folder.
    public static let contentSecurityPolicy =
        "default-src 'none'; script-src '\(TraceTemplate.scriptHash)'; style-src 'unsafe-inline'; "
        + "img-src 'self' data:; frame-src 'self'; base-uri 'none'; form-action 'none'"

    /// Every kept trace's viewer, as (report-relative path, bytes). A trace that cannot be read
    /// gets a viewer saying why, so no file a test left under that name is ever linked.
    public static func pages(for result: RunResult, in directory: URL) -> [(String, Data)] {
        var pages: [(String, Data)] = []
        for test in result.tests {
            for attempt in test.attempts {
                for artifact in attempt.artifacts where artifact.kind == .trace {
                    // A trace whose files are not in this folder (a merge whose input lost them) gets no page.
                    guard let url = ReportPaths.resolve(artifact.path, in: directory),
                          case .regular = RegularFile.kind(ofItemAt: url.path) else { continue }
                    let folder = (artifact.path as NSString).deletingLastPathComponent
                    let depth = folder.split(separator: "/").count
                    let report = String(repeating: "../", count: depth) + "index.html#test=" + fragmentValue(test.id.description)
                    pages.append(("\(folder)/\(fileName)", render(traceAt: url, report: report, directory: directory)))
                }
            }
        }
        return pages
    }

    /// The viewer for the trace at `url`; `report` links back to the test in `index.html`.
    static func render(traceAt url: URL, report: String, directory: URL) -> Data {
        var data: [String: Any] = ["report": report]
        do {
            let trace = try TraceRetention.read(url)
            data["trace"] = try jsonObject(trace)
            if let divergence = trace.firstDivergence, let relative = divergence.passingTrace,
               let passingURL = within(directory, url.deletingLastPathComponent().appendingPathComponent(relative)),
               let passing = try? TraceRetention.read(passingURL) {
                data["passing"] = try jsonObject(passing)
                data["passingBase"] = (relative as NSString).deletingLastPathComponent + "/"
            }
        } catch {
            data["trace"] = ["test": "trace.json could not be read: \(error)", "steps": [] as [Any]]
        }
        return Data(page(data: data).utf8)
    }

    static func page(data: [String: Any]) -> String {
        let json = (try? JSONSerialization.data(withJSONObject: data, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8)
        return TraceTemplate.html
            .replacingOccurrences(of: "{{CSP}}", with: contentSecurityPolicy)
            .replacingOccurrences(of: "{{STYLE}}", with: TraceTemplate.css)
            .replacingOccurrences(of: "{{DATA}}", with: SafeJSONWriter.scriptSafe(String(decoding: json, as: UTF8.self)))
            .replacingOccurrences(of: "{{SCRIPT}}", with: TraceTemplate.js)
    }

    /// `url` when it lies inside the report folder (symbolic links followed), else nil.
    private static func within(_ directory: URL, _ url: URL) -> URL? {
        let base = directory.standardizedFileURL.path
        let path = url.standardizedFileURL.path
        guard path.hasPrefix(base + "/") else { return nil }
        return ReportPaths.resolve(String(path.dropFirst(base.count + 1)), in: directory)
    }

    private static func jsonObject(_ trace: Trace) throws -> Any {
        try JSONSerialization.jsonObject(with: JSONEncoder().encode(trace))
    }

    /// A value for the report's `#test=…` (URLSearchParams form encoding).
    static func fragmentValue(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics.intersection(CharacterSet(charactersIn: Unicode.Scalar(0)...Unicode.Scalar(127)))
        allowed.insert(charactersIn: "-._*")
        return (text.addingPercentEncoding(withAllowedCharacters: allowed) ?? "").replacingOccurrences(of: "%20", with: "+")
    }
}
