import Foundation

/// One quarantined test with an owner and an end (`quarantine:` in robotci.yml, beside the
/// regexes): `{test: ID, owner: WHO, reason: WHY, expires: YYYY-MM-DD}`, optionally `browser:`
/// for one engine. It applies until `expires` (the first day, UTC, it no longer does); then the
/// test fails the run again and robotci says which entry expired and when.
public struct QuarantineEntry: Sendable, Equatable, Codable {
    /// The test's own id (`Module.Class/test`), exactly; its repetitions are included.
    public var test: String
    /// Only on this browser engine; nil: on every engine.
    public var browser: String?
    public var owner: String
    public var reason: String?
    /// `YYYY-MM-DD`, as written.
    public var expires: String
    /// Where it is written, for messages: `robotci.yml:12 key 'quarantine', entry 3`.
    public var source: String

    public static let fields = ["test", "browser", "owner", "reason", "expires"]

    /// Reads entry `number` of the list from its fields; errors say which field is wrong and how
    /// to write it.
    public init(number: Int, fields: [String: String], source: String) throws {
        let name = "entry \(number)" + (fields["test"].map { " (test '\($0)')" } ?? "")
        for key in fields.keys.sorted() where !Self.fields.contains(key) {
            throw ConfigError("\(name) has an unknown field '\(key)': a quarantine entry takes \(Self.fields.joined(separator: ", "))")
        }
        let example = "{test: 'App.CheckoutUITests/testPay', owner: '@payments', reason: 'JIRA-123', expires: 2026-12-31}"
        func required(_ key: String, _ why: String) throws -> String {
            guard let v = fields[key]?.trimmingCharacters(in: .whitespaces), !v.isEmpty else {
                throw ConfigError("\(name) has no '\(key)' (\(why)), e.g. \(example)")
            }
            return v
        }
        test = try required("test", "the id of the test it quarantines")
        owner = try required("owner", "who answers for it")
        expires = try required("expires", "the day it stops applying, YYYY-MM-DD")
        guard Self.dayStart(expires) != nil else {
            throw ConfigError("\(name): 'expires' must be a date YYYY-MM-DD (the first day, UTC, the quarantine no longer applies), got '\(expires)'")
        }
        browser = fields["browser"].flatMap { $0.isEmpty ? nil : $0 }
        reason = fields["reason"].flatMap { $0.isEmpty ? nil : $0 }
        self.source = "\(source), entry \(number)"
    }

    /// Whether it names `id` (any repetition of the test, on its engine when it names one).
    /// `browser: chromium` names the default engine's runs, whose ids carry no browser (`BrowserTarget`).
    public func matches(_ id: TestID) -> Bool { id.test == test && (browser == nil || (id.browser ?? BrowserTarget.chromium.name) == browser) }

    /// Seconds since 1970 at which it stops applying (00:00 UTC of `expires`).
    public var expiresAt: Double { Self.dayStart(expires) ?? 0 }

    /// Whether it no longer applies at `now` (seconds since 1970).
    public func isExpired(at now: Double) -> Bool { now >= expiresAt }

    /// The entry as a line of robotci.yml's `quarantine:` list (flow style).
    public var yaml: String {
        func quoted(_ s: String) -> String { "'" + s.replacingOccurrences(of: "'", with: "''") + "'" }
        var parts = ["test: \(quoted(test))"]
        if let browser { parts.append("browser: \(quoted(browser))") }
        parts.append("owner: \(quoted(owner))")
        if let reason { parts.append("reason: \(quoted(reason))") }
        parts.append("expires: \(expires)")
        return "  - {" + parts.joined(separator: ", ") + "}"
    }

    /// Who and why, for the report, JUnit and the console: `owner @payments, until 2026-12-31: JIRA-123`.
    public var note: String { "owner \(owner), until \(expires)" + (reason.map { ": \($0)" } ?? "") }

    /// 00:00 UTC of a `YYYY-MM-DD` day, nil for anything else (2026-02-30 included).
    static func dayStart(_ text: String) -> Double? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
              let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2])
        else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        guard let date = calendar.date(from: DateComponents(year: y, month: m, day: d)) else { return nil }
        let back = calendar.dateComponents([.year, .month, .day], from: date)
        guard back.year == y, back.month == m, back.day == d else { return nil }
        return date.timeIntervalSince1970
    }
}
