/// A test's identity as XCTest names it: `Module.Class/testMethod`, and with `--repeat-each`
/// or `--until-failure`, which repetition of that test it is.
///
/// The test's own id is what `--list-tests` prints and what a test bundle accepts as a
/// filter, so it is kept verbatim; the parts are derived for reports. A repetition is typed
/// data (`repetition`), never read out of the text inside the program: a test whose own name
/// ends in ` (repeat 1 of 2)` is that test. `rawValue` is the text form that goes out
/// (results.json, JUnit, the journal, the queue, the console), `Module.Class/testFoo (repeat 2
/// of 5)` for a repetition; `parsing(_:)` and decoding read it back (`TestID+Repetition`).
public struct TestID: Hashable, Comparable, Codable, Sendable, CustomStringConvertible {
    /// The text form: the test's own id exactly as XCTest lists it, followed for a repetition
    /// by ` (repeat k of n)`.
    public let rawValue: String
    /// A repetition's test and which run of it this is; nil for a test's own id. Boxed, so an
    /// id is 24 bytes, not 56, in the plans, sets and dictionaries of runs without repetitions.
    private let repeated: Repeated?

    private final class Repeated: Sendable {
        let ownID: String
        let repetition: Repetition

        init(ownID: String, repetition: Repetition) {
            self.ownID = ownID
            self.repetition = repetition
        }
    }

    /// The test `rawValue` names, verbatim: a test's own id, never a repetition (listings and
    /// test output name tests this way; `parsing(_:)` reads text robotci wrote).
    public init(_ rawValue: String) {
        self.rawValue = rawValue
        self.repeated = nil
    }

    /// The `repetition` of the test whose own id is `ownID`.
    init(ownID: String, repetition: Repetition) {
        self.rawValue = "\(ownID) (repeat \(repetition.index) of \(repetition.count))"
        self.repeated = Repeated(ownID: ownID, repetition: repetition)
    }

    /// Which of the runs of its test this is (`--repeat-each`, `--until-failure`); nil for
    /// the test's own id.
    public var repetition: Repetition? { repeated?.repetition }

    /// The test this id runs: the id itself, or the test a repetition repeats.
    public var base: TestID { repeated.map { TestID($0.ownID) } ?? self }

    // A repetition and a test whose own name reads like it share their text, not their
    // identity. (One text and one repetition: one own id.)
    public static func == (lhs: TestID, rhs: TestID) -> Bool { lhs.rawValue == rhs.rawValue && lhs.repetition == rhs.repetition }
    public func hash(into hasher: inout Hasher) {
        hasher.combine(rawValue)
        hasher.combine(repetition)
    }

    /// `Module.Class` for `Module.Class/testMethod` (JUnit's `classname`).
    public var className: String {
        if let sep = pathSeparator { return String(rawValue[..<sep.lowerBound]) }
        guard let slash = suiteSlash else { return freeFunctionParts?.module ?? rawValue }
        return String(rawValue[..<slash])
    }

    /// The last `::` before any `[parameters]`: pytest's `tests/test_a.py::TestX::test_y[1/2]`
    /// (and other runners' node ids) split into `tests/test_a.py::TestX` and `test_y[1/2]`.
    private var pathSeparator: Range<String.Index>? {
        let head = rawValue[..<(rawValue.firstIndex(of: "[") ?? rawValue.endIndex)]
        // A Swift raw identifier may hold `::` (`` `a::b`() ``): not a node id.
        guard !head.contains("`"), let r = head.range(of: "::", options: .backwards), r.lowerBound > rawValue.startIndex else { return nil }
        return r
    }

    /// The `/` between the suite and the test: the last one outside a Swift raw identifier
    /// (`` `a/b` ``), and before the source location Swift Testing appends to an overloaded
    /// name (`M.S/check(_:)/File.swift:10:2` lists two overloads apart).
    private var suiteSlash: String.Index? {
        let end = swiftTestingLocation?.lowerBound ?? rawValue.endIndex
        return Self.lastOutsideBackticks("/", in: rawValue[..<end])
    }

    /// `/File.swift:10:2` at the end of a Swift Testing id (an overload's listed name).
    package var swiftTestingLocation: Range<String.Index>? {
        guard rawValue.last?.isNumber == true, let slash = Self.lastOutsideBackticks("/", in: rawValue[...]) else { return nil }
        let tail = rawValue[rawValue.index(after: slash)...]
        let parts = tail.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].hasSuffix(".swift"), parts[1...].allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
              slash > rawValue.startIndex, rawValue[rawValue.index(before: slash)] == ")" else { return nil }
        return slash..<rawValue.endIndex
    }

    /// `Module.function()`: a Swift Testing test outside any suite (its name may be a raw
    /// identifier: ``Module.`shows the banner`()``).
    private var freeFunctionParts: (module: String, name: String)? {
        let end = swiftTestingLocation?.lowerBound ?? rawValue.endIndex
        let head = rawValue[..<end]
        guard head.hasSuffix(")"), let paren = Self.firstOutsideBackticks("(", in: head),
              let dot = Self.lastOutsideBackticks(".", in: rawValue[..<paren]) else { return nil }
        return (String(rawValue[..<dot]), String(rawValue[rawValue.index(after: dot)...]))
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
        if let sep = pathSeparator { return String(rawValue[sep.upperBound...]) }
        guard let slash = suiteSlash else { return freeFunctionParts?.name ?? rawValue }
        return String(rawValue[rawValue.index(after: slash)...])
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
    /// A JUnit file is text coming in: a name ending in ` (repeat k of n)` is a repetition
    /// (`parsing(_:)`).
    public init(junitClassname classname: String, name: String) {
        func matching(_ c: String, _ n: String) -> TestID? {
            let slash = TestID(c + "/" + n), colons = TestID(c + "::" + n)
            let nodeStyle = c.contains("::") || TestID.isTestFilePath(c)
            return (nodeStyle ? [colons, slash] : [slash, colons]).first { $0.className == c && $0.name == n }
        }
        let fallback = TestID(classname + "/" + name)
        let text = matching(classname, name) ?? matching(fallback.className, fallback.name) ?? fallback
        self = .parsing(text.rawValue)
    }

    /// `tests/ui/test_login.py`, `login.robot`, `spec/login_spec.rb`: a file other runners name tests by.
    static func isTestFilePath(_ s: String) -> Bool {
        let last = s.split(separator: "/").last ?? Substring(s)
        guard let dot = last.lastIndex(of: ".") else { return false }
        let ext = last[last.index(after: dot)...]
        return ["py", "robot", "js", "mjs", "cjs", "ts", "rb", "feature", "go", "java", "kt", "cs", "php", "exs"].contains(String(ext))
    }

    public var description: String { rawValue }
    /// By text; of two ids with one text, the test's own id first.
    public static func < (lhs: TestID, rhs: TestID) -> Bool {
        lhs.rawValue != rhs.rawValue ? lhs.rawValue < rhs.rawValue : lhs.repetition == nil && rhs.repetition != nil
    }

    /// The id `rawValue` text names (`parsing(_:)`); a report read back settles test names
    /// that only look like repetitions (`RunResult.resolvingRepetitions`).
    public init(from decoder: Decoder) throws {
        self = .parsing(try decoder.singleValueContainer().decode(String.self))
    }
    public func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(rawValue)
    }
}
