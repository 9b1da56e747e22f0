import Foundation
import TestSupport
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
        try Data().write(to: log)
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

    /// `robotci report --queue`, which exits with the whole run's verdict (`status`).
    private func mergedReport(_ name: String, _ root: URL, status: Int32) throws -> (verdicts: [String: String], counts: [String: Int], machines: [String]) {
        let merged = root.appendingPathComponent("merged")
        let r = try E2E.run(["report", "--queue", queue(name), "--output", merged.path])
        XCTAssertEqual(r.status, status, "report --queue exits with the run's verdict\n\(r.stdout)\(r.stderr)")
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
            XCTAssertTrue(log.contains("robotci: queue: 31 planned, 31 accounted for"), log)
            XCTAssertTrue(log.contains("this machine's share:"), "a machine's own table is labelled as its share\n\(log)")
            XCTAssertTrue(FileManager.default.fileExists(atPath: root.appendingPathComponent("m\(i + 1)/results.jsonl").path), "own journal")
        }
        let (verdicts, counts, lanes) = try mergedReport("three", root, status: 1)
        XCTAssertEqual(counts.count, 31)
        XCTAssertEqual(counts.values.filter { $0 != 1 }, [], "every test exactly once: \(counts.filter { $0.value != 1 })")
        XCTAssertEqual(verdicts, expected)
        XCTAssertEqual(lanes, ["m1", "m2", "m3"])

        // The machines' own folders carry the queue run's plan: merged, they account for the
        // whole run, and a merge that leaves a machine's folder out names what it lacks.
        let folders = (1...3).map { root.appendingPathComponent("m\($0)").path }
        let all3 = try E2E.run(["merge"] + folders + ["--output", root.appendingPathComponent("merged-folders").path])
        XCTAssertEqual(all3.status, 1, all3.stderr)
        XCTAssertTrue(all3.stderr.contains("robotci: 31 planned, 31 accounted for\n"), all3.stderr)
        let m3ran = (try? E2E.attemptsByTest(in: root.appendingPathComponent("m3")))?.count ?? 0
        if m3ran > 0 {
            let two = try E2E.run(["merge"] + folders.prefix(2) + ["--output", root.appendingPathComponent("merged-two").path])
            XCTAssertEqual(two.status, 1, two.stderr)
            XCTAssertTrue(two.stderr.contains("31 planned, 31 accounted for") && two.stderr.contains("not run)"), two.stderr)
            XCTAssertTrue(two.stderr.contains("a machine's folder is missing from the merge"), two.stderr)
        }

        // A machine that built another test list cannot join: exit 2, nothing runs.
        let other = try E2E.run(base + ["--queue", queue("three"), "--filter", "SlowTests", "--report-dir", root.appendingPathComponent("m4").path])
        XCTAssertEqual(other.status, 2, other.stderr)
        XCTAssertTrue(other.stderr.contains("planned for another test list (31 tests"), other.stderr)

        // CI re-runs a job with the same queue name: the run is over, so its tests that did not
        // pass run again in the same run (new attempts); the queue's report shows both.
        let failing = expected.filter { ["failed", "crashed", "timedOut", "notRun"].contains($0.value) }
        XCTAssertGreaterThan(failing.count, 0)
        let attemptsBefore = try attemptCounts("three", root.appendingPathComponent("before-rerun"))
        let again = try E2E.run(base + ["--queue", queue("three"), "--report-dir", root.appendingPathComponent("m5").path])
        XCTAssertEqual(again.status, 1, "the failing tests fail again\n\(again.stderr)")
        XCTAssertTrue(again.stderr.contains("the queue three finished earlier (run "), again.stderr)
        XCTAssertTrue(again.stderr.contains("with \(failing.count) tests that did not pass; re-opened it"), again.stderr)
        XCTAssertTrue(again.stderr.contains("robotci: queue: 31 planned, 31 accounted for"), again.stderr)
        let attemptsAfter = try attemptCounts("three", root.appendingPathComponent("after-rerun"))
        for (id, n) in attemptsBefore {
            XCTAssertEqual(attemptsAfter[id], failing[id] == nil ? n : n + 1, "\(id): one new attempt if it did not pass, else unchanged")
        }
    }

    /// Every test's number of attempts in the queue's report.
    private func attemptCounts(_ name: String, _ out: URL) throws -> [String: Int] {
        let r = try E2E.run(["report", "--queue", queue(name), "--output", out.path])
        XCTAssertEqual(r.status, 1, "tests failed: report --queue exits 1\n\(r.stderr)")
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("results.json"))) as? [String: Any]
        var counts: [String: Int] = [:]
        for t in json?["tests"] as? [[String: Any]] ?? [] { counts[E2E.idText(t["id"]) ?? "?"] = (t["attempts"] as? [Any])?.count ?? 0 }
        return counts
    }

    /// A queue run with nothing left that did not pass, joined again: said plainly, its
    /// verdict is the exit code, nothing runs.
    func testJoiningAPassedQueueRunsNothingAndSaysSo() throws {
        let root = E2E.temporaryDirectory("queuepassed")
        let args = base + ["--queue", queue("passed"), "--filter", "SlowTests/test0[1-4]"]
        let first = try E2E.run(args + ["--report-dir", root.appendingPathComponent("m1").path], env: ["QUEUE_SLEEP": "0.01"])
        XCTAssertEqual(first.status, 0, first.stderr)
        let again = try E2E.run(args + ["--report-dir", root.appendingPathComponent("m2").path], env: ["QUEUE_SLEEP": "0.01"])
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertTrue(again.stderr.contains("the queue passed already finished (run "), again.stderr)
        XCTAssertTrue(again.stderr.contains("this machine ran nothing; its verdict: PASSED"), again.stderr)
        XCTAssertTrue(again.stderr.contains("4 planned, 4 accounted for"), again.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: root.appendingPathComponent("m2/results.jsonl").path), "ran nothing")
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
        let (verdicts, counts, _) = try mergedReport("kill", root, status: 1)
        XCTAssertEqual(counts.count, 31, "nothing lost")
        XCTAssertEqual(counts.values.filter { $0 != 1 }, [], "nothing duplicated")
        XCTAssertEqual(verdicts, expected)
        // Machine 1 was killed mid-batch (two results in, a test running), so the rest of its
        // leased batch only ran because the lease expired and m2/m3 took it.
        let m1 = (try? String(contentsOf: journal, encoding: .utf8)) ?? ""
        XCTAssertFalse(m1.contains("\"type\":\"finished\""), "m1 did not finish")
        XCTAssertTrue(E2E.processes(withEnvironment: "ROBOTCI_MACHINE=m1").isEmpty, "machine 1's workers died with it")
    }

    /// Issue 36: every attempt counts. Machine 1 is stopped (SIGSTOP) mid-test past its lease;
    /// machine 2 takes the batch and passes it; machine 1 resumes and reports its failure
    /// late. The test is flaky, never passed, and fails machine 1's run under --fail-on-flaky.
    func testALateFailureFromAStalledMachineMakesTheTestFlaky() throws {
        let root = E2E.temporaryDirectory("queuelate")
        let args = base + ["--queue", queue("late"), "--queue-lease-timeout", "2", "--retries", "0", "--test-timeout", "120",
                           "--filter", "SlowTests/test01$"]
        let m1 = try start(args + ["--fail-on-flaky", "--report-dir", root.appendingPathComponent("m1").path],
                           env: ["QUEUE_FAIL_ALL": "1", "QUEUE_SLEEP": "8", "ROBOTCI_MACHINE": "m1"], log: root.appendingPathComponent("m1.log"))
        // Stop robotci (not its test process) once the test has run a while: robotci has read
        // its start line, and the test fails 8 s after it started.
        let deadline = Date().addingTimeInterval(60)
        func testRuns() -> Bool { E2E.processes(withEnvironment: "ROBOTCI_MACHINE=m1").contains { $0.contains("SlowTests/test01") } }
        while Date() < deadline && !testRuns() { usleep(20_000) }
        XCTAssertTrue(testRuns(), "machine 1 runs the test")
        Thread.sleep(forTimeInterval: 1.5)
        kill(m1.processIdentifier, SIGSTOP)
        let m2 = try E2E.run(args + ["--report-dir", root.appendingPathComponent("m2").path], env: ["QUEUE_SLEEP": "0.01", "ROBOTCI_MACHINE": "m2"])
        XCTAssertEqual(m2.status, 0, "machine 2 passed the batch it took over\n\(m2.stderr)")
        XCTAssertFalse(m2.stderr.contains("finished earlier"), "m2 took over m1's lease, it did not re-open a finished run\n\(m2.stderr)")
        kill(m1.processIdentifier, SIGCONT)
        wait(m1)
        let log = (try? String(contentsOf: root.appendingPathComponent("m1.log"), encoding: .utf8)) ?? ""
        XCTAssertEqual(m1.terminationStatus, 1, "the whole run has a flaky test: --fail-on-flaky fails it\n\(log)")
        XCTAssertTrue(log.contains("0 passed, 0 failing, 1 flaky"), log)

        let out = root.appendingPathComponent("merged")
        let r = try E2E.run(["report", "--queue", queue("late"), "--output", out.path])
        XCTAssertEqual(r.status, 0, "flaky passes without --fail-on-flaky\n\(r.stdout)\(r.stderr)")
        let verdicts = try E2E.junitVerdicts(out.appendingPathComponent("junit.xml")).mapValues(\.verdict)
        XCTAssertEqual(verdicts, ["QueueTests.SlowTests/test01": "flaky"], r.stdout)
        let attempts = try XCTUnwrap(try E2E.attemptsByTest(in: out)["QueueTests.SlowTests/test01"])
        XCTAssertEqual(attempts.map { $0["outcome"] as? String }, ["failed", "passed"], "both attempts, in the order they ran")
        XCTAssertEqual(attempts.map { $0["number"] as? Int }, [1, 1], "two results of one attempt: the lease's and the late one")
        XCTAssertEqual(Set(attempts.compactMap { $0["machine"] as? String }), ["m1", "m2"])
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
        XCTAssertTrue(log.contains("robotci: queue: 27 planned, 27 accounted for"), log)
        let (verdicts, counts, _) = try mergedReport("int", root, status: 0)
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
        XCTAssertTrue(log.contains("planned tests never ran:"), "the tests without a result are named\n\(log)")
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

    // MARK: issue 25: Redis loses the run mid-way; no machine may pass

    /// `redis-cli` against the test's server.
    private func redisCLI(_ args: [String]) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/redis-cli")
        p.arguments = ["-p", String(server.port)] + args
        p.standardOutput = FileHandle.nullDevice
        try? p.run()
        p.waitUntilExit()
    }

    /// Two machines on `name` (SlowTests: 27 tests); `fault` runs once machine 1 has 3
    /// results. Returns each machine's exit status and log.
    private func twoMachines(_ name: String, root: URL, fault: () throws -> Void) throws -> [(status: Int32, log: String)] {
        var machines: [Process] = []
        for m in 1...2 {
            machines.append(try start(base + ["--queue", queue(name), "--filter", "SlowTests", "--report-dir", root.appendingPathComponent("m\(m)").path],
                                      env: ["QUEUE_SLEEP": "0.3", "ROBOTCI_MACHINE": "m\(m)"], log: root.appendingPathComponent("m\(m).log")))
        }
        waitForAttempts(3, in: root.appendingPathComponent("m1/results.jsonl"))
        try fault()
        machines.forEach { wait($0) }
        return machines.enumerated().map { i, p in
            (p.terminationStatus, (try? String(contentsOf: root.appendingPathComponent("m\(i + 1).log"), encoding: .utf8)) ?? "")
        }
    }

    /// `robotci report --queue`'s results.json: outcome and reason per test id.
    private func queueResults(_ name: String, root: URL, status: Int32) throws -> (stdout: String, tests: [String: (outcome: String, reason: String?)]) {
        let out = root.appendingPathComponent("merged")
        let r = try E2E.run(["report", "--queue", queue(name), "--output", out.path])
        XCTAssertEqual(r.status, status, "report --queue exits with the run's verdict\n\(r.stdout)\(r.stderr)")
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("results.json"))) as? [String: Any]
        var tests: [String: (String, String?)] = [:]
        for t in json?["tests"] as? [[String: Any]] ?? [] {
            tests[E2E.idText(t["id"]) ?? "?"] = (t["outcome"] as? String ?? "?", t["reason"] as? String)
        }
        return (r.stdout, tests)
    }

    /// Every machine fails (2: lost), names what never ran, and the queue's report has all
    /// 27 tests with the ones no machine ran as notRun.
    private func assertLost(_ results: [(status: Int32, log: String)], name: String, root: URL, cause: String) throws {
        for (status, log) in results {
            XCTAssertEqual(status, 2, "a lost queue is exit 2 on every machine\n\(log)")
            XCTAssertTrue(log.contains(cause) || log.contains("another machine found this run"), log)
            XCTAssertTrue(log.contains("the run is incomplete"), log)
            XCTAssertTrue(log.contains("planned tests never ran:") && log.contains("NOT RUN     QueueTests.SlowTests/test"), log)
            XCTAssertTrue(log.contains("robotci: queue: 27 planned, 27 accounted for"), log)
            XCTAssertFalse(log.contains("robotci: PASSED"), log)
        }
        XCTAssertTrue(results.contains { $0.log.contains(cause) }, "the first to see it names the cause")
        let (stdout, tests) = try queueResults(name, root: root, status: 2)
        XCTAssertEqual(tests.count, 27, stdout)
        let notRun = tests.filter { $0.value.outcome == "notRun" }
        XCTAssertGreaterThan(notRun.count, 0, stdout)
        XCTAssertLessThan(notRun.count, 27, "what the machines ran was put back\n\(stdout)")
        XCTAssertTrue(notRun.values.allSatisfy { $0.reason?.contains("the queue was lost mid-run") == true }, "\(notRun)")
        XCTAssertTrue(stdout.contains("27 planned, 27 accounted for (\(27 - notRun.count) with a result, \(notRun.count) not run)"), stdout)
        print("QUEUE-LOST | \(name) | exits \(results.map(\.status)) | \(notRun.count) of 27 not run")
    }

    func testFlushAllMidRunFailsEveryMachineAndNamesWhatNeverRan() throws {
        let root = E2E.temporaryDirectory("queueflush")
        let results = try twoMachines("flush", root: root) { redisCLI(["FLUSHALL"]) }
        try assertLost(results, name: "flush", root: root, cause: "its plan vanished mid-run")
    }

    func testRedisRestartedWithoutPersistenceMidRunFailsEveryMachine() throws {
        let root = E2E.temporaryDirectory("queuerestart")
        let results = try twoMachines("restart", root: root) {
            let port = server.port
            server.stop()
            usleep(300_000)
            server = try RedisServer(port: port)
        }
        try assertLost(results, name: "restart", root: root, cause: "its plan vanished mid-run")
    }

    func testADeletedQueueKeyMidRunFailsEveryMachineAndItsTestsAreNotRun() throws {
        let root = E2E.temporaryDirectory("queuedel")
        let results = try twoMachines("del", root: root) { redisCLI(["DEL", "robotci:del:queue"]) }
        for (status, log) in results {
            XCTAssertEqual(status, 1, "tests that never ran fail the whole run\n\(log)")
            XCTAssertTrue(log.contains("planned tests never ran:") && log.contains("its batch was lost (an evicted or deleted key?)"), log)
            XCTAssertTrue(log.contains("queue verdict (the whole run): FAILED"), log)
        }
        let (stdout, tests) = try queueResults("del", root: root, status: 1)
        XCTAssertEqual(tests.count, 27, stdout)
        let notRun = tests.filter { $0.value.outcome == "notRun" }.count
        XCTAssertGreaterThan(notRun, 0, stdout)
        print("QUEUE-LOST | del queue key | exits \(results.map(\.status)) | \(notRun) of 27 not run")
    }

    func testABatchWithTestsThisMachineDidNotDiscoverIsRefused() throws {
        let root = E2E.temporaryDirectory("queueforged")
        let p = try start(base + ["--queue", queue("forged"), "--filter", "SlowTests", "--report-dir", root.appendingPathComponent("m1").path],
                          env: ["QUEUE_SLEEP": "0.3", "ROBOTCI_MACHINE": "m1"], log: root.appendingPathComponent("m1.log"))
        waitForAttempts(2, in: root.appendingPathComponent("m1/results.jsonl"))
        redisCLI(["HSET", "robotci:forged:batches", "9999", #"{"tests":[{"test":"Evil.Tests/testRm"}],"attempt":1}"#])
        redisCLI(["LPUSH", "robotci:forged:queue", "9999"])
        wait(p)
        let log = (try? String(contentsOf: root.appendingPathComponent("m1.log"), encoding: .utf8)) ?? ""
        XCTAssertEqual(p.terminationStatus, 2, log)
        XCTAssertTrue(log.contains("handed this machine batch 9999 with 1 test it did not discover (Evil.Tests/testRm)"), log)
        let journal = (try? String(contentsOf: root.appendingPathComponent("m1/results.jsonl"), encoding: .utf8)) ?? ""
        XCTAssertFalse(journal.contains("Evil"), "the forged test never ran")
    }
}
