import Foundation
import XCTest

/// Swift Testing raw identifiers (Tests/Fixtures/RawIdentifier) that read like robotci's text
/// form of an id: `` `testX(repeat 1 of 2)` `` and `` `a test [webkit]` ``. Each is that test
/// on every path (run, retry, `--last-failed`, partitions and merge, `--repeat-each`): the
/// repetition and the browser are fields of the id, never parsed out of a name.
final class RawIdentifierEndToEndTests: XCTestCase {
    private let raw = "RawIdentifierTests.Names/`testX(repeat 1 of 2)`()"
    private let plain = "RawIdentifierTests.Names/testX()"
    private let bracket = "RawIdentifierTests.Names/`a test [webkit]`()"

    override class func setUp() {
        super.setUp()
        try? E2E.buildFixture("RawIdentifier")
    }

    private func run(_ arguments: [String], env: [String: String] = [:]) throws -> E2E.Result {
        try E2E.run(["run", "--package", E2E.fixture("RawIdentifier"), "--skip-build", "--shards", "2"] + arguments, env: env)
    }

    private func tests(in report: URL) throws -> [E2E.StoredTest] { try E2E.storedTests(in: report) }

    private func outcome(of test: String, in ran: [E2E.StoredTest]) -> (String, Int)? {
        ran.first { $0.id["test"] as? String == test && $0.id["repetition"] == nil && $0.id["browser"] == nil }.map { ($0.outcome, $0.attempts) }
    }

    /// Run with a retry, then `--last-failed` re-runs exactly the failed one, by its own name
    /// (the filter robotci hands Swift Testing escapes the backticks, brackets and parentheses).
    func testARawIdentifierRunsRetriesAndReRunsAsItself() throws {
        let report = E2E.temporaryDirectory("raw-identifier")
        let first = try run(["--report-dir", report.path, "--retries", "1"], env: ["FLAKY": "raw", "FAIL": "bracket"])
        XCTAssertEqual(first.status, 1, "the bracketed one fails\n\(first.stderr)")
        let ran = try tests(in: report)
        XCTAssertEqual(ran.count, 3, "\(ran.map(\.id))")
        XCTAssertTrue(ran.allSatisfy { $0.id["repetition"] == nil && $0.id["browser"] == nil }, "\(ran.map(\.id))")
        XCTAssertEqual(outcome(of: raw, in: ran)?.0, "flaky")
        XCTAssertEqual(outcome(of: raw, in: ran)?.1, 2, "failed once, passed on its retry")
        XCTAssertEqual(outcome(of: bracket, in: ran)?.0, "failed")
        XCTAssertEqual(outcome(of: bracket, in: ran)?.1, 2)
        XCTAssertEqual(outcome(of: plain, in: ran)?.0, "passed")
        let junit = try String(contentsOf: report.appendingPathComponent("junit.xml"), encoding: .utf8)
        XCTAssertTrue(junit.contains("name=\"`a test [webkit]`()\""), junit)

        let again = try run(["--report-dir", report.path, "--last-failed"])
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertTrue(again.stderr.contains("robotci: 1 planned, 1 accounted for"), again.stderr)
        let rerun = try tests(in: report)
        XCTAssertEqual(rerun.map { $0.id["test"] as? String }, [bracket], "\(rerun.map(\.id))")
        XCTAssertEqual(rerun.first?.id["browser"] as? String, nil, "the text [webkit] is the name, not a browser")
        XCTAssertEqual(rerun.first?.outcome, "passed")
    }

    /// Two partitions of one run merged, and a burn-in: each test once by its own name, and
    /// the raw identifier's repetitions are repetitions of it, apart from its name's text.
    func testPartitionsMergeAndRepetitionsStayApart() throws {
        let root = E2E.temporaryDirectory("raw-identifier-merge")
        let (m, merged) = try E2E.mergedPartitions(under: root) { k, dir in
            try run(["--partition", "\(k)/2", "--report-dir", dir.path], env: ["ROBOTCI_RUN_ID": "raw-merge", "FAIL": "raw"])
        }
        XCTAssertEqual(m.status, 1, "the raw one failed\n\(m.stdout)\(m.stderr)")
        let ran = try tests(in: merged)
        XCTAssertEqual(ran.count, 3, "\(ran.map(\.id))")
        XCTAssertEqual(Set(ran.compactMap { $0.id["test"] as? String }), [raw, plain, bracket])
        XCTAssertEqual(outcome(of: raw, in: ran)?.0, "failed")
        XCTAssertEqual(outcome(of: bracket, in: ran)?.0, "passed")

        let burnIn = root.appendingPathComponent("repeat")
        let r = try run(["--report-dir", burnIn.path, "--repeat-each", "2"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let reps = try tests(in: burnIn)
        XCTAssertEqual(reps.count, 6, "\(reps.map(\.id))")
        let ofRaw = reps.filter { $0.id["test"] as? String == raw }.compactMap { ($0.id["repetition"] as? [String: Any])?["index"] as? Int }
        XCTAssertEqual(ofRaw.sorted(), [1, 2], "\(reps.map(\.id))")
        XCTAssertTrue(reps.allSatisfy { $0.id["repetition"] != nil && $0.outcome == "passed" }, "\(reps.map(\.id))")
    }
}
