import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// Runs the built `robotci` on `Tests/Fixtures/Outcomes`, a suite with every outcome.
/// The run is slow (a hang must time out, three times with retries), so it happens
/// once and every assertion reads its report.
final class OutcomesEndToEndTests: XCTestCase {
    nonisolated(unsafe) static var report: URL?
    nonisolated(unsafe) static var result: E2E.Result?

    override class func setUp() {
        super.setUp()
        do {
            try E2E.buildFixture("Outcomes")
            let dir = E2E.temporaryDirectory("outcomes")
            report = dir
            result = try E2E.run(["run", "--package", E2E.fixture("Outcomes"), "--shards", "4", "--retries", "2",
                                  "--test-timeout", "8", "--report-dir", dir.path, "--skip-build"])
        } catch {
            result = E2E.Result(status: -1, stdout: "", stderr: "\(error)")
        }
    }

    private var report: URL { Self.report! }
    private var result: E2E.Result { Self.result! }

    func testExitsOneBecauseTestsFailed() {
        XCTAssertEqual(result.status, 1, result.stderr)
    }

    func testJUnitGivesEveryTestItsVerdict() throws {
        let v = try E2E.junitVerdicts(report.appendingPathComponent("junit.xml"))
        let expected: [String: String] = [
            "OutcomesTests.PassingTests/testAddition": "passed",
            "OutcomesTests.PassingTests/testAlsoPasses": "passed",
            "OutcomesTests.PassingTests/testPrintsAndPasses": "passed",
            "OutcomesTests.FailingTests/testWrongSum": "failed",
            "OutcomesTests.FlakyTests/testFailsOnceThenPasses": "flaky",
            "OutcomesTests.CrashTests/testA_BeforeCrash": "passed",
            "OutcomesTests.CrashTests/testB_Crashes": "crashed",
            "OutcomesTests.CrashTests/testC_AfterCrash": "passed",
            "OutcomesTests.HangTests/testA_BeforeHang": "passed",
            "OutcomesTests.HangTests/testB_Hangs": "timedOut",
            "OutcomesTests.HangTests/testC_AfterHang": "passed",
            "OutcomesTests.SkippedTests/testSkipped": "skipped",
            "OutcomesTests.LoudTests/testPrintsTwentyThousandLines": "passed",
        ]
        XCTAssertEqual(v.count, expected.count, "every test lands in JUnit exactly once")
        for (id, verdict) in expected {
            XCTAssertEqual(v[id]?.verdict, verdict, id)
        }
    }

    func testFlakyCarriesFlakyFailureAndNoFailure() throws {
        let v = try E2E.junitVerdicts(report.appendingPathComponent("junit.xml"))
        let flaky = try XCTUnwrap(v["OutcomesTests.FlakyTests/testFailsOnceThenPasses"])
        XCTAssertTrue(flaky.elements.contains("flakyFailure"))
        XCTAssertFalse(flaky.elements.contains("failure"))
        let failed = try XCTUnwrap(v["OutcomesTests.FailingTests/testWrongSum"])
        XCTAssertEqual(failed.elements.filter { $0 == "rerunFailure" }.count, 2, "each failed retry is kept")
    }

    func testResultsJSONKeepsEveryAttempt() throws {
        let data = try Data(contentsOf: report.appendingPathComponent("results.json"))
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let tests = try XCTUnwrap(json["tests"] as? [[String: Any]])
        func attempts(_ id: String) -> [[String: Any]] {
            (tests.first { E2E.idText($0["id"]) == id }?["attempts"] as? [[String: Any]]) ?? []
        }
        let wrong = attempts("OutcomesTests.FailingTests/testWrongSum")
        XCTAssertEqual(wrong.count, 3)
        let failure = (wrong.first?["failures"] as? [[String: Any]])?.first
        XCTAssertEqual(failure?["line"] as? Int, 12)
        XCTAssertTrue((failure?["file"] as? String ?? "").hasSuffix("OutcomesTests.swift"))
        XCTAssertTrue((failure?["message"] as? String ?? "").contains("two and two"))
        let flaky = attempts("OutcomesTests.FlakyTests/testFailsOnceThenPasses")
        XCTAssertEqual(flaky.map { $0["outcome"] as? String }, ["failed", "passed"])
        XCTAssertNotEqual(flaky.first?["worker"] as? Int, nil)
        let crash = attempts("OutcomesTests.CrashTests/testB_Crashes")
        XCTAssertEqual(crash.count, 3)
        XCTAssertTrue((crash.first?["output"] as? String ?? "").contains("about to crash"), "the crashed test keeps its output tail")
        let hang = attempts("OutcomesTests.HangTests/testB_Hangs")
        XCTAssertEqual(hang.map { $0["outcome"] as? String }, ["timedOut", "timedOut", "timedOut"])
        let passing = attempts("OutcomesTests.PassingTests/testPrintsAndPasses")
        XCTAssertTrue((passing.first?["output"] as? String ?? "").contains("hello from a passing test"), "each test keeps its own output slice")
        XCTAssertFalse((passing.first?["output"] as? String ?? "").contains("about to"), "and only its own")
    }

    func testLoudTestDoesNotStallAndItsLogIsKept() throws {
        let data = try Data(contentsOf: report.appendingPathComponent("results.json"))
        let text = String(decoding: data, as: UTF8.self)
        XCTAssertTrue(text.contains("bytes omitted"), "a 20,000-line output is truncated in results.json")
        let logs = try FileManager.default.contentsOfDirectory(atPath: report.appendingPathComponent("attachments/batches").path)
        let full = try logs.map { try String(contentsOf: report.appendingPathComponent("attachments/batches/\($0)"), encoding: .utf8) }
            .first { $0.contains("line 19999 of a very loud test") }
        XCTAssertNotNil(full, "the full output stays in the batch log")
    }

    func testJournalAndTimingsWritten() throws {
        let journal = try String(contentsOf: report.appendingPathComponent("results.jsonl"), encoding: .utf8)
        let lines = journal.split(separator: "\n")
        XCTAssertTrue(lines.first?.contains("\"type\":\"run\"") ?? false)
        XCTAssertTrue(lines.last?.contains("\"type\":\"finished\"") ?? false)
        XCTAssertGreaterThanOrEqual(lines.filter { $0.contains("\"type\":\"attempt\"") }.count, 13 + 2 + 2 + 2 + 1)
        let timings = try JSONSerialization.jsonObject(with: Data(contentsOf: report.appendingPathComponent("timings.json"))) as? [String: Any]
        let tests = timings?["tests"] as? [String: Double]
        XCTAssertNotNil(tests?["OutcomesTests.PassingTests/testAddition"])
        XCTAssertTrue(FileManager.default.fileExists(atPath: report.appendingPathComponent("index.html").path))
    }

    /// A killed coordinator loses nothing: the journal alone rebuilds the same verdicts.
    func testJournalRebuildsTheReport() throws {
        let rebuilt = E2E.temporaryDirectory("rebuilt")
        let r = try E2E.run(["report", "--results", report.appendingPathComponent("results.jsonl").path, "--output", rebuilt.path])
        XCTAssertEqual(r.status, 1, "the rebuilt report exits with the run's verdict (tests failed), as the run did\n\(r.stderr)")
        XCTAssertEqual(r.status, result.status)
        let fromJSON = try E2E.run(["report", "--results", report.appendingPathComponent("results.json").path,
                                    "--output", E2E.temporaryDirectory("rerendered").path])
        XCTAssertEqual(fromJSON.status, 1, fromJSON.stderr)
        let original = try E2E.junitVerdicts(report.appendingPathComponent("junit.xml")).mapValues(\.verdict)
        let fromJournal = try E2E.junitVerdicts(rebuilt.appendingPathComponent("junit.xml")).mapValues(\.verdict)
        XCTAssertEqual(fromJournal, original)
        for file in ["results.json", "timings.json", "index.html"] {
            XCTAssertTrue(FileManager.default.fileExists(atPath: rebuilt.appendingPathComponent(file).path), file)
        }
    }

    func testNothingLeftRunning() {
        XCTAssertEqual(E2E.processes(matching: "OutcomesPackageTests.xctest"), [])
    }

    func testWorkerEnvironmentIsDistinctPerSlot() throws {
        let data = try Data(contentsOf: report.appendingPathComponent("results.json"))
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let batches = try XCTUnwrap(json["batches"] as? [[String: Any]])
        // Batches that overlapped in time never shared a mock or driver port.
        for a in batches {
            for b in batches where (a["id"] as? Int ?? 0) < (b["id"] as? Int ?? 0) {
                let overlap = (a["start"] as? Double ?? 0) < (b["end"] as? Double ?? 0) && (b["start"] as? Double ?? 0) < (a["end"] as? Double ?? 0)
                guard overlap else { continue }
                XCTAssertNotEqual(a["mockPort"] as? Int, b["mockPort"] as? Int)
                XCTAssertNotEqual(a["webDriverPort"] as? Int, b["webDriverPort"] as? Int)
            }
        }
        XCTAssertEqual(Set(batches.compactMap { $0["worker"] as? Int }).isSubset(of: [0, 1, 2, 3]), true)
    }
}
