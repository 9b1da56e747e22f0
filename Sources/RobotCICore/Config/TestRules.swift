import Foundation

/// One entry of `rules:` in robotci.yml: settings for the tests whose id `match` finds.
/// A field left out falls back to the global setting (`--retries`, `--test-timeout`).
public struct TestRule: Sendable, Equatable {
    /// Regex searched in the test id (as `--filter` is): `^…$` to match a whole id.
    public var match: String
    public var retries: Int?
    public var testTimeout: Double?
    /// Regex searched in a failing attempt's failure messages: only a failure it finds is
    /// retried; any other failure is final at once.
    public var retryOn: String?

    public init(match: String, retries: Int? = nil, testTimeout: Double? = nil, retryOn: String? = nil) {
        self.match = match
        self.retries = retries
        self.testTimeout = testTimeout
        self.retryOn = retryOn
    }

    /// The fields a rule may have, as robotci.yml spells them.
    public static let fields = ["match", "retries", "test-timeout", "retry-on"]

    /// A rule from its YAML fields; `number` (1-based) names it in errors, which say how to fix it.
    public init(number: Int, fields: [String: String]) throws {
        let name = "rule \(number)"
        for key in fields.keys.sorted() where !Self.fields.contains(key.replacingOccurrences(of: "_", with: "-")) {
            throw ConfigError("\(name) has an unknown field '\(key)': a rule takes \(Self.fields.joined(separator: ", "))")
        }
        func field(_ key: String) -> String? { fields[key] ?? fields[key.replacingOccurrences(of: "-", with: "_")] }
        guard let match = field("match"), !match.isEmpty else {
            throw ConfigError("\(name) has no 'match': give it the regex of the test ids it is for, e.g. {match: 'LoginUITests/', retries: 0}")
        }
        try Self.checkRegex(match, "\(name)'s 'match'", example: "'CheckoutUITests/' or '^App.LoginTests/testSignIn$'")
        self.init(match: match)
        if let text = field("retries") {
            guard let n = Int(text), n >= 0 else { throw ConfigError("\(name) (match '\(match)'): 'retries' must be an integer ≥ 0, got '\(text)'") }
            retries = n
        }
        if let text = field("test-timeout") {
            guard let s = Double(text), s > 0, s.isFinite else {
                throw ConfigError("\(name) (match '\(match)'): 'test-timeout' must be a positive number of seconds, got '\(text)'")
            }
            testTimeout = s
        }
        if let text = field("retry-on") {
            try Self.checkRegex(text, "\(name) (match '\(match)'): 'retry-on'", example: "'timed out|ECONNRESET'")
            retryOn = text
        }
        if retries == nil && testTimeout == nil && retryOn == nil {
            throw ConfigError("\(name) (match '\(match)') sets nothing: add retries, test-timeout or retry-on, or remove it")
        }
    }

    private static func checkRegex(_ pattern: String, _ what: String, example: String) throws {
        do { _ = try NSRegularExpression(pattern: pattern) } catch {
            throw ConfigError("\(what) '\(pattern)' is not a valid regular expression: fix it (NSRegularExpression syntax, "
                + "e.g. \(example); escape ( ) [ ] . with a backslash to match them as text)")
        }
    }

    /// `match 'X': retries 0, test-timeout 60 s, retry-on 'Y'` (what `robotci config` shows).
    public var summary: String {
        var parts: [String] = []
        parts.append("retries " + (retries.map(String.init) ?? "(global)"))
        parts.append("test-timeout " + (testTimeout.map { "\(Self.seconds($0)) s" } ?? "(global)"))
        parts.append("retry-on " + (retryOn.map { "'\($0)'" } ?? "any failure"))
        return "match '\(match)': " + parts.joined(separator: ", ")
    }

    private static func seconds(_ s: Double) -> String {
        s == s.rounded() && abs(s) < 1e15 ? String(Int(s)) : String(s)
    }
}

/// The retries and timeout each test gets: the first rule whose `match` finds the test's id
/// (a repetition's: its test's id), else the global settings. The one place robotci asks
/// whether a failed attempt runs again.
public struct TestRules: Sendable {
    /// `--retries`.
    public let retries: Int
    /// `--test-timeout`.
    public let testTimeout: Double
    public let rules: [TestRule]
    private let compiled: [(match: NSRegularExpression, retryOn: NSRegularExpression?)]
    /// Deadlines learnt from history (`learningDeadlines`), by test id.
    private var learnt: [String: TestDeadline] = [:]
    /// Other engines' (`--browsers`), by browser, then test id: one engine's times are no
    /// deadline for another's.
    private var learntOnBrowser: [String: [String: TestDeadline]] = [:]

    /// Compiles `rules` (already checked when the configuration was read).
    public init(retries: Int, testTimeout: Double, rules: [TestRule] = []) throws {
        self.retries = retries
        self.testTimeout = testTimeout
        self.rules = rules
        compiled = try rules.map { rule in
            (try NSRegularExpression(pattern: rule.match), try rule.retryOn.map { try NSRegularExpression(pattern: $0) })
        }
    }

    /// The global settings alone (no rules).
    public init(retries: Int, testTimeout: Double = 300) {
        self.retries = retries
        self.testTimeout = testTimeout
        rules = []
        compiled = []
    }

    public init(_ config: RunConfiguration) throws {
        try self.init(retries: config.retries, testTimeout: config.testTimeout, rules: config.rules)
    }

    /// The index of the first rule for `test`, nil when none applies.
    public func ruleIndex(for test: TestID) -> Int? {
        let id = test.test
        let range = NSRange(id.startIndex..., in: id)
        return compiled.firstIndex { $0.match.firstMatch(in: id, range: range) != nil }
    }

    public func retries(for test: TestID) -> Int {
        ruleIndex(for: test).flatMap { rules[$0].retries } ?? retries
    }

    public func testTimeout(for test: TestID) -> Double { deadline(for: test).seconds }

    /// How long `test` may run, and which rule says so: its history's deadline where that is
    /// shorter, else its rule's `test-timeout`, else `--test-timeout` (the ceiling).
    public func deadline(for test: TestID) -> TestDeadline {
        let index = ruleIndex(for: test)
        let ceiling = index.flatMap { i in rules[i].testTimeout.map { TestDeadline(seconds: $0, rule: "rule \(i + 1)'s test-timeout") } }
            ?? TestDeadline(seconds: testTimeout, rule: "--test-timeout")
        let known = test.browser.map { learntOnBrowser[$0]?[test.test] } ?? learnt[test.test]
        guard let learnt = known, learnt.seconds < ceiling.seconds else { return ceiling }
        return learnt
    }

    /// These rules with deadlines from the durations of each test's earlier passing runs
    /// (seconds, newest last): `TestDeadline.fromHistory`.
    /// `browsers`: other engines' durations, by browser.
    public func learningDeadlines(from durations: [String: [Double]], browsers: [String: [String: [Double]]] = [:]) -> TestRules {
        var copy = self
        copy.learnt = durations.compactMapValues(TestDeadline.fromHistory)
        copy.learntOnBrowser = browsers.mapValues { $0.compactMapValues(TestDeadline.fromHistory) }
        return copy
    }

    /// Whether a failing `attempt` of `test` runs again: it has retries left, and its rule's
    /// `retry-on` (if any) finds one of its failure messages (a crash or a hang says
    /// "crashed: …" / "timed out: …").
    public func retries(_ test: TestID, after attempt: Attempt) -> Bool {
        guard attempt.outcome.isFailure else { return false }
        let index = ruleIndex(for: test)
        guard attempt.number <= (index.flatMap { rules[$0].retries } ?? retries) else { return false }
        guard let index, let retryOn = compiled[index].retryOn else { return true }
        let text = attempt.failures.map(\.message).joined(separator: "\n")
        return retryOn.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
    }
}

/// How long a test may run before its process group is killed, and the rule that says so
/// (named in the timed-out failure).
public struct TestDeadline: Sendable, Equatable {
    public var seconds: Double
    /// `--test-timeout`, `rule 2's test-timeout`, `history: 10 × p95 0.02 s of 12 runs, at least 10 s`.
    public var rule: String

    public init(seconds: Double, rule: String) {
        self.seconds = seconds
        self.rule = rule
    }

    /// A hang is found from history: `factor` × the p95 of the test's last passing runs,
    /// never under `floor` (a loaded machine, a cold cache), from at least `minRuns` runs.
    public static let factor = 10.0
    public static let floor = 10.0
    public static let minRuns = 5

    /// The deadline `durations` (the test's passing runs, seconds) give, nil with too few.
    public static func fromHistory(_ durations: [Double]) -> TestDeadline? {
        let sorted = durations.filter { $0.isFinite && $0 >= 0 }.sorted()
        guard sorted.count >= minRuns else { return nil }
        let p95 = sorted[min(sorted.count - 1, Int((Double(sorted.count) * 0.95).rounded(.up)) - 1)]
        let seconds = max(floor, factor * p95)
        return TestDeadline(seconds: seconds, rule: "history: \(Int(factor)) × p95 \(String(format: "%.2f", p95)) s of \(sorted.count) passing runs, at least \(Int(floor)) s; --test-timeout is the ceiling")
    }
}
