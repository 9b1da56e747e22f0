import Foundation
import XCTest

/// Hangs found from history (issue 41): a test whose last runs took a few milliseconds is hung
/// long before `--test-timeout`. With five passing runs in history.json, its hang is killed at
/// the history's deadline (10 × p95, at least 10 s), retried, and reported flaky; the failure
/// names the rule that fired.
final class HistoryDeadlineEndToEndTests: XCTestCase {
    override class func setUp() {
        super.setUp()
        try? E2E.buildFixture("Hang")
    }

    func testAHangIsKilledAtItsHistorysDeadlineNotTheGlobalTimeout() throws {
        let dir = E2E.temporaryDirectory("history-deadline")
        defer { try? FileManager.default.removeItem(at: dir) }
        let report = dir.appendingPathComponent("report")
        try FileManager.default.createDirectory(at: report, withIntermediateDirectories: true)
        let runs = (1...5).map { ["id": "past-\($0)", "startedAt": 1_700_000_000 + $0, "commit": "c"] as [String: Any] }
        let past: [String: Any] = ["format": "robotci-history-v1", "runs": runs, "tests": [
            "HangTests.HangTests/testUsuallyFast": ["o": "PPPPP", "d": [20, 22, 19, 25, 21], "a": [1, 1, 1, 1, 1]],
        ]]
        try JSONSerialization.data(withJSONObject: past).write(to: report.appendingPathComponent("history.json"))

        let started = Date()
        let r = try E2E.run(["run", "--package", E2E.fixture("Hang"), "--skip-build", "--shards", "1", "--retries", "1",
                             "--test-timeout", "300", "--report-dir", report.path],
                            env: ["HANG_ON_ATTEMPT": "1"])
        let wall = Date().timeIntervalSince(started)
        XCTAssertEqual(r.status, 0, "flaky is not failing\n\(r.stderr)")
        XCTAssertLessThan(wall, 60, "killed at its history's deadline (10 s), not at --test-timeout (300 s)")
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: report.appendingPathComponent("results.json"))) as? [String: Any])
        let tests = try XCTUnwrap(json["tests"] as? [[String: Any]])
        let hung = try XCTUnwrap(tests.first { E2E.idText($0["id"])?.hasSuffix("testUsuallyFast") == true })
        XCTAssertEqual(hung["outcome"] as? String, "flaky")
        let attempts = try XCTUnwrap(hung["attempts"] as? [[String: Any]])
        XCTAssertEqual(attempts.map { $0["outcome"] as? String }, ["timedOut", "passed"])
        let message = ((attempts[0]["failures"] as? [[String: Any]])?.compactMap { $0["message"] as? String } ?? []).joined(separator: "\n")
        XCTAssertTrue(message.contains("still running after 10 s (history: 10 × p95 0.03 s of 5 passing runs"), message)
        let other = try XCTUnwrap(tests.first { E2E.idText($0["id"])?.hasSuffix("testAlsoFast") == true })
        XCTAssertEqual(other["outcome"] as? String, "passed", "a test without history keeps --test-timeout")
    }
}
