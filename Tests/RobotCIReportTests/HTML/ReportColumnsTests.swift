import Foundation
import RobotCICore
import XCTest

@testable import RobotCIReport

/// The report data's one table of columns: the data names them, every row follows them, and
/// report.js asks for exactly those names (the browser tests then draw with them).
final class ReportColumnsTests: XCTestCase {
    /// Column indices by name, as report.js finds them.
    private func columns(_ data: [String: Any], _ table: String) throws -> [String: Int] {
        let all = try XCTUnwrap(data["columns"] as? [String: [String]])
        let names = try XCTUnwrap(all[table], "no columns for \(table)")
        return Dictionary(uniqueKeysWithValues: names.enumerated().map { ($1, $0) })
    }

    func testTheDataNamesEveryTablesColumns() throws {
        let data = try HTMLReportTests.data(HTMLReport.render(ReportFixtures.mixedRun()))
        let named = try XCTUnwrap(data["columns"] as? [String: [String]])
        XCTAssertEqual(named.count, ReportColumns.all.count)
        for (table, names) in ReportColumns.all { XCTAssertEqual(named[table], names, table) }
        XCTAssertEqual(named["attempt"], ["outcome", "durationMs", "startMs", "shard", "batch", "machine", "failures",
                                          "failuresLeftOut", "output", "outputCut", "artifacts"])
        XCTAssertEqual(named["batch"], ["id", "shard", "machine", "startMs", "endMs", "testCount", "termination", "clean"])
    }

    func testTheLetterMapComesFromOutcome() throws {
        let data = try HTMLReportTests.data(HTMLReport.render(ReportFixtures.mixedRun()))
        let letters = try XCTUnwrap(data["letters"] as? [String: String])
        XCTAssertEqual(letters, Dictionary(uniqueKeysWithValues: Outcome.allCases.map { (String($0.letter), $0.rawValue) }))
        XCTAssertEqual(letters["K"], "flaky")
    }

    func testRowsHoldWhatTheirColumnsName() throws {
        let run = ReportFixtures.mixedRun()
        let data = try HTMLReportTests.data(HTMLReport.render(run))
        let tc = try columns(data, "test"), ac = try columns(data, "attempt"), fc = try columns(data, "failure")
        let bc = try columns(data, "batch")
        let outcomes = try XCTUnwrap(data["outcomes"] as? [String])
        let attemptOutcomes = try XCTUnwrap(data["attemptOutcomes"] as? [String])
        let classes = try XCTUnwrap(data["classes"] as? [String])
        let rows = try XCTUnwrap(data["tests"] as? [[Any]])
        XCTAssertEqual(rows.count, run.tests.count)
        for (row, test) in zip(rows, run.tests) {
            XCTAssertLessThanOrEqual(row.count, tc.count)
            XCTAssertEqual(classes[try XCTUnwrap(row[tc["classIndex"]!] as? Int)], test.id.className)
            XCTAssertEqual(row[tc["name"]!] as? String, test.id.name)
            XCTAssertEqual(outcomes[try XCTUnwrap(row[tc["outcome"]!] as? Int)], test.outcome.rawValue)
            let attempts = try XCTUnwrap(row[tc["attempts"]!] as? [[Any]])
            XCTAssertEqual(attempts.count, test.attempts.count)
            for (a, attempt) in zip(attempts, test.attempts) {
                XCTAssertLessThanOrEqual(a.count, ac.count)
                XCTAssertEqual(attemptOutcomes[try XCTUnwrap(a[ac["outcome"]!] as? Int)], attempt.outcome.rawValue)
                XCTAssertEqual(a[ac["durationMs"]!] as? Int, Int((attempt.duration * 1000).rounded()))
                XCTAssertEqual(a[ac["shard"]!] as? Int, attempt.shard)
                XCTAssertEqual(a[ac["batch"]!] as? Int, attempt.batch)
                guard let first = attempt.failures.first else { continue }
                let failures = try XCTUnwrap(a[ac["failures"]!] as? [[Any]])
                XCTAssertLessThanOrEqual(failures[0].count, fc.count)
                XCTAssertEqual(failures[0][fc["line"]!] as? Int, first.line ?? 0)
                XCTAssertTrue(first.message.hasPrefix(try XCTUnwrap(failures[0][fc["message"]!] as? String).prefix(20)))
            }
        }
        let batches = try XCTUnwrap(data["batches"] as? [[Any]])
        for (b, record) in zip(batches, run.batches) {
            XCTAssertEqual(b.count, bc.count)
            XCTAssertEqual(b[bc["id"]!] as? Int, record.id)
            XCTAssertEqual(b[bc["testCount"]!] as? Int, record.tests.count)
            XCTAssertEqual(b[bc["termination"]!] as? String, record.termination.description)
        }
    }

    /// A not-run test with a plain id carries its reason in the `reason` column, the `id`
    /// column before it null.
    func testAReasonHasItsOwnColumn() throws {
        let plain = TestRecord(id: TestID("M.C/testA"), attempts: [], reason: "its batch died first")
        let whole = TestRecord(id: TestID("tests/a.py::test_b"), attempts: [], reason: "the run stopped early")
        let run = RunResult(metadata: ReportFixtures.metadata(wall: 1, shards: 1), tests: [plain, whole], batches: [])
        let data = try HTMLReportTests.data(HTMLReport.render(run))
        let tc = try columns(data, "test")
        let rows = try XCTUnwrap(data["tests"] as? [[Any]])
        XCTAssertEqual(rows[0].count, tc["browser"], "the row ends before `browser`: the default engine's run")
        XCTAssertTrue(rows[0][tc["id"]!] is NSNull)
        XCTAssertEqual(rows[0][tc["reason"]!] as? String, "its batch died first")
        XCTAssertEqual(rows[0][tc["flags"]!] as? Int, 4)
        XCTAssertEqual(rows[1][tc["id"]!] as? String, "tests/a.py::test_b")
        XCTAssertEqual(rows[1][tc["reason"]!] as? String, "the run stopped early")
        XCTAssertEqual(rows[1][tc["flags"]!] as? Int, 6)
    }

    /// report.js names each column it reads (`columns('attempt', [...])`); those lists are the
    /// tables, so a column added on one side only fails here, not in a report someone opens.
    func testReportScriptReadsTheTablesColumns() throws {
        let script = ReportTemplate.js
        let call = try NSRegularExpression(pattern: #"columns\('(\w+)', \[([^\]]*)\]\)"#)
        var asked: [String: [String]] = [:]
        for m in call.matches(in: script, range: NSRange(script.startIndex..., in: script)) {
            let table = String(script[try XCTUnwrap(Range(m.range(at: 1), in: script))])
            let list = String(script[try XCTUnwrap(Range(m.range(at: 2), in: script))])
            asked[table] = list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "'")) }
        }
        XCTAssertEqual(asked.count, ReportColumns.all.count, "\(asked.keys.sorted())")
        for (table, names) in ReportColumns.all { XCTAssertEqual(asked[table], names, table) }
        XCTAssertFalse(script.contains("'P'") || script.contains("K:"), "the letters come from the data")
    }

    /// Another engine's run (`--browsers`) carries its browser last, `id` and `reason` null before it.
    func testABrowserHasItsOwnColumn() throws {
        let webkit = TestRecord(id: TestID("M.C/testA", repetition: nil, browser: "webkit"), attempts: [
            Attempt(number: 1, outcome: .passed, duration: 1, start: 0, placement: .init(shard: 0, batch: 0))])
        let run = RunResult(metadata: ReportFixtures.metadata(wall: 1, shards: 1), tests: [webkit], batches: [])
        let data = try HTMLReportTests.data(HTMLReport.render(run))
        let tc = try columns(data, "test")
        let row = try XCTUnwrap((data["tests"] as? [[Any]])?.first)
        XCTAssertEqual(row.count, tc.count)
        XCTAssertTrue(row[tc["id"]!] is NSNull)
        XCTAssertTrue(row[tc["reason"]!] is NSNull)
        XCTAssertEqual(row[tc["browser"]!] as? String, "webkit")
        XCTAssertEqual(row[tc["name"]!] as? String, "testA [webkit]")
    }
}
