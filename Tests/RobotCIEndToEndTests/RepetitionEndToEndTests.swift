import Foundation
import TestSupport
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// The report folder's results.json, plainly: every test with its verdict and attempts.
private struct Report {
    let json: [String: Any]
    let tests: [String: (outcome: String, attempts: [[String: Any]])]
    let batches: [[String: Any]]

    init(_ folder: URL) throws {
        json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent("results.json"))) as? [String: Any])
        var tests: [String: (String, [[String: Any]])] = [:]
        for t in json["tests"] as? [[String: Any]] ?? [] {
            tests[E2E.idText(t["id"]) ?? "?"] = (t["outcome"] as? String ?? "?", t["attempts"] as? [[String: Any]] ?? [])
        }
        self.tests = tests
        batches = json["batches"] as? [[String: Any]] ?? []
    }

    var metadata: [String: Any] { json["metadata"] as? [String: Any] ?? [:] }
    var planned: [String] { E2E.idTexts((json["plan"] as? [String: Any])?["tests"]) }
}

/// `--repeat-each N`: every repetition is a test of its own (planned, retried, reported and
/// written to JUnit as `name (repeat k of N)`), run in its own batch, left out of timings.json
/// and of the history's flake rates; one failing repetition fails the run.
final class RepeatEachEndToEndTests: XCTestCase {
    override class func setUp() {
        super.setUp()
        try? E2E.buildFixture("Queue")
    }

    func testEveryRepetitionIsATestOfItsOwnWithItsOwnRetries() throws {
        let dir = E2E.temporaryDirectory("repeat")
        defer { try? FileManager.default.removeItem(at: dir) }
        let report = dir.appendingPathComponent("report")
        let base = ["run", "--package", E2E.fixture("Queue"), "--skip-build", "--shards", "2", "--report-dir", report.path]

        // A plain run first: its timings and its history column must survive the burn-in.
        let plain = try E2E.run(base + ["--filter", "SlowTests/test0[12]$"], env: ["QUEUE_SLEEP": "0.01"])
        XCTAssertEqual(plain.status, 0, plain.stderr)
        let timingsBefore = try Data(contentsOf: report.appendingPathComponent("timings.json"))
        let historyBefore = try Data(contentsOf: report.appendingPathComponent("history.json"))

        let r = try E2E.run(base + ["--filter", "SlowTests/test0[12]$|FailingTests|FlakyTests", "--repeat-each", "3", "--retries", "1"],
                            env: ["QUEUE_SLEEP": "0.01"])
        XCTAssertEqual(r.status, 1, "a failing repetition fails the run\n\(r.stderr)")
        XCTAssertTrue(r.stderr.contains("--repeat-each 3: 4 tests × 3 = 12 test runs"), r.stderr)
        XCTAssertTrue(r.stderr.contains("robotci: 12 planned, 12 accounted for"), r.stderr)
        XCTAssertTrue(r.stderr.contains("robotci: each test 3 times (--repeat-each 3)"), r.stderr)

        let run = try Report(report)
        XCTAssertEqual(run.tests.count, 12)
        XCTAssertEqual(run.planned.count, 12)
        for k in 1...3 {
            let suffix = " (repeat \(k) of 3)"
            // Retries apply to each repetition: the always-failing test fails each after 2
            // attempts, the test that fails its first attempt is flaky in each.
            XCTAssertEqual(run.tests["QueueTests.FailingTests/testFails" + suffix]?.outcome, "failed")
            XCTAssertEqual(run.tests["QueueTests.FailingTests/testFails" + suffix]?.attempts.count, 2)
            XCTAssertEqual(run.tests["QueueTests.FlakyTests/testFailsOnce" + suffix]?.outcome, "flaky")
            XCTAssertEqual(run.tests["QueueTests.FlakyTests/testFailsOnce" + suffix]?.attempts.count, 2)
            XCTAssertEqual(run.tests["QueueTests.SlowTests/test01" + suffix]?.outcome, "passed")
            XCTAssertEqual(run.tests["QueueTests.SlowTests/test02" + suffix]?.attempts.count, 1)
        }
        let repetitions = try XCTUnwrap(run.metadata["repetitions"] as? [String: Any])
        XCTAssertEqual(repetitions["count"] as? Int, 3)
        XCTAssertEqual(repetitions["ran"] as? Int, 3)

        // Each repetition ran as a work item of its own: no batch holds two repetitions of a
        // test, so the three runs of a test are three batches (on whichever shard was free).
        var batchesOfTest: [String: Set<Int>] = [:]
        for batch in run.batches {
            let tests = E2E.idTexts(batch["tests"])
            let bases = tests.map { $0.components(separatedBy: " (repeat ").first ?? $0 }
            XCTAssertEqual(Set(bases).count, bases.count, "two repetitions of one test in batch \(batch)")
            let indexes = Set(tests.compactMap { $0.components(separatedBy: " (repeat ").last?.first })
            XCTAssertEqual(indexes.count, 1, "one repetition per batch: \(tests)")
            for (t, b) in zip(bases, tests.map { _ in batch["id"] as? Int ?? -1 }) { batchesOfTest[t, default: []].insert(b) }
        }
        XCTAssertEqual(batchesOfTest["QueueTests.SlowTests/test01"]?.count, 3)
        let shards = Set(run.batches.compactMap { $0["worker"] as? Int })
        print("REPEAT-EACH | 4 tests × 3, retries 1, 2 shards | \(run.batches.count) batches on shards \(shards.sorted())")

        // JUnit: one <testcase> per repetition, told apart by name, each with its own verdict.
        let junit = try E2E.junitVerdicts(report.appendingPathComponent("junit.xml"))
        XCTAssertEqual(junit.count, 12)
        XCTAssertEqual(junit["QueueTests.FailingTests/testFails (repeat 2 of 3)"]?.verdict, "failed")
        XCTAssertEqual(junit["QueueTests.FlakyTests/testFailsOnce (repeat 3 of 3)"]?.verdict, "flaky")
        XCTAssertEqual(junit["QueueTests.SlowTests/test01 (repeat 1 of 3)"]?.verdict, "passed")

        // Burn-in runs measure nothing for the next run's plan and set no flake rate.
        XCTAssertEqual(try Data(contentsOf: report.appendingPathComponent("timings.json")), timingsBefore, "timings.json untouched")
        // The history's runs and columns are untouched; its flake ledger counts the burn-in as a run
        // of each test at this commit (FlakyTests/testFailsOnce was flaky in it).
        let before = try XCTUnwrap(try JSONSerialization.jsonObject(with: historyBefore) as? [String: Any])
        let after = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: report.appendingPathComponent("history.json"))) as? [String: Any])
        XCTAssertEqual(after["runs"] as? NSArray, before["runs"] as? NSArray, "no history column for a burn-in")
        XCTAssertEqual(after["tests"] as? NSDictionary, before["tests"] as? NSDictionary, "no history column for a burn-in")
        let ledgerRuns = ((after["ledger"] as? [String: Any])?["runs"] as? [Any])?.count
        XCTAssertEqual(ledgerRuns, 2, "the ledger has the plain run and the burn-in")
        let flaky = try E2E.run(["flaky", "--report-dir", report.path, "--json", "--package", E2E.fixture("Queue")])
        let rows = try XCTUnwrap((try JSONSerialization.jsonObject(with: Data(flaky.stdout.utf8)) as? [String: Any])?["tests"] as? [[String: Any]])
        let once = rows.first { ($0["id"] as? [String: Any])?["test"] as? String == "QueueTests.FlakyTests/testFailsOnce" }
        XCTAssertEqual(once?["flakyRuns"] as? Int, 1, flaky.stdout)
        XCTAssertEqual(once?["runs"] as? Int, 1, "three repetitions are one run of the test")
        let html = try String(contentsOf: report.appendingPathComponent("index.html"), encoding: .utf8)
        XCTAssertTrue(html.contains("\"repetitions\":\"each test 3 times (--repeat-each 3)\""), "the report says how the run repeated")
    }

    func testAllRepetitionsPassingPasses() throws {
        let dir = E2E.temporaryDirectory("repeat-green")
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try E2E.run(["run", "--package", E2E.fixture("Queue"), "--skip-build", "--filter", "SlowTests/test0[1-3]$", "--shards", "2",
                             "--repeat-each", "4", "--report-dir", dir.path], env: ["QUEUE_SLEEP": "0.01"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("robotci: 12 planned, 12 accounted for"), r.stderr)
        let run = try Report(dir)
        XCTAssertEqual(run.tests.values.filter { $0.outcome == "passed" }.count, 12)
        XCTAssertEqual(Set(run.tests.keys.filter { $0.hasPrefix("QueueTests.SlowTests/test03 (repeat ") }),
                       Set((1...4).map { "QueueTests.SlowTests/test03 (repeat \($0) of 4)" }))
    }
}

/// `--repeat-each` on many machines: repetitions are tests of the run like any other, so a
/// partition split and a queue spread them over machines, and the merged run accounts for N ×
/// tests.
final class RepeatEachManyMachinesEndToEndTests: XCTestCase {
    override class func setUp() {
        super.setUp()
        try? E2E.buildFixture("Queue")
    }

    private let args = ["run", "--package", E2E.fixture("Queue"), "--skip-build", "--filter", "SlowTests/test0[1-4]$|FailingTests",
                        "--retries", "0", "--shards", "2", "--repeat-each", "3"]

    func testPartitionsSplitRepetitionsAndMergeAccountsForAll() throws {
        let dir = E2E.temporaryDirectory("repeat-partitions")
        defer { try? FileManager.default.removeItem(at: dir) }
        var shares: [Set<String>] = []
        for k in 1...2 {
            let out = dir.appendingPathComponent("p\(k)")
            let r = try E2E.run(args + ["--partition", "\(k)/2", "--report-dir", out.path],
                                env: ["QUEUE_SLEEP": "0.01", "ROBOTCI_RUN_ID": "repeat-split"])
            XCTAssertEqual(r.status, 1, "repetitions of the failing test are in both shares\n\(r.stderr)")
            shares.append(Set(try Report(out).tests.keys))
        }
        XCTAssertTrue(shares[0].isDisjoint(with: shares[1]))
        XCTAssertEqual(shares[0].count + shares[1].count, 15)
        let merged = dir.appendingPathComponent("merged")
        let m = try E2E.run(["merge", dir.appendingPathComponent("p1").path, dir.appendingPathComponent("p2").path, "--output", merged.path])
        XCTAssertEqual(m.status, 1, m.stderr)
        XCTAssertTrue(m.stderr.contains("15 planned, 15 accounted for"), m.stderr)
        let run = try Report(merged)
        XCTAssertEqual(run.tests.values.filter { $0.outcome == "failed" }.count, 3, "each repetition of FailingTests")
        XCTAssertEqual((run.metadata["repetitions"] as? [String: Any])?["count"] as? Int, 3)
        XCTAssertEqual(try E2E.junitVerdicts(merged.appendingPathComponent("junit.xml")).count, 15)
    }

    func testTwoMachinesOnAQueueRunEveryRepetitionOnce() throws {
        let server = try RedisServer()
        defer { server.stop() }
        let dir = E2E.temporaryDirectory("repeat-queue")
        defer { try? FileManager.default.removeItem(at: dir) }
        let queue = "redis://127.0.0.1:\(server.port)/repeat"
        var machines: [(process: Process, log: URL)] = []
        defer { for (p, _) in machines where p.isRunning { kill(p.processIdentifier, SIGKILL) } }
        machines = try E2E.startMachines(2, in: dir, env: ["QUEUE_SLEEP": "0.1"]) { m in
            self.args + ["--queue", queue, "--report-dir", dir.appendingPathComponent("m\(m)").path]
        }
        for (p, _) in machines { p.waitUntilExit() }
        for (p, log) in machines {
            let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            XCTAssertEqual(p.terminationStatus, 1, text)
            XCTAssertTrue(text.contains("robotci: queue: 15 planned, 15 accounted for"), text)
        }
        let merged = dir.appendingPathComponent("merged")
        let r = try E2E.run(["report", "--queue", queue, "--output", merged.path])
        XCTAssertEqual(r.status, 1, "report --queue exits with the run's verdict\n\(r.stderr)")
        let run = try Report(merged)
        XCTAssertEqual(run.tests.count, 15)
        XCTAssertTrue(run.tests.values.allSatisfy { $0.attempts.count == 1 }, "every repetition ran once, on one machine")
        XCTAssertEqual(run.tests.values.filter { $0.outcome == "failed" }.count, 3)
        let lanes = Set(run.batches.compactMap { $0["machine"] as? String })
        print("REPEAT-EACH | queue, 2 machines, 5 tests × 3 | machines with batches: \(lanes.sorted())")
    }
}

/// `--until-failure`: repetitions until one fails for good, at most `--repeat-each` (default
/// 100); after the first failure no repetition starts, the ones begun finish; the repetitions
/// that never began leave the plan; exit 1 on a failure, 0 when the cap ran clean.
final class UntilFailureEndToEndTests: XCTestCase {
    override class func setUp() {
        super.setUp()
        try? E2E.buildFixture("Queue")
    }

    private let args = ["run", "--package", E2E.fixture("Queue"), "--skip-build", "--filter", "SlowTests/test0[1-3]$", "--shards", "2",
                        "--retries", "0", "--until-failure"]

    func testStopsStartingRepetitionsAfterTheFirstFailure() throws {
        let dir = E2E.temporaryDirectory("until-failure")
        defer { try? FileManager.default.removeItem(at: dir) }
        // test02 fails on its 4th run (ROBOTCI_REPETITION tells the fixture which run it is).
        let r = try E2E.run(args + ["--repeat-each", "20", "--report-dir", dir.path],
                            env: ["QUEUE_SLEEP": "0.05", "QUEUE_FAIL_REPETITION": "4", "QUEUE_FAIL_TEST": "test02"])
        XCTAssertEqual(r.status, 1, r.stderr)
        XCTAssertTrue(r.stderr.contains("--until-failure: 3 tests, up to 20 repetitions, until one fails for good"), r.stderr)
        XCTAssertTrue(r.stderr.contains("robotci: --until-failure: QueueTests.SlowTests/test02 (repeat 4 of 20) failed; no new repetition starts"), r.stderr)
        let run = try Report(dir)
        let repetitions = try XCTUnwrap(run.metadata["repetitions"] as? [String: Any])
        XCTAssertEqual(E2E.idText(repetitions["firstFailure"]), "QueueTests.SlowTests/test02 (repeat 4 of 20)")
        let ran = try XCTUnwrap(repetitions["ran"] as? Int)
        // Two shards: while the failing repetition's process runs, the other shard may finish
        // the next and begin another (a test process reports when it ends; on a loaded CI
        // machine CI saw 6). What must hold is that none began after the failure was known:
        // after the failing batch's process ended (with 0.5 s for the router to hear of it on
        // a loaded machine; a stop that did not work would run on to the cap of 20).
        XCTAssertTrue((4..<10).contains(ran), "ran \(ran)")
        func repetition(_ id: String) -> Int? {
            guard let r = id.range(of: " (repeat ") else { return nil }
            return Int(id[r.upperBound...].prefix { $0.isNumber })
        }
        let failing = try XCTUnwrap(run.batches.first {
            E2E.idTexts($0["tests"]).contains("QueueTests.SlowTests/test02 (repeat 4 of 20)")
        })
        let known = try XCTUnwrap(failing["end"] as? Double) + 0.5
        for batch in run.batches {
            let reps = E2E.idTexts(batch["tests"]).compactMap(repetition)
            guard let rep = reps.first, rep > 4, let start = batch["start"] as? Double else { continue }
            XCTAssertLessThan(start, known, "repetition \(rep) began \(start) s, after the failure was known at \(known) s")
        }
        XCTAssertTrue(r.stderr.contains("robotci: --until-failure: \(ran) of up to 20 repetitions ran; QueueTests.SlowTests/test02 (repeat 4 of 20) failed first"), r.stderr)
        // Every repetition that began ran whole and is accounted for; none after it is planned.
        XCTAssertEqual(run.tests.count, 3 * ran)
        XCTAssertEqual(run.planned.count, 3 * ran)
        XCTAssertTrue(r.stderr.contains("robotci: \(3 * ran) planned, \(3 * ran) accounted for"), r.stderr)
        XCTAssertEqual(run.tests.values.filter { $0.outcome == "failed" }.count, 1)
        XCTAssertEqual(run.tests.values.filter { $0.outcome == "notRun" }.count, 0)
        XCTAssertEqual(run.tests["QueueTests.SlowTests/test02 (repeat 4 of 20)"]?.outcome, "failed")
        XCTAssertNil(run.tests["QueueTests.SlowTests/test01 (repeat \(ran + 1) of 20)"])
        print("UNTIL-FAILURE | 3 tests, cap 20, test02 fails on run 4, 2 shards | \(ran) repetitions ran, exit \(r.status)")
    }

    func testACleanRunStopsAtItsCapAndPasses() throws {
        let dir = E2E.temporaryDirectory("until-failure-green")
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try E2E.run(args + ["--repeat-each", "5", "--report-dir", dir.path], env: ["QUEUE_SLEEP": "0.01"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("robotci: --until-failure: all 5 of 5 repetitions ran without a failure (the cap)"), r.stderr)
        XCTAssertTrue(r.stderr.contains("robotci: 15 planned, 15 accounted for"), r.stderr)
        XCTAssertEqual(try Report(dir).tests.values.filter { $0.outcome == "passed" }.count, 15)
    }

    func testTheDefaultCapIsAHundredAndOneMachineOnly() throws {
        let dir = E2E.temporaryDirectory("until-failure-cap")
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try E2E.run(args + ["--report-dir", dir.path], env: ["QUEUE_SLEEP": "0.05", "QUEUE_FAIL_REPETITION": "2"])
        XCTAssertEqual(r.status, 1, r.stderr)
        XCTAssertTrue(r.stderr.contains("up to 100 repetitions"), r.stderr)
        let ran = try XCTUnwrap((try Report(dir).metadata["repetitions"] as? [String: Any])?["ran"] as? Int)
        XCTAssertLessThanOrEqual(ran, 3, "stopped near the failing second repetition, far from 100")

        let queued = try E2E.run(args + ["--queue", "redis://127.0.0.1:1/x", "--report-dir", dir.path])
        XCTAssertEqual(queued.status, 2, queued.stderr)
        XCTAssertTrue(queued.stderr.contains("--until-failure runs on one machine"), queued.stderr)
    }
}

/// `rules:` in robotci.yml: per test (first match wins) retries, test timeout and `retry-on`;
/// `robotci config` shows them; a bad regex is exit 2 naming the rule.
final class RulesEndToEndTests: XCTestCase {
    override class func setUp() {
        super.setUp()
        try? E2E.buildFixture("Queue")
    }

    func testRulesSetRetriesTimeoutAndWhichFailuresAreRetried() throws {
        let dir = E2E.temporaryDirectory("rules")
        defer { try? FileManager.default.removeItem(at: dir) }
        let config = dir.appendingPathComponent("robotci.yml")
        try """
            retries: 1
            rules:
              - match: FlakyTests
                retries: 0
              - {match: FailingTests, retry-on: 'ECONNRESET|timed out'}
              - {match: CrashTests, retry-on: '^crashed'}
              - {match: 'SlowTests/test01$', test-timeout: 1}
              - {match: 'SlowTests/test0', retries: 0, test-timeout: 1000}
            """.write(to: config, atomically: true, encoding: .utf8)

        let shown = try E2E.run(["config", "--config", config.path], cwd: NSTemporaryDirectory())
        XCTAssertEqual(shown.status, 0, shown.stderr)
        // The key column is as wide as the longest key's name: any run of spaces.
        XCTAssertTrue(shown.stdout.split(separator: "\n").contains { line in
            line.hasPrefix("rules ") && line.dropFirst(5).drop { $0 == " " } == "5 rules  (\(config.path):2 key 'rules')"
        }, shown.stdout)
        XCTAssertTrue(shown.stdout.contains("rules (first match wins; a field left out is the global one: retries 1, test-timeout 300 s):\n"
            + "  1. match 'FlakyTests': retries 0, test-timeout (global), retry-on any failure\n"
            + "  2. match 'FailingTests': retries (global), test-timeout (global), retry-on 'ECONNRESET|timed out'\n"
            + "  3. match 'CrashTests': retries (global), test-timeout (global), retry-on '^crashed'\n"
            + "  4. match 'SlowTests/test01$': retries (global), test-timeout 1 s, retry-on any failure\n"
            + "  5. match 'SlowTests/test0': retries 0, test-timeout 1000 s, retry-on any failure\n"), shown.stdout)

        let report = dir.appendingPathComponent("report")
        let r = try E2E.run(["run", "--config", config.path, "--package", E2E.fixture("Queue"), "--skip-build", "--shards", "2",
                             "--filter", "SlowTests/test0[12]$|FlakyTests|FailingTests|CrashTests", "--report-dir", report.path],
                            env: ["QUEUE_SLEEP": "2.5"])
        XCTAssertEqual(r.status, 1, r.stderr)
        XCTAssertTrue(r.stderr.contains("(5 rules override per test: robotci config shows them)"), r.stderr)
        let run = try Report(report)
        // retries 0 by rule, though the global is 1: its one failing attempt is final.
        XCTAssertEqual(run.tests["QueueTests.FlakyTests/testFailsOnce"]?.outcome, "failed")
        XCTAssertEqual(run.tests["QueueTests.FlakyTests/testFailsOnce"]?.attempts.count, 1)
        // An assertion is not what retry-on names: final at once.
        XCTAssertEqual(run.tests["QueueTests.FailingTests/testFails"]?.attempts.count, 1)
        // A crash is: retried (global retries 1).
        XCTAssertEqual(run.tests["QueueTests.CrashTests/testCrashes"]?.outcome, "crashed")
        XCTAssertEqual(run.tests["QueueTests.CrashTests/testCrashes"]?.attempts.count, 2)
        // test01 sleeps 2.5 s against its rule's 1 s: timed out on each of its 2 attempts (the
        // first matching rule gives the timeout; retries fall back to the global 1).
        let test01 = try XCTUnwrap(run.tests["QueueTests.SlowTests/test01"])
        XCTAssertEqual(test01.outcome, "timedOut")
        XCTAssertEqual(test01.attempts.count, 2)
        let message = (test01.attempts.first?["failures"] as? [[String: Any]])?.first?["message"] as? String ?? ""
        XCTAssertTrue(message.contains("still running after 1 s"), message)
        // test02 matches the last rule only: 1000 s, so its 2.5 s pass.
        XCTAssertEqual(run.tests["QueueTests.SlowTests/test02"]?.outcome, "passed")
    }

    func testABadRegexIsAConfigErrorNamingTheRule() throws {
        let dir = E2E.temporaryDirectory("rules-bad")
        defer { try? FileManager.default.removeItem(at: dir) }
        let config = dir.appendingPathComponent("robotci.yml")
        try "rules:\n  - {match: Login, retries: 0}\n  - {match: Slow, retry-on: 'timed out (unclosed'}\n".write(to: config, atomically: true, encoding: .utf8)
        for command in ["run", "config"] {
            let r = try E2E.run([command, "--config", config.path, "--package", E2E.fixture("Queue"), "--skip-build"])
            XCTAssertEqual(r.status, 2, r.stderr)
            XCTAssertTrue(r.stderr.contains("robotci: error: \(config.path):1 key 'rules': rule 2 (match 'Slow'): 'retry-on' 'timed out (unclosed' is not a valid regular expression: fix it"), r.stderr)
        }
    }
}

/// `--tag NAME`: Swift Testing tests with the tag (their own or their suite's), read from
/// Swift Testing's `--list-tests` event stream; XCTest tests have no tags.
final class TagEndToEndTests: XCTestCase {
    override class func setUp() {
        super.setUp()
        try? E2E.buildFixture("SwiftTesting")
    }

    func testTagsSelectSwiftTestingTests() throws {
        let package = E2E.fixture("SwiftTesting")
        let smoke = try E2E.run(["list", "--package", package, "--skip-build", "--tag", "smoke"])
        XCTAssertEqual(smoke.status, 0, smoke.stderr)
        XCTAssertEqual(smoke.stdout.split(separator: "\n"), ["SwiftTestingFixtureTests.ArithmeticTests/addition()", "SwiftTestingFixtureTests.freeFunction()"])
        XCTAssertTrue(smoke.stderr.contains("--tag smoke: 2 Swift Testing tests (tags in this suite: arithmetic, smoke)"), smoke.stderr)

        // A suite's tag is its tests' tag; `.arithmetic` as Swift writes it works too; two tags: either.
        let suite = try E2E.run(["list", "--package", package, "--skip-build", "--tag", ".arithmetic", "--tag", "smoke"])
        XCTAssertEqual(suite.status, 0, suite.stderr)
        let ids = suite.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(ids.count, 8, "\(ids)")
        XCTAssertTrue(ids.allSatisfy { $0.contains("ArithmeticTests/") || $0 == "SwiftTestingFixtureTests.freeFunction()" }, "\(ids)")

        let dir = E2E.temporaryDirectory("tag")
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try E2E.run(["run", "--package", package, "--skip-build", "--tag", "smoke", "--shards", "2", "--report-dir", dir.path])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("robotci: 2 planned, 2 accounted for"), r.stderr)
        let run = try Report(dir)
        XCTAssertEqual(Set(run.tests.keys), ["SwiftTestingFixtureTests.ArithmeticTests/addition()", "SwiftTestingFixtureTests.freeFunction()"])
        XCTAssertTrue(run.tests.values.allSatisfy { $0.outcome == "passed" })

        let none = try E2E.run(["run", "--package", package, "--skip-build", "--tag", "nope", "--report-dir", dir.path])
        XCTAssertEqual(none.status, 2, none.stderr)
        XCTAssertTrue(none.stderr.contains("no test is left by --tag 'nope'"), none.stderr)
    }

    func testACommandDriverHasNoTags() throws {
        let r = try E2E.run(["list", "--package", E2E.fixture("Pytest"), "--config", E2E.fixture("Pytest") + "/robotci.yml", "--tag", "smoke"])
        XCTAssertEqual(r.status, 2, r.stderr)
        XCTAssertTrue(r.stderr.contains("--tag selects Swift Testing tests by their tags; driver: command lists ids only"), r.stderr)
    }
}

/// A test whose own name ends like a repetition (`x (repeat 1 of 2)`, which a command
/// driver's `list` may print) is that test: it runs under its own name, keeps its verdict
/// apart from `x`'s, is re-run by `--last-failed`, and repeats as `x (repeat 1 of 2) (repeat k
/// of n)`. Before, robotci took it for a repetition of `x` and ran `x` in its place.
final class RepetitionLookalikeEndToEndTests: XCTestCase {
    func testATestNamedLikeARepetitionRunsAsItselfAndIsAccountedFor() throws {
        let dir = E2E.temporaryDirectory("lookalike")
        defer { try? FileManager.default.removeItem(at: dir) }
        let package = dir.appendingPathComponent("suite")
        let ran = package.appendingPathComponent("ran.log")
        // Each run of the lookalike fails; x and y pass. run.sh logs the ids it was given.
        try E2E.commandSuite(at: package, list: "printf 'look::x (repeat 1 of 2)\\nlook::x\\nlook::y\\n'", script: """
            out="$1"; shift
            printf '%s\\n' "$@" >> ran.log
            printf '<testsuite name="look">' > "$out"
            for id in "$@"; do
              case "$id" in
                *"(repeat 1 of 2)") printf '<testcase classname="look" name="%s"><failure message="lookalike fails"/></testcase>' "${id#look::}" >> "$out" ;;
                *) printf '<testcase classname="look" name="%s"/>' "${id#look::}" >> "$out" ;;
              esac
            done
            printf '</testsuite>' >> "$out"
            """)
        let report = dir.appendingPathComponent("report")
        let base = ["run", "--package", package.path, "--retries", "0", "--shards", "1", "--report-dir", report.path]

        let plain = try E2E.run(base, timeout: 120)
        XCTAssertEqual(plain.status, 1, plain.stderr)
        XCTAssertTrue(plain.stderr.contains("robotci: 3 planned, 3 accounted for"), plain.stderr)
        XCTAssertEqual(Set(try String(contentsOf: ran, encoding: .utf8).split(separator: "\n")),
                       ["look::x (repeat 1 of 2)", "look::x", "look::y"], "each test ran under its own name")
        var tests = try E2E.attemptsByTest(in: report)
        XCTAssertEqual(Set(tests.keys), ["look::x (repeat 1 of 2)", "look::x", "look::y"])
        XCTAssertEqual(tests["look::x (repeat 1 of 2)"]?.first?["outcome"] as? String, "failed")
        XCTAssertEqual(tests["look::x"]?.first?["outcome"] as? String, "passed")
        let verdicts = try E2E.junitVerdicts(report.appendingPathComponent("junit.xml")).mapValues(\.verdict)
        XCTAssertEqual(verdicts, ["look/x (repeat 1 of 2)": "failed", "look/x": "passed", "look/y": "passed"])

        // results.json read back (a run without repetitions): the lookalike is what runs again.
        try Data().write(to: ran)
        let again = try E2E.run(base + ["--last-failed"], timeout: 120)
        XCTAssertEqual(again.status, 1, again.stderr)
        XCTAssertTrue(again.stderr.contains("robotci: 1 planned, 1 accounted for"), again.stderr)
        XCTAssertEqual(try String(contentsOf: ran, encoding: .utf8), "look::x (repeat 1 of 2)\n")

        // Repeated, it is a test like any other: 3 tests × 2, each accounted for once.
        let repeated = try E2E.run(base + ["--repeat-each", "2"], timeout: 120)
        XCTAssertEqual(repeated.status, 1, repeated.stderr)
        XCTAssertTrue(repeated.stderr.contains("robotci: 6 planned, 6 accounted for"), repeated.stderr)
        tests = try E2E.attemptsByTest(in: report)
        XCTAssertEqual(tests.count, 6)
        for k in 1...2 {
            XCTAssertEqual(tests["look::x (repeat 1 of 2) (repeat \(k) of 2)"]?.first?["outcome"] as? String, "failed")
            XCTAssertEqual(tests["look::x (repeat \(k) of 2)"]?.first?["outcome"] as? String, "passed")
        }
    }
}
