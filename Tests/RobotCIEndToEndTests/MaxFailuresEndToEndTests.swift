import Foundation
import TestSupport
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// `--max-failures N`: a broken environment (every test fails) stops after N tests failed for
/// good; nothing else starts, the rest are `notRun` with the reason, exit 1 — on one machine,
/// and on every machine of a queue.
final class MaxFailuresEndToEndTests: XCTestCase {
    override class func setUp() {
        super.setUp()
        try? E2E.buildFixture("Queue")
    }

    private func results(_ report: URL) throws -> [String: (outcome: String, reason: String?, attempts: Int)] {
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: report.appendingPathComponent("results.json"))) as? [String: Any]
        var tests: [String: (String, String?, Int)] = [:]
        for t in json?["tests"] as? [[String: Any]] ?? [] {
            tests[E2E.idText(t["id"]) ?? "?"] = (t["outcome"] as? String ?? "?", t["reason"] as? String, (t["attempts"] as? [Any])?.count ?? 0)
        }
        return tests
    }

    func testOneMachineStopsAfterNFailures() throws {
        let dir = E2E.temporaryDirectory("maxfail")
        defer { try? FileManager.default.removeItem(at: dir) }
        let report = dir.appendingPathComponent("report")
        let r = try E2E.run(["run", "--package", E2E.fixture("Queue"), "--skip-build", "--filter", "SlowTests", "--retries", "1",
                             "--shards", "1", "--max-batch-size", "1", "--max-failures", "2", "--report-dir", report.path],
                            env: ["QUEUE_FAIL_ALL": "1", "QUEUE_SLEEP": "0.05"])
        XCTAssertEqual(r.status, 1, r.stderr)
        XCTAssertTrue(r.stderr.contains("robotci: stopping: --max-failures 2 reached"), r.stderr)
        XCTAssertTrue(r.stderr.contains("robotci: 27 planned, 27 accounted for (2 with a result, 25 not run)"), r.stderr)
        let tests = try results(report)
        XCTAssertEqual(tests.count, 27)
        let failed = tests.filter { $0.value.outcome == "failed" }
        XCTAssertEqual(failed.count, 2, "two tests failed for good, each after its retry")
        XCTAssertTrue(failed.values.allSatisfy { $0.attempts == 2 })
        let notRun = tests.filter { $0.value.outcome == "notRun" }
        XCTAssertEqual(notRun.count, 25)
        XCTAssertTrue(notRun.values.allSatisfy { $0.reason?.contains("--max-failures 2 reached") == true }, "\(notRun)")
        let junit = try String(contentsOf: report.appendingPathComponent("junit.xml"), encoding: .utf8)
        XCTAssertTrue(junit.contains(#"errors="25""#), "not-run tests are JUnit errors")
    }

    /// Three failing tests in one batch (one process), `--max-failures 1`: the batch ends at
    /// the first failure; the other two never run, with the reason.
    func testTheRunningBatchEndsAtTheNthFailure() throws {
        let dir = E2E.temporaryDirectory("maxfail-batch")
        defer { try? FileManager.default.removeItem(at: dir) }
        let report = dir.appendingPathComponent("report")
        let r = try E2E.run(["run", "--package", E2E.fixture("Queue"), "--skip-build", "--filter", "SlowTests/test0[1-3]$", "--retries", "0",
                             "--shards", "1", "--max-failures", "1", "--report-dir", report.path],
                            env: ["QUEUE_FAIL_ALL": "1", "QUEUE_SLEEP": "0.3"])
        XCTAssertEqual(r.status, 1, r.stderr)
        XCTAssertTrue(r.stderr.contains("robotci: 3 planned, 3 accounted for (1 with a result, 2 not run)"), r.stderr)
        let tests = try results(report)
        XCTAssertEqual(tests.values.filter { $0.outcome == "failed" }.count, 1, "\(tests)")
        let notRun = tests.values.filter { $0.outcome == "notRun" }
        XCTAssertEqual(notRun.count, 2, "\(tests)")
        XCTAssertTrue(notRun.allSatisfy { $0.reason?.contains("--max-failures 1 reached") == true }, "\(notRun)")
        let batches = try JSONSerialization.jsonObject(with: Data(contentsOf: report.appendingPathComponent("results.json"))) as? [String: Any]
        XCTAssertEqual((batches?["batches"] as? [Any])?.count, 1, "the three tests were one batch")
    }

    func testEveryMachineOfAQueueStops() throws {
        let server = try RedisServer()
        defer { server.stop() }
        let dir = E2E.temporaryDirectory("maxfail-queue")
        defer { try? FileManager.default.removeItem(at: dir) }
        let queue = "redis://127.0.0.1:\(server.port)/maxfail"
        var machines: [(process: Process, log: URL)] = []
        defer { for (p, _) in machines where p.isRunning { kill(p.processIdentifier, SIGKILL) } }
        machines = try E2E.startMachines(2, in: dir, env: ["QUEUE_FAIL_ALL": "1", "QUEUE_SLEEP": "0.4"]) { m in
            ["run", "--package", E2E.fixture("Queue"), "--skip-build", "--filter", "SlowTests", "--retries", "0",
             "--shards", "2", "--max-failures", "3", "--queue", queue, "--report-dir", dir.appendingPathComponent("m\(m)").path]
        }
        for (p, _) in machines { p.waitUntilExit() }
        for (p, log) in machines {
            let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            XCTAssertEqual(p.terminationStatus, 1, text)
            XCTAssertTrue(text.contains("--max-failures 3 reached"), "every machine hears of the stop\n\(text)")
        }
        let merged = dir.appendingPathComponent("merged")
        let r = try E2E.run(["report", "--queue", queue, "--output", merged.path])
        XCTAssertEqual(r.status, 1, "report --queue exits with the run's verdict\n\(r.stderr)")
        let tests = try results(merged)
        XCTAssertEqual(tests.count, 27)
        let failed = tests.values.filter { $0.outcome == "failed" }.count
        let notRun = tests.values.filter { $0.outcome == "notRun" }
        XCTAssertGreaterThanOrEqual(failed, 3)
        // The batch whose output crosses 3 is stopped there; tests other running batches had
        // finished before the kill keep their results.
        XCTAssertLessThan(failed, 27 / 2, "the run stopped early")
        XCTAssertEqual(failed + notRun.count, 27)
        XCTAssertTrue(notRun.allSatisfy { $0.reason?.contains("--max-failures 3 reached") == true }, "\(notRun)")
        print("MAX-FAILURES | queue, 2 machines × 2 shards, every test failing, --max-failures 3 | \(failed) failed, \(notRun.count) not run, exits \(machines.map { $0.0.terminationStatus })")
    }
}

/// `--last-failed`: only the tests that did not pass in the previous run run again; the
/// report says it is a re-run of that run and what came of each test.
final class LastFailedEndToEndTests: XCTestCase {
    override class func setUp() {
        super.setUp()
        try? E2E.buildFixture("Queue")
    }

    func testReRunsOnlyWhatDidNotPass() throws {
        let dir = E2E.temporaryDirectory("lastfailed")
        defer { try? FileManager.default.removeItem(at: dir) }
        let report = dir.appendingPathComponent("report")
        let args = ["run", "--package", E2E.fixture("Queue"), "--skip-build", "--retries", "0", "--shards", "2",
                    "--filter", "SlowTests/test0|FailingTests|FlakyTests|SkippedTests", "--report-dir", report.path]
        let first = try E2E.run(args, env: ["QUEUE_SLEEP": "0.01"])
        XCTAssertEqual(first.status, 1, first.stderr)
        let firstRun = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: report.appendingPathComponent("results.json"))) as? [String: Any])
        let firstID = try XCTUnwrap((firstRun["metadata"] as? [String: Any])?["runID"] as? String)

        let again = try E2E.run(args + ["--last-failed"], env: ["QUEUE_SLEEP": "0.01"])
        XCTAssertEqual(again.status, 1, again.stderr)
        XCTAssertTrue(again.stderr.contains("--last-failed: 2 of the 2 tests that did not pass in run \(firstID)"), again.stderr)
        XCTAssertTrue(again.stderr.contains("robotci: 2 planned, 2 accounted for"), again.stderr)
        XCTAssertTrue(again.stderr.contains("failed → failed  QueueTests.FailingTests/testFails"), again.stderr)
        XCTAssertTrue(again.stderr.contains("failed → passed  QueueTests.FlakyTests/testFailsOnce") == false, "with --retries 0 the flaky test failed its one attempt")
        let results = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: report.appendingPathComponent("results.json"))) as? [String: Any])
        let ids = (results["tests"] as? [[String: Any]] ?? []).compactMap { E2E.idText($0["id"]) }.sorted()
        XCTAssertEqual(ids, ["QueueTests.FailingTests/testFails", "QueueTests.FlakyTests/testFailsOnce"])
        XCTAssertEqual((results["metadata"] as? [String: Any])?["rerunOf"] as? String, firstID)
        let html = try String(contentsOf: report.appendingPathComponent("index.html"), encoding: .utf8)
        XCTAssertTrue(html.contains("\"rerunOf\":\"\(firstID)\""), "the report says which run it re-ran")

        // Nothing left that did not pass: nothing to run, exit 0.
        let passingArgs = ["run", "--package", E2E.fixture("Queue"), "--skip-build", "--filter", "SlowTests/test0[12]",
                           "--report-dir", dir.appendingPathComponent("green").path]
        XCTAssertEqual(try E2E.run(passingArgs, env: ["QUEUE_SLEEP": "0.01"]).status, 0)
        let none = try E2E.run(passingArgs + ["--last-failed"], env: ["QUEUE_SLEEP": "0.01"])
        XCTAssertEqual(none.status, 0, none.stderr)
        XCTAssertTrue(none.stderr.contains("nothing to run again"), none.stderr)

        // No previous run: a clear error.
        let missing = try E2E.run(["run", "--package", E2E.fixture("Queue"), "--skip-build", "--last-failed",
                                   "--report-dir", dir.appendingPathComponent("never").path])
        XCTAssertEqual(missing.status, 2, missing.stderr)
        XCTAssertTrue(missing.stderr.contains("--last-failed: no previous run to re-run from"), missing.stderr)
    }
}
