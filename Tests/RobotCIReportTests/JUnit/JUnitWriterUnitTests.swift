import Foundation
import RobotCICore
@testable import RobotCIReport
import XCTest

/// `JUnitWriter` on its own, beside JUnitWriterTests (suites, counts, each verdict, escaping): source
/// locations, crash and timeout kinds, each failure's detail, flaky attempts with their own
/// output, repetitions, quarantine's edge cases, what XML cannot carry, and what `merge`
/// reads back (`JUnitReader`) from what robotci wrote.
final class JUnitWriterUnitTests: XCTestCase {
    private func attempt(_ n: Int, _ outcome: AttemptOutcome, _ failures: [FailureMessage] = [], output: String = "",
                         shard: Int = 0, duration: Double = 0.25) -> Attempt {
        Attempt(number: n, outcome: outcome, duration: duration, start: 0, placement: .init(shard: shard, batch: 0),
                evidence: .init(failures: failures, output: output))
    }

    private func fail(_ message: String, file: String? = nil, line: Int? = nil) -> FailureMessage {
        FailureMessage(file: file, line: line, message: message)
    }

    private func run(_ tests: [TestRecord], hostname: String? = nil) -> RunResult {
        var metadata = RunMetadata(runID: "r", startedAt: 1_700_000_000, wallTime: 3, shards: 1, retries: 1, robotciVersion: "t")
        metadata.hostname = hostname
        return RunResult(metadata: metadata, tests: tests, batches: [])
    }

    /// The written document, parsed back; `body` gets its root element (valid inside `body` only).
    private func written(_ tests: [TestRecord], _ body: (XMLNodeRef) throws -> Void) throws {
        let tree = try XMLTree(data: try JUnitWriter.render(run(tests)), name: "junit.xml")
        try withExtendedLifetime(tree) { try body(try XCTUnwrap(tree.root)) }
    }

    private func testcases(_ root: XMLNodeRef) -> [String: XMLNodeRef] {
        Dictionary(root.children.flatMap(\.children).map { ($0.attribute("name") ?? "", $0) }, uniquingKeysWith: { a, _ in a })
    }

    func testFileAndLineAreTheLatestAttemptsFirstLocatedFailure() throws {
        try written([
            TestRecord(id: TestID("M.C/testLocated"), attempts: [
                attempt(1, .failed, [fail("first", file: "/src/Old.swift", line: 3)]),
                attempt(2, .failed, [fail("no place"), fail("second", file: "/src/C.swift", line: 42)]),
            ]),
            TestRecord(id: TestID("M.C/testNowhere"), attempts: [attempt(1, .failed, [fail("thrown")])]),
        ]) { root in
            let cases = testcases(root)
            XCTAssertEqual(cases["testLocated"]?.attribute("file"), "/src/C.swift")
            XCTAssertEqual(cases["testLocated"]?.attribute("line"), "42")
            XCTAssertNil(cases["testNowhere"]?.attribute("file"))
            XCTAssertNil(cases["testNowhere"]?.attribute("line"))
        }
    }

    func testEachFailureElementSaysItsKindAndListsEveryFailureOfItsAttempt() throws {
        try written([
            TestRecord(id: TestID("M.C/testCrash"), attempts: [
                attempt(1, .failed, [fail("assert", file: "/src/C.swift", line: 7), fail("and another")], shard: 3),
                attempt(2, .crashed, [], output: "Fatal error\n", shard: 1),
            ]),
            TestRecord(id: TestID("M.C/testHang"), attempts: [attempt(1, .timedOut, [fail("timed out: still running after 30 s")])]),
        ]) { root in
            XCTAssertEqual(root.attribute("failures"), "2", "crashed and timed out are failures")
            XCTAssertEqual(root.attribute("errors"), "0")
            let cases = testcases(root)
            let crash = try XCTUnwrap(cases["testCrash"])
            XCTAssertEqual(crash.children.map(\.name), ["failure", "rerunFailure", "system-out"])
            let first = crash.children[0]
            XCTAssertEqual(first.attribute("type"), "failed")
            XCTAssertEqual(first.attribute("message"), "assert", "the first failure")
            XCTAssertEqual(first.text, "/src/C.swift:7: assert\nand another\nattempt 1 on shard 3, 0.250 s")
            let rerun = crash.children[1]
            XCTAssertEqual(rerun.attribute("type"), "crashed")
            XCTAssertEqual(rerun.attribute("message"), "crashed", "no failure message: the outcome says what happened")
            XCTAssertEqual(rerun.children.map(\.name), ["stackTrace", "system-out"])
            XCTAssertEqual(rerun.children[0].text, "attempt 2 on shard 1, 0.250 s")
            XCTAssertEqual(rerun.children[1].text, "Fatal error\n")

            let hang = try XCTUnwrap(cases["testHang"])
            XCTAssertEqual(hang.children.map(\.name), ["failure"])
            XCTAssertEqual(hang.children[0].attribute("type"), "timedOut")
        }
    }

    func testAFlakyTestKeepsEachFailedAttemptWithItsOwnOutput() throws {
        try written([
            TestRecord(id: TestID("M.C/testFlaky"), attempts: [
                attempt(1, .failed, [fail("first")], output: "try 1\n"),
                attempt(2, .timedOut, [fail("timed out")], output: "try 2\n"),
                attempt(3, .passed, output: "try 3\n", duration: 0.5),
            ]),
        ]) { root in
            XCTAssertEqual(root.attribute("failures"), "0", "flaky counts as passed")
            let flaky = try XCTUnwrap(testcases(root)["testFlaky"])
            XCTAssertEqual(flaky.attribute("time"), "0.500", "the passing attempt's time")
            XCTAssertEqual(flaky.children.map(\.name), ["flakyFailure", "flakyFailure", "system-out"])
            XCTAssertEqual(flaky.children.prefix(2).map { $0.attribute("type") }, ["failed", "timedOut"])
            XCTAssertEqual(flaky.children.prefix(2).map { $0.children.last?.text }, ["try 1\n", "try 2\n"])
            XCTAssertEqual(flaky.children[2].text, "try 3\n", "the test's own output is its last attempt's")
        }
    }

    func testEachRepetitionIsATestcaseOfItsTestsClass() throws {
        let ids = TestID.repeating([TestID("App.LoginTests/testSignIn")], count: 2)
        try written(ids.map { TestRecord(id: $0, attempts: [attempt(1, .passed)]) }) { root in
            XCTAssertEqual(root.children.map { $0.attribute("name") }, ["App.LoginTests"])
            XCTAssertEqual(root.children.first?.children.map { $0.attribute("name") },
                           ["testSignIn (repeat 1 of 2)", "testSignIn (repeat 2 of 2)"])
        }
    }

    /// JUnit is text for people and CI: read back, a repetition's name is a test's own name
    /// (robotci's own files keep the identity as data).
    func testARepetitionReadsBackFromJUnitAsText() throws {
        let ids = TestID.repeating([TestID("App.LoginTests/testSignIn"), TestID("Mod.Suite/check()")], count: 2)
        let data = try JUnitWriter.render(run(ids.map { TestRecord(id: $0, attempts: [attempt(1, .passed)]) }))
        let back = try JUnitReader.parse(data, name: "junit.xml", machine: nil).map(\.id)
        XCTAssertEqual(Set(back.map(\.description)), Set(ids.map(\.description)))
        XCTAssertTrue(back.allSatisfy { $0.repetition == nil })
    }

    func testQuarantineOnlyHidesFailuresAndANotRunTestStaysAnError() throws {
        try written([
            TestRecord(id: TestID("M.C/testQuarantinedPasses"), attempts: [attempt(1, .passed)], quarantined: true),
            TestRecord(id: TestID("M.C/testQuarantinedFails"), attempts: [attempt(1, .failed, [fail("known bug")])], quarantined: true),
            TestRecord.notRun(TestID("M.C/testQuarantinedNotRun"), reason: "its batch died", quarantined: true),
        ]) { root in
            XCTAssertEqual(root.attribute("tests"), "3")
            XCTAssertEqual(root.attribute("skipped"), "1", "only the failing quarantined test is skipped")
            XCTAssertEqual(root.attribute("errors"), "1", "a test that did not run is never hidden")
            let cases = testcases(root)
            XCTAssertEqual(cases["testQuarantinedPasses"]?.children.map(\.name), [])
            XCTAssertEqual(cases["testQuarantinedFails"]?.children.map(\.name), ["skipped"])
            XCTAssertEqual(cases["testQuarantinedNotRun"]?.children.first?.attribute("type"), "notRun")
        }
    }

    func testAnEmptyRunIsAnEmptyTestsuites() throws {
        try written([]) { root in
            XCTAssertEqual(root.name, "testsuites")
            XCTAssertEqual(root.attribute("tests"), "0")
            XCTAssertEqual(root.children.count, 0)
        }
    }

    func testOnlyWhatXMLCannotCarryIsReplacedAndMadeVisible() {
        XCTAssertEqual(XMLWriter.sanitize("tab\tnewline\ncr\r"), "tab\tnewline\ncr\r", "XML carries these")
        XCTAssertEqual(XMLWriter.sanitize("é ✓ 🤖 \u{D7FF} \u{E000} \u{FFFD}"), "é ✓ 🤖 \u{D7FF} \u{E000} \u{FFFD}")
        XCTAssertEqual(XMLWriter.sanitize("nul\u{0} bell\u{7} esc\u{1B} us\u{1F}"), "nul\\u{0} bell\\u{7} esc\\u{1b} us\\u{1f}")
        XCTAssertEqual(XMLWriter.sanitize("\u{FFFE}\u{FFFF}"), "\\u{fffe}\\u{ffff}")
        XCTAssertEqual(XMLWriter.sanitize("del\u{7F} c1\u{85}"), "del\u{7F} c1\u{85}", "allowed in XML 1.0 documents")
    }

    func testAControlCharacterInAClassNameKeepsTheFileReadable() throws {
        try written([TestRecord(id: TestID("M.Bad\u{1}Class/testX"), attempts: [attempt(1, .passed)])]) { root in
            XCTAssertEqual(root.children.first?.attribute("name"), "M.Bad\\u{1}Class")
            XCTAssertEqual(root.children.first?.children.first?.attribute("classname"), "M.Bad\\u{1}Class")
        }
    }

    func testWhatRobotCIWritesReadsBackAsTheSameTestsAndVerdicts() throws {
        let result = run([
            TestRecord(id: TestID("M.C/testPass"), attempts: [attempt(1, .passed)]),
            TestRecord(id: TestID("M.C/testFail"), attempts: [attempt(1, .failed, [fail("one")]), attempt(2, .failed, [fail("two")])]),
            TestRecord(id: TestID("M.C/testFlaky"), attempts: [attempt(1, .failed, [fail("one")]), attempt(2, .passed)]),
            TestRecord(id: TestID("M.C/testSkip"), attempts: [attempt(1, .skipped, [fail("not here")])]),
            TestRecord.notRun(TestID("M.C/testGone"), reason: "partition 2/3 is missing"),
            TestRecord(id: TestID("tests/test_a.py::TestX::test_y[1/2]"), attempts: [attempt(1, .passed)]),
        ], hostname: "ci-1")
        let back = try JUnitReader.parse(try JUnitWriter.render(result), name: "junit.xml", machine: "m")
        let byID = Dictionary(uniqueKeysWithValues: back.map { ($0.id, $0) })
        XCTAssertEqual(Set(byID.keys), Set(result.tests.map(\.id)), "every id reads back as itself")
        for test in result.tests {
            XCTAssertEqual(byID[test.id]?.outcome, test.outcome, "\(test.id)")
            XCTAssertEqual(byID[test.id]?.attempts.count, test.attempts.count, "\(test.id)")
        }
        XCTAssertEqual(byID[TestID("M.C/testGone")]?.reason, "partition 2/3 is missing")
        XCTAssertEqual(byID[TestID("M.C/testFail")]?.attempts.map { $0.failures.first?.message }, ["one", "two"])
    }
}
