import Foundation
import RedisTestSupport
import XCTest
#if canImport(FoundationXML)
import FoundationXML
#endif
#if canImport(Glibc)
import Glibc
#endif

/// `--queue redis://…`: several robotci processes ("machines") on one real redis-server.
final class QueueEndToEndTests: XCTestCase {
    private var server: RedisServer!
    private var started: [Process] = []

    override class func setUp() {
        super.setUp()
        try? E2E.buildFixture("Queue")
    }

    override func setUpWithError() throws { server = try RedisServer() }

    override func tearDown() {
        for p in started where p.isRunning { kill(p.processIdentifier, SIGKILL); p.waitUntilExit() }
        server?.stop()
    }

    private let base = ["run", "--package", E2E.fixture("Queue"), "--skip-build", "--retries", "1", "--shards", "2"]

    private func queue(_ name: String) -> String { "redis://127.0.0.1:\(server.port)/\(name)" }

    /// Starts robotci without waiting; output goes to `log`.
    private func start(_ args: [String], env: [String: String], log: URL) throws -> Process {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: E2E.robotci)
        p.arguments = args
        var environment = ProcessInfo.processInfo.environment
        environment["CI"] = "true"
        for (k, v) in env { environment[k] = v }
        p.environment = environment
        FileManager.default.createFile(atPath: log.path, contents: nil)
        let handle = try FileHandle(forWritingTo: log)
        p.standardOutput = handle
        p.standardError = handle
        try p.run()
        started.append(p)
        return p
    }

    private func wait(_ p: Process, timeout: Double = 120) {
        let deadline = Date().addingTimeInterval(timeout)
        while p.isRunning && Date() < deadline { usleep(50_000) }
        if p.isRunning { kill(p.processIdentifier, SIGKILL) }
        p.waitUntilExit()
    }

    /// `testcase` elements per `classname/name` (to prove "exactly once", not just "present").
    private func testcaseCounts(_ junit: URL) throws -> [String: Int] {
        let doc = try XMLDocument(contentsOf: junit, options: [])
        var counts: [String: Int] = [:]
        for node in try doc.nodes(forXPath: "//testcase") {
            guard let el = node as? XMLElement else { continue }
            counts["\(el.attribute(forName: "classname")?.stringValue ?? "")/\(el.attribute(forName: "name")?.stringValue ?? "")", default: 0] += 1
        }
        return counts
    }

    private func singleMachineVerdicts(_ root: URL) throws -> [String: String] {
        let single = root.appendingPathComponent("single")
        let r = try E2E.run(base + ["--report-dir", single.path])
        XCTAssertEqual(r.status, 1, r.stderr)
        return try E2E.junitVerdicts(single.appendingPathComponent("junit.xml")).mapValues(\.verdict)
    }

    private func mergedReport(_ name: String, _ root: URL) throws -> (verdicts: [String: String], counts: [String: Int], machines: [String]) {
        let merged = root.appendingPathComponent("merged")
        let r = try E2E.run(["report", "--queue", queue(name), "--output", merged.path])
        XCTAssertEqual(r.status, 0, r.stderr)
        for file in ["junit.xml", "results.json", "timings.json", "index.html"] {
            XCTAssertTrue(FileManager.default.fileExists(atPath: merged.appendingPathComponent(file).path), file)
        }
        let junit = merged.appendingPathComponent("junit.xml")
        let results = try JSONSerialization.jsonObject(with: Data(contentsOf: merged.appendingPathComponent("results.json"))) as? [String: Any]
        let machines = (results?["metadata"] as? [String: Any])?["machines"] as? [String] ?? []
        return (try E2E.junitVerdicts(junit).mapValues(\.verdict), try testcaseCounts(junit), machines)
    }

    func testThreeMachinesOnOneQueueGiveTheVerdictsOfOneMachine() throws {
        let root = E2E.temporaryDirectory("queue3")
        let expected = try singleMachineVerdicts(root)
        XCTAssertEqual(expected.count, 31)
        XCTAssertEqual(Set(expected.values).count, 5, "fixture covers pass/fail/flaky/crash/skip: \(Set(expected.values))")
        var machines: [Process] = []
        for m in 1...3 {
            machines.append(try start(base + ["--queue", queue("three"), "--report-dir", root.appendingPathComponent("m\(m)").path],
                                      env: ["ROBOTCI_MACHINE": "m\(m)"], log: root.appendingPathComponent("m\(m).log")))
        }
        machines.forEach { wait($0) }
        for (i, p) in machines.enumerated() {
            let log = (try? String(contentsOf: root.appendingPathComponent("m\(i + 1).log"), encoding: .utf8)) ?? ""
            XCTAssertEqual(p.terminationStatus, 1, "every machine exits with the whole run's verdict (tests fail)\n\(log)")
            XCTAssertTrue(log.contains("31 tests on 3 machines"), log)
            XCTAssertTrue(FileManager.default.fileExists(atPath: root.appendingPathComponent("m\(i + 1)/results.jsonl").path), "own journal")
        }
        let (verdicts, counts, lanes) = try mergedReport("three", root)
        XCTAssertEqual(counts.count, 31)
        XCTAssertEqual(counts.values.filter { $0 != 1 }, [], "every test exactly once: \(counts.filter { $0.value != 1 })")
        XCTAssertEqual(verdicts, expected)
        XCTAssertEqual(lanes, ["m1", "m2", "m3"])

        // A machine that built another test list cannot join: exit 2, nothing runs.
        let other = try E2E.run(base + ["--queue", queue("three"), "--filter", "SlowTests", "--report-dir", root.appendingPathComponent("m4").path])
        XCTAssertEqual(other.status, 2, other.stderr)
        XCTAssertTrue(other.stderr.contains("planned for another test list (31 tests"), other.stderr)
    }

    func testKillNineOfOneMachineItsBatchesRunElsewhere() throws {
        let root = E2E.temporaryDirectory("queuekill")
        let expected = try singleMachineVerdicts(root)
        let env = ["QUEUE_SLEEP": "0.5"]
        var machines: [Process] = []
        for m in 1...3 {
            machines.append(try start(base + ["--queue", queue("kill"), "--queue-lease-timeout", "2",
                                              "--report-dir", root.appendingPathComponent("m\(m)").path],
                                      env: env.merging(["ROBOTCI_MACHINE": "m\(m)"]) { a, _ in a }, log: root.appendingPathComponent("m\(m).log")))
        }
        // Kill machine 1 once it has finished two tests (it then holds leases mid-batch).
        let journal = root.appendingPathComponent("m1/results.jsonl")
        waitForAttempts(2, in: journal)
        kill(machines[0].processIdentifier, SIGKILL)
        machines.forEach { wait($0) }
        XCTAssertEqual(machines[0].terminationReason, .uncaughtSignal)
        for i in 1...2 {
            let log = (try? String(contentsOf: root.appendingPathComponent("m\(i + 1).log"), encoding: .utf8)) ?? ""
            XCTAssertEqual(machines[i].terminationStatus, 1, log)
        }
        let (verdicts, counts, _) = try mergedReport("kill", root)
        XCTAssertEqual(counts.count, 31, "nothing lost")
        XCTAssertEqual(counts.values.filter { $0 != 1 }, [], "nothing duplicated")
        XCTAssertEqual(verdicts, expected)
        // Machine 1 was killed mid-batch (two results in, a test running), so the rest of its
        // leased batch only ran because the lease expired and m2/m3 took it.
        let m1 = (try? String(contentsOf: journal, encoding: .utf8)) ?? ""
        XCTAssertFalse(m1.contains("\"type\":\"finished\""), "m1 did not finish")
        XCTAssertTrue(E2E.processes(withEnvironment: "ROBOTCI_MACHINE=m1").isEmpty, "machine 1's workers died with it")
    }

    /// Waits (up to 60 s) until a machine's journal holds `count` attempts: it is mid-run.
    private func waitForAttempts(_ count: Int, in journal: URL) {
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            let text = (try? String(contentsOf: journal, encoding: .utf8)) ?? ""
            if text.components(separatedBy: "\"type\":\"attempt\"").count - 1 >= count { return }
            usleep(20_000)
        }
    }

    func testAnInterruptedMachineExits130AndTheOthersRunItsBatches() throws {
        let root = E2E.temporaryDirectory("queueint")
        var machines: [Process] = []
        for m in 1...2 {
            machines.append(try start(base + ["--queue", queue("int"), "--queue-lease-timeout", "2", "--filter", "SlowTests",
                                              "--report-dir", root.appendingPathComponent("m\(m)").path],
                                      env: ["QUEUE_SLEEP": "0.4", "ROBOTCI_MACHINE": "m\(m)"], log: root.appendingPathComponent("m\(m).log")))
        }
        let journal = root.appendingPathComponent("m1/results.jsonl")
        waitForAttempts(2, in: journal)
        kill(machines[0].processIdentifier, SIGTERM)
        machines.forEach { wait($0) }
        XCTAssertEqual(machines[0].terminationStatus, 130)
        let log = (try? String(contentsOf: root.appendingPathComponent("m2.log"), encoding: .utf8)) ?? ""
        XCTAssertEqual(machines[1].terminationStatus, 0, log)
        let (verdicts, counts, _) = try mergedReport("int", root)
        XCTAssertEqual(counts.count, 27, "the interrupted machine's leased batches ran on m2")
        XCTAssertEqual(counts.values.filter { $0 != 1 }, [])
        XCTAssertEqual(Set(verdicts.values), ["passed"])
    }

    func testRedisGoingAwayMidRunKeepsFinishedResults() throws {
        let root = E2E.temporaryDirectory("queuelost")
        let report = root.appendingPathComponent("m1")
        let p = try start(base + ["--queue", queue("lost"), "--filter", "SlowTests", "--report-dir", report.path],
                          env: ["QUEUE_SLEEP": "0.4", "ROBOTCI_MACHINE": "m1"], log: root.appendingPathComponent("m1.log"))
        let journal = report.appendingPathComponent("results.jsonl")
        let deadline = Date().addingTimeInterval(60)
        var before = 0
        while Date() < deadline {
            let text = (try? String(contentsOf: journal, encoding: .utf8)) ?? ""
            before = text.components(separatedBy: "\"type\":\"attempt\"").count - 1
            if before >= 3 { break }
            usleep(20_000)
        }
        server.stop()
        wait(p)
        let log = (try? String(contentsOf: root.appendingPathComponent("m1.log"), encoding: .utf8)) ?? ""
        XCTAssertEqual(p.terminationStatus, 2, "a lost queue never passes\n\(log)")
        XCTAssertTrue(log.contains("lost the queue \(queue("lost"))"), log)
        XCTAssertTrue(log.contains("the run is incomplete"), log)
        let verdicts = try E2E.junitVerdicts(report.appendingPathComponent("junit.xml"))
        XCTAssertGreaterThanOrEqual(verdicts.count, before, "every result finished before redis went away is in the report")
        XCTAssertLessThan(verdicts.count, 27, "the run stopped leasing")
    }

    func testBadOrUnreachableQueueIsExitTwo() throws {
        let bad = try E2E.run(base + ["--queue", "http://127.0.0.1:1/x"])
        XCTAssertEqual(bad.status, 2)
        XCTAssertTrue(bad.stderr.contains("--queue: queue 'http://127.0.0.1:1/x' is not a redis URL"), bad.stderr)
        let port = RedisServer.freePort()
        let down = try E2E.run(base + ["--queue", "redis://127.0.0.1:\(port)/x"])
        XCTAssertEqual(down.status, 2)
        XCTAssertTrue(down.stderr.contains("cannot connect to redis at 127.0.0.1:\(port)"), down.stderr)
        let missing = try E2E.run(["report", "--queue", queue("never"), "--output", E2E.temporaryDirectory("never").path])
        XCTAssertEqual(missing.status, 2)
        XCTAssertTrue(missing.stderr.contains("no run named 'never'"), missing.stderr)
    }
}
