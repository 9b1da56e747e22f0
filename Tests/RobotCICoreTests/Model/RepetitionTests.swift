import Foundation
import RobotCICore
import XCTest

/// `--repeat-each`: a repetition is a test id of its own that still names its test.
final class RepetitionTests: XCTestCase {
    func testARepetitionNamesItsTestAndSplitsLikeIt() throws {
        for raw in ["App.LoginTests/testSignIn", "Mod.Suite/flaky()", "Mod.freeFunction()", "tests/test_a.py::TestX::test_y[1/2]"] {
            let test = TestID(raw)
            let second = test.repetition(2, of: 5)
            XCTAssertEqual(second.description, raw + " (repeat 2 of 5)")
            let parsed = try XCTUnwrap(second.repetition, raw)
            XCTAssertEqual(parsed.index, 2)
            XCTAssertEqual(parsed.count, 5)
            XCTAssertEqual(second.unrepeated, test)
            XCTAssertEqual(second.className, test.className, "the JUnit classname is the test's")
            XCTAssertEqual(second.name + second.variantText, test.name + " (repeat 2 of 5)", "the JUnit name tells repetitions apart")
            // JUnit text is read as the test's own name, never as a repetition.
            XCTAssertNil(TestID(junitClassname: second.className, name: second.name + second.variantText).repetition, raw)
        }
    }

    func testTheBaseOfARepetitionIsItsTestsOwnID() {
        let test = TestID("M.C/testFoo"), third = test.repetition(3, of: 4)
        XCTAssertEqual(third.unrepeated, test)
        XCTAssertNil(third.unrepeated.repetition)
        XCTAssertEqual(third.repetition, TestID.Repetition(index: 3, count: 4))
        XCTAssertEqual(test.unrepeated, test, "a test's own id is its own base")
        XCTAssertEqual(third.repetition(1, of: 4), test.repetition(1, of: 4), "a repetition's repetition is of its test")
        XCTAssertNotEqual(third, test.repetition(3, of: 5))
        XCTAssertEqual(Set([third, test.repetition(3, of: 4), test]).count, 2)
    }

    /// A test whose own name ends like a repetition is that test inside the program: it runs
    /// under its own name, and nothing takes it for another test's repetition.
    func testATestNamedLikeARepetitionIsItsOwnTest() {
        let named = TestID("M.C/x (repeat 1 of 2)"), repetition = TestID("M.C/x").repetition(1, of: 2)
        XCTAssertEqual(named.description, repetition.description, "the same text goes out")
        XCTAssertNil(named.repetition)
        XCTAssertEqual(named.unrepeated, named)
        XCTAssertNotEqual(named, repetition)
        XCTAssertEqual(Set([named, repetition]).count, 2)
        XCTAssertEqual([named, repetition].sorted(), [repetition, named], "ordered by the test, not by the text")
        // Repeated, it is the repetition of itself, and that text reads back unambiguously.
        let repeated = named.repetition(2, of: 3)
        XCTAssertEqual(repeated.description, "M.C/x (repeat 1 of 2) (repeat 2 of 3)")
        XCTAssertEqual(repeated.unrepeated, named)
        // Planned beside the test it looks like a repetition of, both are accounted for.
        var assembly = RunAssembly(plan: RunPlan(tests: [named, TestID("M.C/x")]))
        XCTAssertTrue(assembly.add(named, quarantined: false, attempt: attempt(.failed)))
        XCTAssertTrue(assembly.add(TestID("M.C/x"), quarantined: false, attempt: attempt(.passed)))
        XCTAssertFalse(assembly.add(repetition, quarantined: false, attempt: attempt(.passed)), "no repetition was planned")
        let result = assembly.result(metadata: metadata()) { _ in "never ran" }
        XCTAssertEqual(result.tests.map(\.id), [TestID("M.C/x"), named])
        XCTAssertEqual(result.tests.map(\.outcome), [.passed, .failed])
        XCTAssertTrue(result.accounting.isComplete, result.accounting.description)
        XCTAssertEqual(result.accounting.planned, 2)
    }

    /// Ids go out as structure and come back as such: JSON (results.json, the journal, the queue).
    func testARepetitionRoundTripsThroughJSONAndTheJournal() throws {
        let ids = [TestID("M.C/a").repetition(2, of: 5), TestID("Mod.free()").repetition(1, of: 2), TestID("M.C/a")]
        let text = try JSONEncoder().encode(ids)
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: text) as? [[String: Any]])
        XCTAssertEqual(json.map { $0["test"] as? String }, ["M.C/a", "Mod.free()", "M.C/a"])
        XCTAssertEqual(json.map { ($0["repetition"] as? [String: Int])?["index"] }, [2, 1, nil])
        XCTAssertEqual(try JSONDecoder().decode([TestID].self, from: text), ids)
        let entry = JournalEntry.attempt(test: ids[0], quarantined: false, attempt: attempt(.passed))
        XCTAssertEqual(try JSONDecoder().decode(JournalEntry.self, from: JSONEncoder().encode(entry)), entry)
        let plan = RunPlan(tests: ids)
        XCTAssertEqual(try JSONDecoder().decode(RunPlan.self, from: JSONEncoder().encode(plan)), plan)
        // A test named like a repetition, or run on a browser, reads back as itself.
        let named = [TestID("M.C/x (repeat 1 of 2)"), TestID("M.C/x(repeat 1 of 2)", repetition: .init(index: 1, count: 2), browser: "webkit")]
        XCTAssertEqual(try JSONDecoder().decode([TestID].self, from: JSONEncoder().encode(named)), named)
        let journal = JournalEntry.attempt(test: named[1], quarantined: false, attempt: attempt(.failed))
        XCTAssertEqual(try JSONDecoder().decode(JournalEntry.self, from: JSONEncoder().encode(journal)), journal)
        XCTAssertEqual(named[1].description, "M.C/x(repeat 1 of 2) (repeat 1 of 2) [webkit]")
    }

    /// Hostile ids fail as data errors: a browser that is no engine name, a repetition out of range.
    func testAHostileIDFailsToDecode() {
        for bad in [#"{"test":"a","browser":"web kit\n"}"#, #"{"test":"a","repetition":{"index":3,"count":2}}"#,
                    #"{"test":"a","repetition":{"index":0,"count":2}}"#, #""M.C/a""#, #"{"browser":"webkit"}"#] {
            XCTAssertThrowsError(try JSONDecoder().decode(TestID.self, from: Data(bad.utf8)), bad)
        }
    }

    func testRepeatingGoesRepetitionByRepetition() {
        let tests = [TestID("M.C/a"), TestID("M.C/b")]
        XCTAssertEqual(TestID.repeating(tests, count: 1), tests)
        XCTAssertEqual(TestID.repeating(tests, count: 2).map(\.description),
                       ["M.C/a (repeat 1 of 2)", "M.C/b (repeat 1 of 2)", "M.C/a (repeat 2 of 2)", "M.C/b (repeat 2 of 2)"])
    }

    func testPlannerOrdersEachRepetitionLongestFirstWithItsTestsTimings() {
        let tests = TestID.repeating([TestID("M.C/short"), TestID("M.C/long")], count: 2)
        let planned = Planner.order(tests.reversed(), timings: Timings(tests: ["M.C/short": 1, "M.C/long": 9]))
        XCTAssertEqual(planned.map(\.id.description),
                       ["M.C/long (repeat 1 of 2)", "M.C/short (repeat 1 of 2)", "M.C/long (repeat 2 of 2)", "M.C/short (repeat 2 of 2)"])
        XCTAssertEqual(planned.map(\.expected), [9, 1, 9, 1])
        XCTAssertTrue(planned.allSatisfy(\.known))
    }

    func testRepetitionsStayOutOfTimings() {
        let old = Timings(tests: ["M.C/a": 2])
        let records = [TestRecord(id: TestID("M.C/a").repetition(1, of: 2), attempts: [attempt(.passed, duration: 50)]),
                       TestRecord(id: TestID("M.C/b"), attempts: [attempt(.passed, duration: 3)])]
        XCTAssertEqual(old.updated(with: records).tests, ["M.C/a": 2, "M.C/b": 3])
    }

    func testSummarySaysHowTheRunRepeated() {
        XCTAssertEqual(RepetitionSummary(count: 5, untilFailure: false, ran: 5).description, "each test 5 times (--repeat-each 5)")
        XCTAssertEqual(RepetitionSummary(count: 100, untilFailure: true, ran: 100).description,
                       "--until-failure: all 100 of 100 repetitions ran without a failure (the cap)")
        let failed = RepetitionSummary(count: 100, untilFailure: true, ran: 3, firstFailure: TestID("M.C/a").repetition(3, of: 100))
        XCTAssertEqual(failed.description, "--until-failure: 3 of up to 100 repetitions ran; M.C/a (repeat 3 of 100) failed first, so no later repetition started")
    }
}

/// `rules:`: the first rule whose `match` finds a test's id sets its retries, timeout and
/// which failures are retried; what a rule leaves out is the global setting.
final class TestRulesTests: XCTestCase {
    private func failing(_ number: Int, _ message: String, _ outcome: AttemptOutcome = .failed) -> Attempt {
        attempt(outcome, number: number, failures: [FailureMessage(message: message)])
    }

    private func rules(_ list: [TestRule], retries: Int = 2, timeout: Double = 300) throws -> TestRules {
        try TestRules(retries: retries, testTimeout: timeout, rules: list)
    }

    func testFirstMatchWinsAndUnsetFieldsFallBack() throws {
        let r = try rules([TestRule(match: "Checkout", retries: 0),
                           TestRule(match: "Checkout|Slow", retries: 5, testTimeout: 900),
                           TestRule(match: "^App.Slow", testTimeout: 60)])
        let checkout = TestID("App.CheckoutTests/testPay"), slow = TestID("App.SlowTests/testBig"), other = TestID("App.LoginTests/testIn")
        XCTAssertEqual(r.ruleIndex(for: checkout), 0)
        XCTAssertEqual(r.retries(for: checkout), 0)
        XCTAssertEqual(r.testTimeout(for: checkout), 300, "rule 1 sets no timeout: the global one, not rule 2's")
        XCTAssertEqual(r.ruleIndex(for: slow), 1)
        XCTAssertEqual(r.retries(for: slow), 5)
        XCTAssertEqual(r.testTimeout(for: slow), 900)
        XCTAssertNil(r.ruleIndex(for: other))
        XCTAssertEqual(r.retries(for: other), 2)
        XCTAssertEqual(r.testTimeout(for: other), 300)
    }

    func testARepetitionFollowsItsTestsRule() throws {
        let r = try rules([TestRule(match: "^App.SlowTests/testBig$", retries: 0, testTimeout: 7)])
        let repetition = TestID("App.SlowTests/testBig").repetition(3, of: 4)
        XCTAssertEqual(r.testTimeout(for: repetition), 7, "the rule's ^…$ matches the test's own id")
        XCTAssertFalse(r.retries(repetition, after: failing(1, "boom")))
    }

    func testRetriesCountPerTest() throws {
        let r = try rules([TestRule(match: "Flaky", retries: 1)], retries: 0)
        let flaky = TestID("M.FlakyTests/t"), other = TestID("M.Other/t")
        XCTAssertTrue(r.retries(flaky, after: failing(1, "x")))
        XCTAssertFalse(r.retries(flaky, after: failing(2, "x")), "one retry, then final")
        XCTAssertFalse(r.retries(other, after: failing(1, "x")), "global retries 0")
        XCTAssertFalse(r.retries(flaky, after: attempt(.passed)), "a pass is never retried")
        XCTAssertFalse(r.retries(flaky, after: attempt(.skipped)))
    }

    func testRetryOnRetriesOnlyTheFailuresItFinds() throws {
        let r = try rules([TestRule(match: "UITests", retryOn: "timed out|ECONNRESET")])
        let ui = TestID("App.UITests/testCart")
        XCTAssertTrue(r.retries(ui, after: failing(1, "request failed: ECONNRESET")))
        XCTAssertTrue(r.retries(ui, after: failing(1, "timed out: still running after 300 s", .timedOut)))
        XCTAssertFalse(r.retries(ui, after: failing(1, "XCTAssertEqual failed: (\"1\") is not equal to (\"2\")")),
                       "a failure retry-on does not find is final at once")
        XCTAssertFalse(r.retries(ui, after: failing(3, "ECONNRESET")), "retry-on never adds retries")
        XCTAssertTrue(r.retries(TestID("App.Other/t"), after: failing(1, "XCTAssertEqual failed")), "no rule: any failure is retried")
        // Every failure message of the attempt counts.
        var two = failing(1, "first: assertion")
        two.failures.append(FailureMessage(message: "then: ECONNRESET"))
        XCTAssertTrue(r.retries(ui, after: two))
    }

    func testARuleFromYAMLFieldsIsCheckedWithItsNumber() throws {
        let rule = try TestRule(number: 1, fields: ["match": "Slow", "retries": "0", "test_timeout": "12.5", "retry-on": "timed out"])
        XCTAssertEqual(rule, TestRule(match: "Slow", retries: 0, testTimeout: 12.5, retryOn: "timed out"))
        XCTAssertEqual(rule.summary, "match 'Slow': retries 0, test-timeout 12.5 s, retry-on 'timed out'")
        XCTAssertEqual(TestRule(match: "X", testTimeout: 60).summary, "match 'X': retries (global), test-timeout 60 s, retry-on any failure")

        func message(_ fields: [String: String]) -> String {
            do {
                _ = try TestRule(number: 3, fields: fields)
                return "no error"
            } catch { return "\(error)" }
        }
        XCTAssertEqual(message(["match": "A", "retry-on": "(oops"]),
                       "rule 3 (match 'A'): 'retry-on' '(oops' is not a valid regular expression: fix it (NSRegularExpression syntax, e.g. 'timed out|ECONNRESET'; escape ( ) [ ] . with a backslash to match them as text)")
        XCTAssertTrue(message(["match": "[", "retries": "1"]).hasPrefix("rule 3's 'match' '[' is not a valid regular expression: fix it"))
        XCTAssertTrue(message(["retries": "1"]).hasPrefix("rule 3 has no 'match': give it the regex"))
        XCTAssertEqual(message(["match": "A", "retries": "-1"]), "rule 3 (match 'A'): 'retries' must be an integer ≥ 0, got '-1'")
        XCTAssertEqual(message(["match": "A", "test-timeout": "0"]), "rule 3 (match 'A'): 'test-timeout' must be a positive number of seconds, got '0'")
        XCTAssertEqual(message(["match": "A", "timeout": "5"]), "rule 3 has an unknown field 'timeout': a rule takes match, retries, test-timeout, retry-on")
        XCTAssertEqual(message(["match": "A"]), "rule 3 (match 'A') sets nothing: add retries, test-timeout or retry-on, or remove it")
    }
}
