import Foundation
import RobotCICore

/// Renders `index.html`: the `web-report/` template with the run's data embedded as JSON.
///
/// The page needs nothing but itself and the `attachments/` folder beside it: CSS, script
/// and data are inline, and its Content-Security-Policy forbids every other load.
public enum HTMLReport {
    /// The page for `result`, with no artifact contents inlined (links only).
    public static func render(_ result: RunResult) -> String {
        String(decoding: renderBytes(result, reportDirectory: nil), as: UTF8.self)
    }

    /// The page for `result`; small artifacts (robot steps, mock requests, accessibility
    /// tree, console) found under `reportDirectory` are inlined so they show in the page.
    public static func render(_ result: RunResult, reportDirectory: URL?) -> String {
        String(decoding: renderBytes(result, reportDirectory: reportDirectory), as: UTF8.self)
    }

    /// Writes `directory/index.html` atomically (temporary file, then rename), creating
    /// the folder if needed; artifacts are read relative to `directory`.
    public static func write(_ result: RunResult, history: RunHistory? = nil, to directory: URL) throws {
        let bytes = renderBytes(result, reportDirectory: directory, history: history)
        try AtomicFile.write(Data(bytes), to: directory.appendingPathComponent("index.html"))
    }

    /// The Content-Security-Policy of every report: only the page's own script (by hash)
    /// and inline styles run; images only from the report's own folder or `data:`.
    public static let contentSecurityPolicy =
        "default-src 'none'; script-src '\(ReportTemplate.scriptHash)'; style-src 'unsafe-inline'; "
        + "img-src 'self' data:; base-uri 'none'; form-action 'none'"

    static func renderBytes(_ result: RunResult, reportDirectory: URL?, history: RunHistory? = nil,
                            limits: ReportData.Limits = .standard) -> [UInt8] {
        let data = ReportData(result: result, reportDirectory: reportDirectory, limits: limits, history: history).json()
        var out: [UInt8] = []
        out.reserveCapacity(data.count + ReportTemplate.js.utf8.count + ReportTemplate.css.utf8.count + 8192)
        for part in Template.parts {
            switch part {
            case .text(let s): out.append(contentsOf: s.utf8)
            case .csp: out.append(contentsOf: contentSecurityPolicy.utf8)
            case .style: out.append(contentsOf: ReportTemplate.css.utf8)
            case .script: out.append(contentsOf: ReportTemplate.js.utf8)
            case .data: out.append(contentsOf: data)
            }
        }
        return out
    }

    /// `web-report/index.html` cut at its `{{…}}` shards once, so rendering is concatenation.
    enum Template {
        enum Part { case text(String), csp, style, script, data }

        static let parts: [Part] = {
            var parts: [Part] = []
            var rest = Substring(ReportTemplate.html)
            let shards: [(String, Part)] = [("{{CSP}}", .csp), ("{{STYLE}}", .style), ("{{SCRIPT}}", .script), ("{{DATA}}", .data)]
            while let (range, part) = shards.compactMap({ shard in rest.range(of: shard.0).map { ($0, shard.1) } })
                .min(by: { $0.0.lowerBound < $1.0.lowerBound }) {
                parts.append(.text(String(rest[..<range.lowerBound])))
                parts.append(part)
                rest = rest[range.upperBound...]
            }
            parts.append(.text(String(rest)))
            return parts
        }()
    }
}
