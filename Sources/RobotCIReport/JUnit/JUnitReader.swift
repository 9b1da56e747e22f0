import Foundation
import RobotCICore

/// Reads JUnit XML (from robotci or any other tool) into robotci's model, through libxml2.
///
/// `failure`/`error` → failed; `skipped` → skipped; Surefire's `flakyFailure` → failed
/// attempts followed by a passing one (flaky); `rerunFailure` → extra failed attempts.
public enum JUnitReader {
    public static func read(_ url: URL, machine: String?) throws -> [TestRecord] {
        try cases(url, machine: machine).map(\.record)
    }

    /// Every `<testcase>` of a JUnit file: a regular file of at most `RegularFile.junitLimit` bytes.
    public static func cases(_ url: URL, machine: String?) throws -> [Case] {
        let data: Data
        do { data = try RegularFile.read(url.path, limit: RegularFile.junitLimit, what: "JUnit file") } catch let e as RegularFileError {
            throw XMLError(e.message)
        }
        return try cases(data, name: url.path, machine: machine)
    }

    /// The longest duration a `time` attribute is taken for (a day); more is capped.
    public static let maxTestSeconds = 86_400.0

    public static func parse(_ data: Data, name: String, machine: String?) throws -> [TestRecord] {
        try cases(data, name: name, machine: machine).map(\.record)
    }

    /// One `<testcase>`, with the attributes a caller may match on, and its verdict as a record.
    public struct Case: Sendable {
        public var classname: String
        public var name: String
        public var file: String?
        /// The body of the first `<failure>`/`<error>` (often a traceback; `message` is in the record).
        public var failureText: String?
        public var record: TestRecord
    }

    /// Every `<testcase>` of the document, in document order.
    public static func cases(_ data: Data, name: String, machine: String?) throws -> [Case] {
        let tree = try XMLTree(data: data, name: name)
        guard let root = tree.root else { throw XMLError("\(name): no root element") }
        let suites: [XMLNodeRef]
        switch root.name {
        case "testsuites": suites = root.children.filter { $0.name == "testsuite" }
        case "testsuite": suites = [root]
        default: throw XMLError("\(name): not JUnit XML (root element is <\(root.name)>, expected <testsuites> or <testsuite>)")
        }
        var records: [Case] = []
        var clock = 0.0
        for suite in suites {
            for tc in allTestCases(in: suite) {
                let cls = tc.attribute("classname") ?? suite.attribute("name") ?? "unknown"
                let testName = tc.attribute("name") ?? "unnamed"
                // Double() also takes "inf", "nan", "1e999" and "-1", which are no durations
                // (an infinite one made results.json unwritable; found by fuzz/FuzzJUnitReader).
                // Nor is a time past `maxTestSeconds` (a day); the command driver caps it further
                // (the batch's own wall time), so timings.json cannot stretch a later batch budget.
                let duration = Double(tc.attribute("time") ?? "").flatMap { $0.isFinite && $0 > 0 ? min($0, maxTestSeconds) : nil } ?? 0
                let file = tc.attribute("file")
                let line = tc.attribute("line").flatMap(Int.init)
                let output = cut(tc.children.filter { $0.name == "system-out" || $0.name == "system-err" }.map(\.text).joined(separator: "\n"))
                var attempts: [Attempt] = []
                func attempt(_ outcome: AttemptOutcome, _ el: XMLNodeRef?) -> Attempt {
                    let message = cut(el.map { $0.attribute("message") ?? $0.text } ?? "")
                    let failures = el == nil ? [] : [FailureMessage(file: file, line: line, message: message.isEmpty ? outcome.rawValue : message)]
                    defer { clock += duration }
                    return Attempt(number: attempts.count + 1, outcome: outcome, duration: duration, start: clock,
                                   placement: .init(shard: 0, batch: 0, machine: machine),
                                   evidence: .init(failures: failures, output: output))
                }
                let kids = tc.children
                let firstFailure = kids.first { $0.name == "failure" || $0.name == "error" }
                let id = TestID(junitClassname: cls, name: testName)
                if let f = firstFailure, f.name == "error", f.attribute("type") == Outcome.notRun.rawValue {
                    // robotci's own JUnit: a planned test that has no result stays one.
                    var reason = f.attribute("message") ?? ""
                    if reason.hasPrefix("not run: ") { reason.removeFirst("not run: ".count) }
                    records.append(Case(classname: cls, name: testName, file: file, failureText: f.text,
                                        record: .notRun(id, reason: reason.isEmpty ? "no result" : reason)))
                    continue
                }
                if let f = firstFailure {
                    attempts.append(attempt(.failed, f))
                    for r in kids where r.name == "rerunFailure" || r.name == "rerunError" { attempts.append(attempt(.failed, r)) }
                } else if let s = kids.first(where: { $0.name == "skipped" }) {
                    attempts.append(attempt(.skipped, s))
                } else {
                    for f in kids where f.name == "flakyFailure" || f.name == "flakyError" { attempts.append(attempt(.failed, f)) }
                    attempts.append(attempt(.passed, nil))
                }
                records.append(Case(classname: cls, name: testName, file: file, failureText: firstFailure?.text,
                                    record: TestRecord(id: id, attempts: attempts)))
            }
        }
        return records
    }

    /// Most of a test's output or message kept: its first 16 KB and last 48 KB (the start says
    /// what the test did, the end holds the failure), as the runner keeps a batch's output.
    static let headBytes = 16 << 10
    static let tailBytes = 48 << 10

    /// `text`, or its head and tail with how much was left out between them.
    static func cut(_ text: String) -> String {
        let utf8 = text.utf8
        guard utf8.count > headBytes + tailBytes else { return text }
        let omitted = utf8.count - headBytes - tailBytes
        return String(decoding: utf8.prefix(headBytes), as: UTF8.self)
            + "\n… \(omitted) bytes omitted (the JUnit file has all of it) …\n"
            + String(decoding: utf8.suffix(tailBytes), as: UTF8.self)
    }

    /// Test cases of a suite, including those of nested suites.
    private static func allTestCases(in suite: XMLNodeRef) -> [XMLNodeRef] {
        suite.children.flatMap { child -> [XMLNodeRef] in
            if child.name == "testcase" { return [child] }
            if child.name == "testsuite" { return allTestCases(in: child) }
            return []
        }
    }
}
