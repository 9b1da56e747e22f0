import Foundation
import RobotCICore
import RobotCIReport

/// `robotci flaky`: the flake ledger of a history file, most flaky first, as a table or as
/// `{"tests": [{"id", "runs", "flakyRuns", "flakyCommits", "lastFlaky", "quarantine"}]}`.
public struct FlakyListing {
    let standings: [FlakeLedger.Standing]
    let policy: QuarantinePolicy

    /// The ledger of the history at `historyURL`, with the quarantine `config` holds now.
    /// - Throws: `ConfigError` naming the file when it is missing, unreadable or its ledger bad.
    public init(historyURL: URL, config: RunConfiguration, now: Double = Date().timeIntervalSince1970) throws {
        guard RegularFile.kind(ofItemAt: historyURL.path) != .missing else {
            throw ConfigError("no history at \(historyURL.path): the flake ledger is kept there by robotci run, merge and report; "
                              + "run the suite first, or point --report-dir or --history at the folder or file that has one")
        }
        let (history, warning) = RunHistory.load(from: historyURL, moveAside: false)
        if let warning { throw ConfigError(warning) }
        let patterns = try config.quarantine.map { p -> (String, NSRegularExpression) in
            do { return (p, try NSRegularExpression(pattern: p)) } catch {
                throw ConfigError("quarantine '\(p)' is not a valid regular expression: fix it in robotci.yml")
            }
        }
        policy = QuarantinePolicy(patterns: patterns, entries: config.quarantineEntries, now: now)
        standings = (history.ledger ?? FlakeLedger()).standings()
    }

    /// One row per test with a flaky run or a quarantine, most flaky first, then how many tests
    /// never flaked.
    public var table: String {
        let shown = standings.filter { $0.flakyRuns > 0 || quarantine(of: $0.id) != nil }
        var lines = ["flaky  runs  rate  last flaky        flaky commits                quarantine    test"]
        let minute = DateFormatter()
        minute.locale = Locale(identifier: "en_US_POSIX")
        minute.timeZone = TimeZone(identifier: "UTC")
        minute.dateFormat = "yyyy-MM-dd HH:mm'Z'"
        for s in shown {
            let rate = s.runs == 0 ? 0 : Int((Double(s.flakyRuns) / Double(s.runs) * 100).rounded())
            let last = s.lastFlaky.map { minute.string(from: Date(timeIntervalSince1970: $0)) } ?? "—"
            let commits = s.flakyCommits.reversed().map { String($0.prefix(8)) }.joined(separator: ",")
            let q = quarantine(of: s.id).map { q -> String in
                switch q {
                case .entry(let e, let expired): return (expired ? "expired " : "") + e.owner
                case .pattern: return "regex"
                }
            } ?? "—"
            lines.append(Self.pad(String(s.flakyRuns), 7) + Self.pad(String(s.runs), 6) + Self.pad("\(rate)%", 6) + Self.pad(last, 18)
                         + Self.pad(commits.isEmpty ? "—" : commits, 29) + Self.pad(q, 14) + s.id.description)
        }
        let quiet = standings.count - shown.count
        lines.append(shown.isEmpty ? "robotci: no flaky test in the ledger (\(standings.count) tests)"
                     : "robotci: \(shown.count) flaky or quarantined; \(quiet) other test\(quiet == 1 ? "" : "s") never flaky")
        return lines.joined(separator: "\n")
    }

    /// Every test of the ledger, most flaky first.
    public func json() throws -> Data {
        let iso = ISO8601DateFormatter()
        let rows = standings.map { s in
            Row(id: s.id, runs: s.runs, flakyRuns: s.flakyRuns, flakyCommits: s.flakyCommits.reversed(),
                lastFlaky: s.lastFlaky.map { iso.string(from: Date(timeIntervalSince1970: $0)) },
                quarantine: quarantine(of: s.id).map { q in
                    switch q {
                    case .entry(let e, let expired):
                        return RowQuarantine(match: nil, owner: e.owner, reason: e.reason, expires: e.expires, expired: expired, source: e.source)
                    case .pattern(let p):
                        return RowQuarantine(match: p, owner: nil, reason: nil, expires: nil, expired: nil, source: nil)
                    }
                })
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(Listing(tests: rows))
    }

    private enum Held { case entry(QuarantineEntry, expired: Bool), pattern(String) }

    /// What quarantines `id`: an entry (expired ones too: the listing says so), else a regex.
    private func quarantine(of id: TestID) -> Held? {
        if let e = policy.entry(for: id) { return .entry(e, expired: false) }
        if let e = policy.expired.first(where: { $0.matches(id) }) { return .entry(e, expired: true) }
        return policy.pattern(for: id).map { .pattern($0) }
    }

    private struct Listing: Encodable { var tests: [Row] }

    /// `flakyCommits` newest first; `lastFlaky` ISO 8601; `quarantine` null when none.
    private struct Row: Encodable {
        var id: TestID
        var runs: Int
        var flakyRuns: Int
        var flakyCommits: [String]
        var lastFlaky: String?
        var quarantine: RowQuarantine?

        func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: Keys.self)
            try c.encode(id, forKey: .id)
            try c.encode(runs, forKey: .runs)
            try c.encode(flakyRuns, forKey: .flakyRuns)
            try c.encode(flakyCommits, forKey: .flakyCommits)
            try c.encode(lastFlaky, forKey: .lastFlaky)
            try c.encode(quarantine, forKey: .quarantine)
        }
        enum Keys: String, CodingKey { case id, runs, flakyRuns, flakyCommits, lastFlaky, quarantine }
    }

    /// An entry (`owner`, `reason`, `expires`, `expired`, `source`) or a regex (`match`).
    private struct RowQuarantine: Encodable {
        var match: String?
        var owner: String?
        var reason: String?
        var expires: String?
        var expired: Bool?
        var source: String?
    }

    private static func pad(_ s: String, _ n: Int) -> String { s.count >= n ? s + " " : s.padding(toLength: n, withPad: " ", startingAt: 0) }
}
