@testable import RobotCIReport
@testable import RobotCIRunner
import RobotCICore
import XCTest

/// The command driver's pure parts: quoting, list parsing, JUnit ↔ id matching, config keys.
final class CommandDriverTests: XCTestCase {
    func testQuotingSurvivesTheShell() throws {
        let ids = ["tests/a.py::test_x[it's]", "tests/a.py::test_y[$HOME `x` \"q\"]", "plain"]
        var config = RunConfiguration(shards: 1)
        config.driver = .command
        config.listCommand = "true"
        config.runCommand = "printf '%s\\n' {tests} > {junit}"
        let driver = CommandDriver(config: config)
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("robotci-quote-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: out) }
        let (exe, args) = driver.command(for: ids.map(TestID.init), junit: out.path)
        let (termination, _) = try runCaptured(exe, args)
        XCTAssertEqual(termination, .exited(0))
        XCTAssertEqual(try String(contentsOf: out, encoding: .utf8), ids.joined(separator: "\n") + "\n")
    }

    func testSeparatorJoinsQuotedIDs() {
        var config = RunConfiguration(shards: 1)
        config.runCommand = "run {tests} --junit {junit}"
        config.testSeparator = ","
        let (_, args) = CommandDriver(config: config).command(for: [TestID("a"), TestID("b")], junit: "/tmp/j.xml")
        XCTAssertEqual(args, ["-c", "run 'a','b' --junit '/tmp/j.xml'"])
    }

    func testListStopsAtTheFirstEmptyLineAndDropsDuplicates() {
        let output = "\n  tests/a.py::test_1\ntests/a.py::test_2\ntests/a.py::test_1\n\n3 tests collected in 0.01s\n"
        XCTAssertEqual(CommandDriver.parseList(output).map(\.test), ["tests/a.py::test_1", "tests/a.py::test_2"])
        XCTAssertEqual(CommandDriver.parseList(""), [])
    }

    private func junitCases(_ xml: String) throws -> [JUnitReader.Case] {
        try JUnitReader.cases(Data(xml.utf8), name: "t.xml", machine: nil)
    }

    func testPytestCasesMatchListedNodeIDs() throws {
        let cases = try junitCases("""
        <testsuites><testsuite name="pytest">
          <testcase classname="tests.ui.test_login.TestLogin" name="test_ok[1]" time="0.5"/>
          <testcase classname="tests.other.test_login" name="test_ok[1]" time="0.1"><failure message="assert 1 == 2">tests/other/test_login.py:12: AssertionError</failure></testcase>
          <testcase classname="tests.ui.test_login" name="test_skip"><skipped message="no"/></testcase>
          <testcase classname="x" name="not_listed"/>
        </testsuite></testsuites>
        """)
        let ids = ["tests/other/test_login.py::test_ok[1]", "tests/ui/test_login.py::TestLogin::test_ok[1]",
                   "tests/ui/test_login.py::test_skip", "tests/ui/test_login.py::test_unanswered"].map(TestID.init)
        let (matched, unknown) = JUnitMatcher.match(cases, to: ids)
        let byID = Dictionary(uniqueKeysWithValues: matched.map { ($0.0.description, $0.1) })
        XCTAssertEqual(byID["tests/ui/test_login.py::TestLogin::test_ok[1]"]?.classname, "tests.ui.test_login.TestLogin")
        XCTAssertEqual(byID["tests/other/test_login.py::test_ok[1]"]?.record.attempts.first?.outcome, .failed)
        XCTAssertEqual(byID["tests/ui/test_login.py::test_skip"]?.record.attempts.first?.outcome, .skipped)
        XCTAssertNil(byID["tests/ui/test_login.py::test_unanswered"])
        XCTAssertEqual(unknown.map(\.name), ["not_listed"])
        XCTAssertEqual(byID["tests/other/test_login.py::test_ok[1]"]?.failureText, "tests/other/test_login.py:12: AssertionError")
    }

    func testNameMustEndAtASeparator() {
        XCTAssertTrue(JUnitMatcher.endsWithName("a.py::test_x", "test_x"))
        XCTAssertTrue(JUnitMatcher.endsWithName("test_x", "test_x"))
        XCTAssertFalse(JUnitMatcher.endsWithName("a.py::my_test_x", "test_x"))
        XCTAssertFalse(JUnitMatcher.endsWithName("a.py::test_x", ""))
    }

    func testTracebackLocationIsTheLastFileLine() {
        let text = "def test_x():\n>       assert 1 == 2\nE       assert 1 == 2\n\ntests/helpers.py:3: in check\n    x()\ntests/ui/test_a.py:12: AssertionError"
        XCTAssertEqual(tracebackLocation(text)?.file, "tests/ui/test_a.py")
        XCTAssertEqual(tracebackLocation(text)?.line, 12)
        XCTAssertNil(tracebackLocation("no location here"))
    }

    func testConfigKeysAndTheirErrors() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("robotci-cfg-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("robotci.yml")
        try "driver: command\nlist: pytest --collect-only -q\nrun: pytest {tests} --junitxml={junit}\ntest_separator: ','\n".write(to: file, atomically: true, encoding: .utf8)
        var c = RunConfiguration(shards: 1)
        try ConfigLoader.apply([try ConfigLoader.readYAML(at: file.path)], to: &c)
        XCTAssertNoThrow(try ConfigLoader.validate(c))
        XCTAssertEqual(c.driver, .command)
        XCTAssertEqual(c.testSeparator, ",")

        try "driver: command\nrun: pytest {tests}\n".write(to: file, atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try ConfigLoader.apply([try ConfigLoader.readYAML(at: file.path)], to: &c)) { error in
            XCTAssertTrue("\(error)".contains("robotci.yml:2") && "\(error)".contains("{junit}"), "\(error)")
        }
        var missing = RunConfiguration(shards: 1)
        missing.driver = .command
        missing.runCommand = "x {tests} {junit}"
        XCTAssertThrowsError(try ConfigLoader.validate(missing)) { XCTAssertTrue("\($0)".contains("'list'"), "\($0)") }

        try "driver: nose\n".write(to: file, atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try ConfigLoader.apply([try ConfigLoader.readYAML(at: file.path)], to: &c)) { error in
            XCTAssertTrue("\(error)".contains("'driver' must be swift") && "\(error)".contains("nose"), "\(error)")
        }
    }

    func testBatchBudgetIsHistoryPlusOneTimeoutAndATimeoutPerUnknownTest() {
        let ids = ["a", "b", "c"].map(TestID.init)
        var history = Timings()
        XCTAssertEqual(CommandDriver.budget(for: ids, history: history, testTimeout: 10), 30, "no history: a timeout each")
        history.tests = ["a": 1, "b": 2, "c": 3]
        XCTAssertEqual(CommandDriver.budget(for: ids, history: history, testTimeout: 10), 16, "history + one timeout of slack")
        history.tests = ["a": 1]
        XCTAssertEqual(CommandDriver.budget(for: ids, history: history, testTimeout: 10), 31)
        XCTAssertEqual(CommandDriver.budget(for: [TestID("a")], history: history, testTimeout: 10), 10, "alone: the test timeout")
    }

    /// Before: a timings.json (or JUnit) saying `time="3600000"` made the budget 1000 hours,
    /// so a hung batch was never killed. Each remembered duration now counts for one timeout at most.
    func testInflatedHistoryCannotStretchTheBudget() {
        let ids = ["a", "b", "c"].map(TestID.init)
        var history = Timings()
        history.tests = ["a": 3_600_000, "b": 2, "c": 86_400]
        XCTAssertEqual(CommandDriver.budget(for: ids, history: history, testTimeout: 10), 32)
    }
}
