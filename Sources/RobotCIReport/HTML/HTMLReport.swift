import Foundation
import RobotCICore

/// Renders `index.html` for a run. (First cut: summary and test table; the full
/// interactive report replaces this body, keeping the signature.)
public enum HTMLReport {
    public static func render(_ result: RunResult) -> String {
        let c = result.counts
        var rows = ""
        for t in result.tests {
            rows += "<tr><td>\(escape(t.id.rawValue))</td><td>\(t.outcome.rawValue)</td><td>\(t.attempts.count)</td></tr>\n"
        }
        return """
            <!doctype html><html><head><meta charset="utf-8">
            <meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src 'self'">
            <title>robotci report</title></head><body>
            <h1>robotci: \(c.total) tests, \(c.passed) passed, \(c.failed) failed, \(c.flaky) flaky</h1>
            <table>\(rows)</table></body></html>
            """
    }

    static func escape(_ s: String) -> String {
        var out = ""
        for ch in s.unicodeScalars {
            switch ch {
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "&": out += "&amp;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.unicodeScalars.append(ch)
            }
        }
        return out
    }
}
