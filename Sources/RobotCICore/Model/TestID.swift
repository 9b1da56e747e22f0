/// A test's identity: the test (`Module.Class/testMethod`, as its framework lists it), which
/// repetition of it this is (`--repeat-each`, `--until-failure`) and which browser engine runs
/// it (nil: the default engine).
///
/// The three are data in every stored format (results.json, the journal, the queue), written
/// as `{"test": …, "repetition": {"index": k, "count": n}, "browser": …}`: a test whose own name
/// ends in ` (repeat 1 of 2)` is that test, whatever its text. The text form, `description`
/// (`Module.Class/testFoo (repeat 2 of 5) [webkit]`), exists only where a person or JUnit
/// reads it, and is never read back as an identity.
public struct TestID: Hashable, Comparable, Codable, Sendable, CustomStringConvertible {
    /// The test's own id, exactly as its framework lists it and accepts as a filter.
    public let test: String
    /// A repetition or a browser; nil for the test's own id on the default engine. Boxed, so an
    /// id is 24 bytes, not 56, in the plans, sets and dictionaries of plain runs.
    private let variant: Variant?

    private final class Variant: Sendable {
        let repetition: Repetition?
        let browser: String?

        init(repetition: Repetition?, browser: String?) {
            self.repetition = repetition
            self.browser = browser
        }
    }

    /// The test `test` names, verbatim, on the default engine: listings and test output name
    /// tests this way.
    public init(_ test: String) {
        self.test = test
        self.variant = nil
    }

    /// `repetition` of `test` on `browser` (nil: the default engine).
    public init(_ test: String, repetition: Repetition?, browser: String? = nil) {
        self.test = test
        self.variant = repetition == nil && browser == nil ? nil : Variant(repetition: repetition, browser: browser)
    }

    /// Which of the runs of its test this is (`--repeat-each`, `--until-failure`); nil for
    /// the test's own id.
    public var repetition: Repetition? { variant?.repetition }

    /// The browser engine that runs this test (`--browsers`); nil for the default engine.
    public var browser: String? { variant?.browser }

    /// The same test on the same browser, not as a repetition: what a repetition runs, what
    /// `timings.json`, the history and `--last-failed` know it by.
    public var unrepeated: TestID { repetition == nil ? self : TestID(test, repetition: nil, browser: browser) }

    /// The same repetition and browser of the test named `test` (`SecretRedactor` masks names).
    public func renamed(_ test: String) -> TestID { TestID(test, repetition: repetition, browser: browser) }

    public static func == (lhs: TestID, rhs: TestID) -> Bool {
        lhs.test == rhs.test && lhs.repetition == rhs.repetition && lhs.browser == rhs.browser
    }
    public func hash(into hasher: inout Hasher) {
        hasher.combine(test)
        hasher.combine(repetition)
        hasher.combine(browser)
    }

    /// What the text form adds to the test's own id: ` (repeat k of n)`, then ` [browser]`.
    public var variantText: String {
        var text = ""
        if let r = repetition { text += " (repeat \(r.index) of \(r.count))" }
        if let browser { text += " [\(browser)]" }
        return text
    }

    /// `Module.Class` for `Module.Class/testMethod` (JUnit's `classname`), from the test's own id.
    public var className: String {
        if let sep = pathSeparator { return String(test[..<sep.lowerBound]) }
        guard let slash = suiteSlash else { return freeFunctionParts?.module ?? test }
        return String(test[..<slash])
    }

    /// The last `::` before any `[parameters]`: pytest's `tests/test_a.py::TestX::test_y[1/2]`
    /// (and other runners' node ids) split into `tests/test_a.py::TestX` and `test_y[1/2]`.
    private var pathSeparator: Range<String.Index>? {
        let head = test[..<(test.firstIndex(of: "[") ?? test.endIndex)]
        // A Swift raw identifier may hold `::` (`` `a::b`() ``): not a node id.
        guard !head.contains("`"), let r = head.range(of: "::", options: .backwards), r.lowerBound > test.startIndex else { return nil }
        return r
    }

    /// The `/` between the suite and the test: the last one outside a Swift raw identifier
    /// (`` `a/b` ``), and before the source location Swift Testing appends to an overloaded
    /// name (`M.S/check(_:)/File.swift:10:2` lists two overloads apart).
    private var suiteSlash: String.Index? {
        let end = swiftTestingLocation?.lowerBound ?? test.endIndex
        return Self.lastOutsideBackticks("/", in: test[..<end])
    }

    /// `/File.swift:10:2` at the end of a Swift Testing id (an overload's listed name).
    package var swiftTestingLocation: Range<String.Index>? {
        guard test.last?.isNumber == true, let slash = Self.lastOutsideBackticks("/", in: test[...]) else { return nil }
        let tail = test[test.index(after: slash)...]
        let parts = tail.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].hasSuffix(".swift"), parts[1...].allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
              slash > test.startIndex, test[test.index(before: slash)] == ")" else { return nil }
        return slash..<test.endIndex
    }

    /// `Module.function()`: a Swift Testing test outside any suite (its name may be a raw
    /// identifier: ``Module.`shows the banner`()``).
    private var freeFunctionParts: (module: String, name: String)? {
        let end = swiftTestingLocation?.lowerBound ?? test.endIndex
        let head = test[..<end]
        guard head.hasSuffix(")"), let paren = Self.firstOutsideBackticks("(", in: head),
              let dot = Self.lastOutsideBackticks(".", in: test[..<paren]) else { return nil }
        return (String(test[..<dot]), String(test[test.index(after: dot)...]))
    }

    /// The last `character` in `text` that is not inside a backtick-quoted raw identifier.
    package static func lastOutsideBackticks(_ character: Character, in text: Substring) -> String.Index? {
        var found: String.Index?
        forEachOutsideBackticks(in: text) { i in
            if text[i] == character { found = i }
            return true
        }
        return found
    }

    /// The first `character` in `text` that is not inside a backtick-quoted raw identifier.
    package static func firstOutsideBackticks(_ character: Character, in text: Substring) -> String.Index? {
        var found: String.Index?
        forEachOutsideBackticks(in: text) { i in
            if text[i] == character { found = i; return false }
            return true
        }
        return found
    }

    /// Calls `body` with each index of `text` outside a backtick pair, until it returns false.
    /// A backtick with no partner after it quotes nothing (it is a literal character), so a
    /// stray backtick in a JUnit classname cannot hide the `/` after it: every id then splits
    /// the same way however it was put together.
    private static func forEachOutsideBackticks(in text: Substring, _ body: (String.Index) -> Bool) {
        let lastBacktick = text.lastIndex(of: "`")
        var quoted = false
        for i in text.indices {
            if text[i] == "`", quoted || i != lastBacktick {
                quoted.toggle()
                continue
            }
            if !quoted, !body(i) { return }
        }
    }

    /// `testMethod` for `Module.Class/testMethod` (JUnit's `name`).
    public var name: String {
        if let sep = pathSeparator { return String(test[sep.upperBound...]) }
        guard let slash = suiteSlash else { return freeFunctionParts?.name ?? test }
        return String(test[test.index(after: slash)...])
    }

    /// `Class.testMethod`, the form XCTest's Linux output uses in `Test Case '…'` lines.
    public var outputName: String {
        let cls = className
        let shortClass = cls.lastIndex(of: ".").map { String(cls[cls.index(after: $0)...]) } ?? cls
        return "\(shortClass).\(name)"
    }

    /// The id for a JUnit `<testcase classname= name=>`: one whose `className` and `name` are
    /// exactly those two, so what robotci writes reads back as the same id. `class/name` for
    /// XCTest-style names, `class::name` for node ids (a classname with `::`, or a test file:
    /// pytest's `tests/test_a.py::TestX` + `test_y`). When neither splits back (a name holding
    /// `::` or `/`), the id is the one that `class/name` splits into, which is stable from then on.
    /// A JUnit file is text: a name ending in ` (repeat k of n)` is that test's own name.
    public init(junitClassname classname: String, name: String) {
        func matching(_ c: String, _ n: String) -> TestID? {
            let slash = TestID(c + "/" + n), colons = TestID(c + "::" + n)
            let nodeStyle = c.contains("::") || TestID.isTestFilePath(c)
            return (nodeStyle ? [colons, slash] : [slash, colons]).first { $0.className == c && $0.name == n }
        }
        let fallback = TestID(classname + "/" + name)
        let text = matching(classname, name) ?? matching(fallback.className, fallback.name) ?? fallback
        self = text
    }

    /// `tests/ui/test_login.py`, `login.robot`, `spec/login_spec.rb`: a file other runners name tests by.
    static func isTestFilePath(_ s: String) -> Bool {
        let last = s.split(separator: "/").last ?? Substring(s)
        guard let dot = last.lastIndex(of: ".") else { return false }
        let ext = last[last.index(after: dot)...]
        return ["py", "robot", "js", "mjs", "cjs", "ts", "rb", "feature", "go", "java", "kt", "cs", "php", "exs"].contains(String(ext))
    }

    /// The text form, for people and JUnit: `Module.Class/testFoo (repeat 2 of 5) [webkit]`.
    public var description: String { variant == nil ? test : test + variantText }

    /// By test, then browser (the default first), then repetition (the test's own id first):
    /// every machine orders a plan the same way.
    public static func < (lhs: TestID, rhs: TestID) -> Bool {
        if lhs.test != rhs.test { return lhs.test < rhs.test }
        if lhs.browser != rhs.browser { return (lhs.browser ?? "") < (rhs.browser ?? "") }
        return (lhs.repetition?.index ?? 0, lhs.repetition?.count ?? 0) < (rhs.repetition?.index ?? 0, rhs.repetition?.count ?? 0)
    }

    private enum CodingKeys: String, CodingKey { case test, repetition, browser }

    /// `decoder.userInfo[TestID.textForm] == true`: the id is the text of a file written before
    /// identities were structure (results format v2, `ReportReader`), read verbatim as the
    /// test's own id; the reader then settles repetitions from the run's metadata.
    public static let textForm: CodingUserInfoKey = {
        // A constant, non-empty key: the initializer fails for no such text.
        guard let key = CodingUserInfoKey(rawValue: "robotci.testID.textForm") else { preconditionFailure("CodingUserInfoKey refused a constant") }
        return key
    }()

    public init(from decoder: Decoder) throws {
        if decoder.userInfo[Self.textForm] as? Bool == true {
            self.init(try decoder.singleValueContainer().decode(String.self))
            return
        }
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let test = try c.decode(String.self, forKey: .test)
        let browser = try c.decodeIfPresent(String.self, forKey: .browser)
        if let browser, !Self.isBrowserName(browser) {
            throw DecodingError.dataCorruptedError(forKey: .browser, in: c, debugDescription: "not a browser engine name: '\(browser)'")
        }
        self.init(test, repetition: try c.decodeIfPresent(Repetition.self, forKey: .repetition), browser: browser)
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(test, forKey: .test)
        try c.encodeIfPresent(repetition, forKey: .repetition)
        try c.encodeIfPresent(browser, forKey: .browser)
    }

    /// `chromium`, `webkit`, `firefox-beta`: lowercase letters, digits and `-`, at most 32, so a
    /// name from a hostile file cannot smuggle text into the report's or the console's lines.
    public static func isBrowserName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= 32 && name.utf8.allSatisfy { (97...122).contains($0) || (48...57).contains($0) || $0 == 45 }
    }
}
