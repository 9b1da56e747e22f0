import Foundation
import RobotCICore

/// Reads JUnit XML (from robotci or any other tool) into robotci's model, through libxml2.
///
/// `failure`/`error` → failed; `skipped` → skipped; Surefire's `flakyFailure` → failed
/// attempts followed by a passing one (flaky); `rerunFailure` → extra failed attempts.
public enum JUnitReader {
    public static func read(_ url: URL, machine: String?) throws -> [TestRecord] {
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw XMLError("\(url.path): cannot read: \(error.localizedDescription)")
        }
        return try parse(data, name: url.path, machine: machine)
    }

    public static func parse(_ data: Data, name: String, machine: String?) throws -> [TestRecord] {
        let tree = try XMLTree(data: data, name: name)
        guard let root = tree.root else { throw XMLError("\(name): no root element") }
        let suites: [XMLNodeRef]
        switch root.name {
        case "testsuites": suites = root.children.filter { $0.name == "testsuite" }
        case "testsuite": suites = [root]
        default: throw XMLError("\(name): not JUnit XML (root element is <\(root.name)>, expected <testsuites> or <testsuite>)")
        }
        var records: [TestRecord] = []
        var clock = 0.0
        for suite in suites {
            for tc in allTestCases(in: suite) {
                let cls = tc.attribute("classname") ?? suite.attribute("name") ?? "unknown"
                let testName = tc.attribute("name") ?? "unnamed"
                let duration = Double(tc.attribute("time") ?? "") ?? 0
                let file = tc.attribute("file")
                let line = tc.attribute("line").flatMap(Int.init)
                let output = tc.children.first { $0.name == "system-out" }?.text ?? ""
                var attempts: [Attempt] = []
                func attempt(_ outcome: AttemptOutcome, _ el: XMLNodeRef?) -> Attempt {
                    let message = el.map { $0.attribute("message") ?? $0.text } ?? ""
                    let failures = el == nil ? [] : [FailureMessage(file: file, line: line, message: message.isEmpty ? outcome.rawValue : message)]
                    defer { clock += duration }
                    return Attempt(number: attempts.count + 1, outcome: outcome, duration: duration, start: clock,
                                   worker: 0, batch: 0, machine: machine, failures: failures, output: output)
                }
                let kids = tc.children
                if let f = kids.first(where: { $0.name == "failure" || $0.name == "error" }) {
                    attempts.append(attempt(.failed, f))
                    for r in kids where r.name == "rerunFailure" || r.name == "rerunError" { attempts.append(attempt(.failed, r)) }
                } else if let s = kids.first(where: { $0.name == "skipped" }) {
                    attempts.append(attempt(.skipped, s))
                } else {
                    for f in kids where f.name == "flakyFailure" || f.name == "flakyError" { attempts.append(attempt(.failed, f)) }
                    attempts.append(attempt(.passed, nil))
                }
                records.append(TestRecord(id: TestID("\(cls)/\(testName)"), attempts: attempts))
            }
        }
        return records
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
