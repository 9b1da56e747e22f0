import Foundation
import XCTest

/// Every failure explains itself (issue 37), through robotci on RobotKit's own tests
/// (`RobotKitTests/Evidence/EvidenceUnderRobotCITests.swift`, ROBOTCI_EVIDENCE_E2E=1): a plain
/// `XCTestCase` with a struct robot that fails on both attempts, and a test whose mock
/// answers 500 on the first attempt only (flaky). Each attempt keeps `trace/trace.json` with
/// one step per UI action, every file it names beside it, the failing step marked; the flaky
/// test's failing attempt names, as its first divergence, the step during which `/me` was
/// answered 500, not the final assertion.
final class TraceEndToEndTests: XCTestCase {
    private typealias Test = E2E.ReportedTest

    private func trace(_ attempt: Test.Attempt, in dir: URL, _ label: String) throws -> (URL, [String: Any]) {
        let artifact = try XCTUnwrap(attempt.artifacts.first { $0.kind == "trace" }, "\(label): no trace artifact in \(attempt.artifacts.map(\.path))")
        let url = dir.appendingPathComponent(artifact.path)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any], label)
        XCTAssertEqual(object["format"] as? String, "robotci-trace-v1", label)
        return (url.deletingLastPathComponent(), object)
    }

    /// A 5 s value wait that runs out is one step of the trace, at the robot's line, the
    /// failing one, naming what it expected and what it last saw (issue 55).
    func testAValueWaitThatRunsOutIsOneFailingStepAtTheRobotsLine() throws {
        let dir = E2E.temporaryDirectory("trace-wait")
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try E2E.run(
            ["run", "--package", E2E.root.path, "--skip-build", "--shards", "1", "--retries", "0",
             "--filter", "RobotKitTests\\.ValueWaitTraceTests/", "--report-dir", dir.path],
            env: ["ROBOTCI_EVIDENCE_E2E": "1"])
        XCTAssertEqual(r.status, 1, r.stdout + r.stderr)
        let test = try XCTUnwrap(try E2E.reportedTests(in: dir)["RobotKitTests.ValueWaitTraceTests/testTheGreetingNeverSaysBob"])
        let (_, trace) = try self.trace(try XCTUnwrap(test.attempts.first), in: dir, "the value wait")
        let steps = try XCTUnwrap(trace["steps"] as? [[String: Any]])
        let waits = steps.filter { ($0["name"] as? String)?.hasPrefix("wait for label") == true }
        XCTAssertEqual(waits.count, 1, "one step for the whole wait: \(steps.map { $0["name"] ?? "" })")
        XCTAssertLessThan(steps.count, 8, "launch, the wait, terminate: no step per poll: \(steps.map { $0["name"] ?? "" })")
        let wait = try XCTUnwrap(waits.first)
        XCTAssertEqual(wait["outcome"] as? String, "failed", "the wait is the failing step")
        let source = try String(contentsOf: E2E.root.appendingPathComponent("Tests/RobotKitTests/Evidence/EvidenceUnderRobotCITests.swift"), encoding: .utf8)
        let robotLine = try XCTUnwrap(source.split(separator: "\n", omittingEmptySubsequences: false)
            .firstIndex { $0.contains("greeting.wait(for: \\.label") }) + 1
        XCTAssertTrue((wait["file"] as? String)?.hasSuffix("EvidenceUnderRobotCITests.swift") == true, "\(wait)")
        XCTAssertEqual(wait["line"] as? Int, robotLine, "the robot's line")
        let arguments = (wait["arguments"] as? [String] ?? []).joined(separator: "; ")
        XCTAssertTrue(arguments.contains("expected \"Hello, Bob\"") && arguments.contains("last seen \"Hello, Alice\"")
                      && arguments.contains("timed out after 5."), arguments)
    }

    func testEveryAttemptKeepsATraceAndTheFlakyOneNamesWhereItParted() throws {
        let dir = E2E.temporaryDirectory("trace")
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try E2E.run(
            ["run", "--package", E2E.root.path, "--skip-build", "--shards", "2", "--retries", "1",
             "--filter", "RobotKitTests\\.(ReferenceStyleEvidenceTests|FlakyGreetingTraceTests)/",
             "--report-dir", dir.path],
            env: ["ROBOTCI_EVIDENCE_E2E": "1"])
        XCTAssertEqual(r.status, 1, r.stdout + r.stderr)
        let byID = try E2E.reportedTests(in: dir)

        let failing = try XCTUnwrap(byID["RobotKitTests.ReferenceStyleEvidenceTests/testGreetingNamesTheUser"])
        XCTAssertEqual(failing.outcome, "failed")
        for (n, attempt) in failing.attempts.enumerated() {
            let (folder, trace) = try self.trace(attempt, in: dir, "failing attempt \(n + 1)")
            let steps = try XCTUnwrap(trace["steps"] as? [[String: Any]])
            XCTAssertEqual(steps.first?["name"] as? String, "launch", "the launch is the first step")
            XCTAssertGreaterThanOrEqual(steps.count, 3, "launch, the wait for the greeting, reading its label…")
            for step in steps {
                for key in ["screenshot", "snapshot"] {
                    if let name = step[key] as? String {
                        XCTAssertTrue(FileManager.default.fileExists(atPath: folder.appendingPathComponent(name).path), "\(name) is beside trace.json")
                    }
                }
            }
            XCTAssertTrue(steps.contains { $0["screenshot"] is String && $0["snapshot"] is String }, "steps carry a screenshot and a snapshot")
            XCTAssertEqual(steps.filter { $0["outcome"] as? String == "failed" }.count, 1, "the failing step is marked once")
            XCTAssertTrue(steps.contains { ($0["requests"] as? [[String: Any]])?.contains { $0["path"] as? String == "/me" } == true },
                          "the step during which the mock answered /me lists it")
            if let snapshot = steps.compactMap({ $0["snapshot"] as? String }).last {
                let html = try String(contentsOf: folder.appendingPathComponent(snapshot), encoding: .utf8)
                XCTAssertFalse(html.contains("<script"), "a snapshot holds no script")
                XCTAssertTrue(html.contains("data-testid=\"greeting\""))
            }
        }

        let flaky = try XCTUnwrap(byID["RobotKitTests.FlakyGreetingTraceTests/testGreetingAfterARetry"])
        XCTAssertEqual(flaky.outcome, "flaky")
        XCTAssertEqual(flaky.attempts.map(\.outcome), ["failed", "passed"])
        let (_, first) = try trace(flaky.attempts[0], in: dir, "flaky attempt 1")
        _ = try trace(flaky.attempts[1], in: dir, "flaky attempt 2: the passing attempt of a flaky test is kept")
        let divergence = try XCTUnwrap(first["firstDivergence"] as? [String: Any], "the failing attempt names where it parted")
        let reason = try XCTUnwrap(divergence["reason"] as? String)
        XCTAssertTrue(reason.contains("/me") && reason.contains("500") && reason.contains("200"), reason)
        XCTAssertEqual(divergence["passingAttempt"] as? Int, 2)
        let steps = try XCTUnwrap(first["steps"] as? [[String: Any]])
        let index = try XCTUnwrap(divergence["step"] as? Int)
        XCTAssertNotEqual(steps[index]["outcome"] as? String, "failed", "the divergence is where /me was answered, not the final assertion")
    }
}
