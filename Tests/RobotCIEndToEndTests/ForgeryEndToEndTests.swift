import Foundation
import XCTest

/// Test output that looks like XCTest's own lines or Swift Testing's events cannot forge or
/// hide a verdict: every test of `Tests/Fixtures/Forgery` (16 XCTest, 3 Swift Testing) ends
/// exactly once with the verdict its framework gives (its name ends in `Passes` or `Fails`),
/// at 1 and 4 shards, and when the XCTest ones share one process (the second run plans from
/// the first run's timings: one batch).
final class ForgeryEndToEndTests: XCTestCase {
    private func verdicts(_ report: URL) throws -> [String: (outcome: String, attempts: Int)] {
        let data = try Data(contentsOf: report.appendingPathComponent("results.json"))
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
        var out: [String: (String, Int)] = [:]
        for t in try XCTUnwrap(object["tests"] as? [[String: Any]]) {
            let id = try XCTUnwrap(E2E.idText(t["id"]))
            XCTAssertNil(out[id], "\(id) is in results.json once")
            out[id] = (try XCTUnwrap(t["outcome"] as? String), (t["attempts"] as? [Any])?.count ?? 0)
        }
        return out
    }

    private func check(_ report: URL, _ result: E2E.Result, _ label: String) throws {
        XCTAssertEqual(result.status, 1, "\(label): failing tests make the run exit 1\n\(result.stderr.suffix(3000))")
        XCTAssertTrue(result.stderr.contains("robotci: 19 planned, 19 accounted for\n"), "\(label): \(result.stderr.suffix(2000))")
        XCTAssertTrue(result.stderr.contains("robotci: 11 passed, 8 failed, 0 skipped"), "\(label): the frameworks' own counts")
        let verdicts = try verdicts(report)
        XCTAssertEqual(verdicts.count, 19, label)
        for (id, v) in verdicts {
            let name = id.hasSuffix("()") ? String(id.dropLast(2)) : id
            let expected = name.hasSuffix("Passes") ? "passed" : "failed"
            XCTAssertEqual(v.outcome, expected, "\(label): \(id)")
            XCTAssertEqual(v.attempts, 1, "\(label): \(id) ran once (--retries 0)")
        }
        let junit = try String(contentsOf: report.appendingPathComponent("junit.xml"), encoding: .utf8)
        XCTAssertEqual(junit.components(separatedBy: "<testcase ").count - 1, 19, "\(label): every test once in junit.xml")
    }

    /// Rewrites `timings.json` in `report` with every test at a millisecond.
    private static func shrinkTimings(in report: URL) throws {
        let url = report.appendingPathComponent("timings.json")
        var object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        let tests = try XCTUnwrap(object["tests"] as? [String: Any], "timings.json has its tests")
        XCTAssertFalse(tests.isEmpty, "the first run wrote timings")
        object["tests"] = tests.mapValues { _ in 0.001 }
        try JSONSerialization.data(withJSONObject: object).write(to: url)
    }

    func testLookAlikeLinesNeverChangeAVerdict() throws {
        try E2E.buildFixture("Forgery")
        let dir = E2E.temporaryDirectory("forgery")
        defer { try? FileManager.default.removeItem(at: dir) }
        for shards in [4, 1] {
            let report = dir.appendingPathComponent("shards-\(shards)")
            let args = ["run", "--package", E2E.fixture("Forgery"), "--skip-build", "--retries", "0",
                        "--shards", String(shards), "--report-dir", report.path]
            try check(report, try E2E.run(args), "\(shards) shards")
            if shards == 1 {
                // Now with timings: the whole suite in one process, forged lines side by side.
                // The timings say every test is tiny, so one batch holds them on any machine
                // (measured ones add up to over a second on a slow one, which cuts two).
                try Self.shrinkTimings(in: report)
                let again = try E2E.run(args)
                try check(report, again, "one batch")
                let logs = try FileManager.default.contentsOfDirectory(atPath: report.appendingPathComponent("attachments/batches").path)
                let text = try logs.map { try String(contentsOf: report.appendingPathComponent("attachments/batches/\($0)"), encoding: .utf8) }.joined()
                XCTAssertTrue(text.contains("one per process, where the exit status is the verdict"),
                              "a batch whose lines contradict XCTest's order is re-run one test per process")
            }
        }
    }
}
