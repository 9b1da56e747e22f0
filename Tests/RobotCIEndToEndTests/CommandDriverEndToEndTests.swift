import Foundation
import XCTest

/// A pytest suite (`Tests/Fixtures/Pytest`) through `driver: command`: listed by
/// `pytest --collect-only`, run in batches that write JUnit, retried, with crashes and hangs
/// isolated, and every worker's `ROBOTCI_MOCK_PORT` its own.
final class CommandDriverEndToEndTests: XCTestCase {
    nonisolated(unsafe) static var report: URL?
    nonisolated(unsafe) static var result: E2E.Result?

    override class func setUp() {
        super.setUp()
        let dir = E2E.temporaryDirectory("pytest")
        report = dir
        do {
            result = try E2E.run(["run", "--package", E2E.fixture("Pytest"), "--shards", "4", "--retries", "2",
                                  "--test-timeout", "6", "--report-dir", dir.path],
                                 env: ["DEPLOY_TOKEN": secret])
        } catch {
            result = E2E.Result(status: -1, stdout: "", stderr: "\(error)")
        }
    }

    static let secret = "s3cr3t-\(UUID().uuidString)"
    private var report: URL { Self.report! }
    private var result: E2E.Result { Self.result! }

    override func setUpWithError() throws {
        let probe = Process()
        probe.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        probe.arguments = ["python3", "-c", "import pytest"]
        try probe.run()
        probe.waitUntilExit()
        XCTAssertEqual(probe.terminationStatus, 0, "pytest is missing: `make setup` installs python3-pytest")
    }

    func testListShowsPytestNodeIDs() throws {
        let listed = try E2E.run(["list", "--package", E2E.fixture("Pytest")])
        XCTAssertEqual(listed.status, 0, listed.stderr)
        let ids = listed.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(ids.count, 16, listed.stdout)
        XCTAssertTrue(ids.contains("tests/ui/test_outcomes.py::TestLogin::test_in_a_class"), listed.stdout)
        XCTAssertTrue(ids.contains("tests/ui/test_outcomes.py::test_parametrized[it's]"), listed.stdout)
    }

    func testEveryVerdictIsRight() throws {
        XCTAssertEqual(result.status, 1, result.stderr)
        let v = try E2E.junitVerdicts(report.appendingPathComponent("junit.xml"))
        let o = "tests/ui/test_outcomes.py", f = "tests/ui/test_faults.py", p = "tests/ui/test_ports.py"
        var expected: [String: String] = [
            "\(o)/test_passes": "passed", "\(o)/test_fails": "failed", "\(o)/test_flaky": "flaky",
            "\(o)/test_skipped": "skipped", "\(o)/test_parametrized[2]": "passed", "\(o)/test_parametrized[4]": "passed",
            "\(o)/test_parametrized[it's]": "passed", "\(o)::TestLogin/test_in_a_class": "passed",
            "\(o)/test_prints_its_environment": "failed", "\(f)/test_crashes": "crashed", "\(f)/test_hangs": "timedOut", "\(f)/test_after_faults": "passed",
        ]
        for n in 0..<4 { expected["\(p)/test_mock_port_is_this_workers[\(n)]"] = "passed" }
        XCTAssertEqual(v.mapValues(\.verdict), expected, result.stderr)
        let junit = try String(contentsOf: report.appendingPathComponent("junit.xml"), encoding: .utf8)
        XCTAssertTrue(junit.contains("two and two"), "the assertion message reaches JUnit")
        XCTAssertTrue(junit.contains(#"file="tests/ui/test_outcomes.py" line="13""#), "failure located from the traceback")
    }

    func testCrashAndHangCostOnlyTheirOwnTest() throws {
        let tests = try E2E.attemptsByTest(in: report)
        let crashed = try XCTUnwrap(tests["tests/ui/test_faults.py::test_crashes"])
        XCTAssertEqual(crashed.count, 3, "crashed on every attempt")
        let message = ((crashed[0]["failures"] as? [[String: Any]])?.first?["message"] as? String) ?? ""
        XCTAssertTrue(message.contains("Fatal Python error: Segmentation fault"), message)
        XCTAssertEqual(tests["tests/ui/test_faults.py::test_after_faults"]?.count, 1, "its neighbour passed on its first attempt")
        XCTAssertEqual(tests["tests/ui/test_faults.py::test_hangs"]?.map { $0["outcome"] as? String }, ["timedOut", "timedOut", "timedOut"])
    }

    func testEachWorkerServesOnItsOwnMockPort() throws {
        let tests = try E2E.attemptsByTest(in: report)
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: report.appendingPathComponent("results.json"))) as? [String: Any])
        let batches = try XCTUnwrap(json["batches"] as? [[String: Any]])
        let batchPort = Dictionary(uniqueKeysWithValues: batches.compactMap { b in (b["id"] as? Int).map { ($0, b["mockPort"] as? Int ?? -1) } })
        var portsByWorker: [Int: Set<Int>] = [:]
        for n in 0..<4 {
            let attempts = try XCTUnwrap(tests["tests/ui/test_ports.py::test_mock_port_is_this_workers[\(n)]"])
            for a in attempts {
                let output = a["output"] as? String ?? ""
                let shard = try XCTUnwrap(a["worker"] as? Int)
                let line = try XCTUnwrap(output.split(separator: "\n").first { $0.hasPrefix("mock port ") }, output)
                let parts = line.split(separator: " ")
                XCTAssertEqual(Int(parts[4]), shard, "the test saw its own ROBOTCI_WORKER_INDEX")
                let port = try XCTUnwrap(Int(parts[2]))
                XCTAssertEqual(port, batchPort[a["batch"] as? Int ?? -1], "the test served on the port robotci gave its batch")
                portsByWorker[shard, default: []].insert(port)
            }
        }
        print("robotci-e2e: mock ports by shard: \(portsByWorker)")
        let all = portsByWorker.values.flatMap { $0 }
        XCTAssertEqual(all.count, Set(all).count, "no two workers shared a mock port")
    }

    /// The test prints a secret-looking variable and fails with the whole environment in its
    /// message: no file of the report may contain the value.
    func testSecretValuesNeverReachTheReport() throws {
        let files = FileManager.default.enumerator(at: report, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? []
        var checked = 0
        for file in files where !file.hasDirectoryPath {
            guard let data = try? Data(contentsOf: file) else { continue }
            checked += 1
            XCTAssertNil(data.range(of: Data(Self.secret.utf8)), "\(file.path) contains the secret")
        }
        XCTAssertGreaterThan(checked, 5)
        let results = try String(contentsOf: report.appendingPathComponent("results.json"), encoding: .utf8)
        XCTAssertTrue(results.contains("DEPLOY_TOKEN is ***"), "masked, not dropped")
    }

    func testRunCommandWithoutJUnitPlaceholderIsRejected() throws {
        let dir = E2E.temporaryDirectory("badcommand")
        try "driver: command\nlist: echo a\nrun: pytest {tests}\n".write(to: dir.appendingPathComponent("robotci.yml"), atomically: true, encoding: .utf8)
        let r = try E2E.run(["run", "--package", dir.path, "--report-dir", dir.appendingPathComponent("r").path], cwd: dir.path)
        XCTAssertEqual(r.status, 2)
        XCTAssertTrue(r.stderr.contains("robotci.yml:3") && r.stderr.contains("{junit}"), r.stderr)
    }
}
