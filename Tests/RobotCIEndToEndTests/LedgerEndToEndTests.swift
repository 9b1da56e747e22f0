import Foundation
import TestSupport
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// The flake ledger and managed quarantine (issue #52) across real runs of the built robotci on
/// `Tests/Fixtures/Ledger` (command driver: no build; `test_alternating` passes, then fails, …
/// one verdict per execution).
final class LedgerEndToEndTests: XCTestCase {
    private let alternating = "Suite.Ledger/test_alternating"
    private let fails = "Suite.Ledger/test_fails"
    private let passes = "Suite.Ledger/test_passes"
    private let retryFlaky = "Suite.Ledger/test_retry_flaky"

    private func run(_ args: [String], report: URL, env: [String: String]) throws -> E2E.Result {
        try E2E.run(["run", "--package", E2E.fixture("Ledger"), "--shards", "1", "--report-dir", report.path] + args, env: env)
    }

    /// `robotci flaky --json` as test id → row.
    private func ledger(_ report: URL) throws -> [String: [String: Any]] {
        let r = try E2E.run(["flaky", "--report-dir", report.path, "--json", "--package", E2E.fixture("Ledger")])
        XCTAssertEqual(r.status, 0, r.stderr)
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        var out: [String: [String: Any]] = [:]
        for row in try XCTUnwrap(object["tests"] as? [[String: Any]]) {
            let id = try XCTUnwrap((row["id"] as? [String: Any])?["test"] as? String)
            out[id] = row
        }
        return out
    }

    /// The issue's scenario: two runs at one commit, no retries, one report folder.
    func testTwoRunsAtOneCommitTellTheFlakeFromTheBrokenTest() throws {
        let root = E2E.temporaryDirectory("ledger")
        let report = root.appendingPathComponent("report")
        let env = ["LEDGER_COUNTER": root.appendingPathComponent("counter").path, "GITHUB_SHA": "1a2b3c4d5e6f7a8b9c0d"]
        let first = try run(["--retries", "0"], report: report, env: env.merging(["ROBOTCI_RUN_ID": "run-1"]) { $1 })
        XCTAssertEqual(first.status, 1, first.stderr)
        XCTAssertFalse(first.stderr.contains("likely flaky"), first.stderr)

        let second = try run(["--retries", "0"], report: report, env: env.merging(["ROBOTCI_RUN_ID": "run-2"]) { $1 })
        XCTAssertEqual(second.status, 1, "a likely flaky failure still fails the run:\n" + second.stderr)
        XCTAssertTrue(second.stderr.contains("\(alternating): likely flaky: passed at commit 1a2b3c4d5e6f before (run run-1)"), second.stderr)
        XCTAssertFalse(second.stderr.contains("\(fails): likely flaky"), second.stderr)
        // In the summary's list of failures too, under the test.
        XCTAssertTrue(second.stderr.contains("FAILED      \(alternating) (1 attempt)\n              test_alternating failed\n              likely flaky"),
                      second.stderr)
        let junit = try String(contentsOf: report.appendingPathComponent("junit.xml"), encoding: .utf8)
        XCTAssertTrue(junit.contains("message=\"likely flaky: passed at commit 1a2b3c4d5e6f before (run run-1): test_alternating failed\""), junit)
        XCTAssertTrue(junit.contains("message=\"test_fails failed\""), junit)
        let html = try String(contentsOf: report.appendingPathComponent("index.html"), encoding: .utf8)
        XCTAssertTrue(html.contains("\"likely-flaky\",\"likely flaky: passed at commit 1a2b3c4d5e6f before (run run-1)\""), "the report's notes")
        XCTAssertTrue(html.contains("\"ledger\",\"flaky in 1 of 2 runs (flake ledger); at commit 1a2b3c4d5e6f; last "), "the ledger's word in the report")
        XCTAssertFalse(html.contains("\"ledger\",\"flaky in 0"), "tests that never flaked get no ledger note")
        let results = try String(contentsOf: report.appendingPathComponent("results.json"), encoding: .utf8)
        XCTAssertTrue(results.contains("\"likelyFlaky\":{\"commit\":\"1a2b3c4d5e6f7a8b9c0d\",\"runID\":\"run-1\""), results)

        // A report rebuilt from the journal says so too, and counts the run once.
        try FileManager.default.removeItem(at: report.appendingPathComponent("junit.xml"))
        let rebuilt = try E2E.run(["report", "--results", report.appendingPathComponent("results.jsonl").path, "--output", report.path])
        XCTAssertEqual(rebuilt.status, 1, rebuilt.stderr)
        let rebuiltJUnit = try String(contentsOf: report.appendingPathComponent("junit.xml"), encoding: .utf8)
        XCTAssertTrue(rebuiltJUnit.contains("message=\"likely flaky: passed at commit 1a2b3c4d5e6f before (run run-1): test_alternating failed\""),
                      rebuiltJUnit)

        let rows = try ledger(report)
        XCTAssertEqual(rows[alternating]?["flakyRuns"] as? Int, 1)
        XCTAssertEqual(rows[alternating]?["runs"] as? Int, 2)
        XCTAssertEqual(rows[alternating]?["flakyCommits"] as? [String], ["1a2b3c4d5e6f7a8b9c0d"])
        XCTAssertNotNil(rows[alternating]?["lastFlaky"] as? String)
        XCTAssertTrue(rows[alternating]?["quarantine"] is NSNull)
        for steady in [fails, passes] {
            XCTAssertEqual(rows[steady]?["flakyRuns"] as? Int, 0, steady)
            XCTAssertEqual(rows[steady]?["runs"] as? Int, 2, steady)
            XCTAssertEqual(rows[steady]?["flakyCommits"] as? [String], [], steady)
            XCTAssertTrue(rows[steady]?["lastFlaky"] is NSNull, steady)
        }
        let table = try E2E.run(["flaky", "--report-dir", report.path, "--package", E2E.fixture("Ledger")])
        XCTAssertEqual(table.status, 0, table.stderr)
        XCTAssertEqual(table.stdout.split(separator: "\n").dropFirst().first?.hasSuffix(alternating), true, table.stdout)

        // Asked to: a likely flaky failure lets the run pass (run 3 passes it, run 4 fails it).
        _ = try run(["--retries", "0", "--skip", "test_fails"], report: report, env: env.merging(["ROBOTCI_RUN_ID": "run-3"]) { $1 })
        let allowed = try run(["--retries", "0", "--skip", "test_fails", "--allow-likely-flaky"], report: report,
                              env: env.merging(["ROBOTCI_RUN_ID": "run-4"]) { $1 })
        XCTAssertEqual(allowed.status, 0, allowed.stderr)
        XCTAssertTrue(allowed.stderr.contains("PASSED (1 likely flaky failure allowed by --allow-likely-flaky)"), allowed.stderr)

        // A corrupt ledger: `robotci flaky` refuses it naming the file and the key; a run warns,
        // keeps the runs' history and starts a new ledger.
        let historyURL = report.appendingPathComponent("history.json")
        var text = try String(contentsOf: historyURL, encoding: .utf8)
        text = text.replacingOccurrences(of: "\"c\":\"", with: "\"c\":\"x")
        try text.write(to: historyURL, atomically: true, encoding: .utf8)
        let none = try E2E.run(["flaky", "--report-dir", root.appendingPathComponent("nowhere").path, "--package", E2E.fixture("Ledger")])
        XCTAssertEqual(none.status, 2, none.stdout)
        XCTAssertTrue(none.stderr.contains("no history at \(root.appendingPathComponent("nowhere/history.json").path)"), none.stderr)
        let refused = try E2E.run(["flaky", "--report-dir", report.path, "--package", E2E.fixture("Ledger")])
        XCTAssertEqual(refused.status, 2, refused.stdout)
        XCTAssertTrue(refused.stderr.contains("\(historyURL.path): key 'ledger' is unreadable"), refused.stderr)
        XCTAssertTrue(refused.stderr.contains("delete the key 'ledger'"), refused.stderr)
        XCTAssertTrue(refused.stderr.contains("has a cell 'x'"), refused.stderr)
        let after = try run(["--retries", "0", "--skip", "test_fails"], report: report, env: env.merging(["ROBOTCI_RUN_ID": "run-5"]) { $1 })
        XCTAssertTrue(after.stderr.contains("key 'ledger' is unreadable"), after.stderr)
        let history = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: historyURL)) as? [String: Any])
        XCTAssertEqual((history["runs"] as? [Any])?.count, 5, "the runs' history survives a bad ledger")
        XCTAssertEqual(try ledger(report)[passes]?["runs"] as? Int, 1, "a new ledger, from this run")
    }

    /// Quarantine entries: owner and expiry, the cap, release suggestions, a bad date.
    func testQuarantineEntriesExpireAreCappedAndAreReleased() throws {
        let root = E2E.temporaryDirectory("ledger-quarantine")
        let report = root.appendingPathComponent("report")
        let env = ["LEDGER_COUNTER": root.appendingPathComponent("counter").path, "GITHUB_SHA": "feedface"]
        let config = root.appendingPathComponent("robotci.yml")
        func configure(_ quarantine: String) throws {
            try """
                driver: command
                list: printf 'Suite.Ledger/test_fails\\nSuite.Ledger/test_passes\\n'
                run: python3 run.py {junit} {tests}
                retries: 0
                quarantine-release-after: 2
                \(quarantine)
                """.write(to: config, atomically: true, encoding: .utf8)
        }
        func run(_ id: String) throws -> E2E.Result {
            try self.run(["--config", config.path], report: report, env: env.merging(["ROBOTCI_RUN_ID": id]) { $1 })
        }

        try configure("""
            quarantine:
              - {test: 'Suite.Ledger/test_fails', owner: '@alice', reason: 'JIRA-52', expires: 2099-12-31}
              - 'test_passes$'
            """)
        let held = try run("q-1")
        XCTAssertEqual(held.status, 0, held.stderr)
        XCTAssertTrue(held.stderr.contains("quarantined: owner @alice, until 2099-12-31: JIRA-52"), held.stderr)
        let junit = try String(contentsOf: report.appendingPathComponent("junit.xml"), encoding: .utf8)
        XCTAssertTrue(junit.contains("quarantined (owner @alice, until 2099-12-31: JIRA-52): failed"), junit)
        let html = try String(contentsOf: report.appendingPathComponent("index.html"), encoding: .utf8)
        XCTAssertTrue(html.contains("\"quarantine\",\"quarantined: owner @alice, until 2099-12-31: JIRA-52\""), "the report names the owner")
        XCTAssertFalse(held.stderr.contains("release"), "one clean run is not yet two:\n" + held.stderr)
        let rows = try E2E.run(["flaky", "--report-dir", report.path, "--json", "--config", config.path])
        XCTAssertTrue(rows.stdout.contains("\"owner\" : \"@alice\""), rows.stdout)
        XCTAssertTrue(rows.stdout.contains("\"match\" : \"test_passes$\""), rows.stdout)

        let second = try run("q-2")
        XCTAssertEqual(second.status, 0, second.stderr)
        XCTAssertTrue(second.stderr.contains("1 quarantined test passed the last 2 runs in a row; release it by deleting from robotci.yml's quarantine:\n"
                                             + "  - 'test_passes$'    # Suite.Ledger/test_passes"), second.stderr)
        XCTAssertFalse(second.stderr.contains("- {test: 'Suite.Ledger/test_fails'"), "a failing quarantined test is not released")

        try configure("""
            quarantine:
              - {test: 'Suite.Ledger/test_passes', owner: '@bob', expires: 2099-01-01}
            """)
        let entry = try run("q-3")
        XCTAssertTrue(entry.stderr.contains("  - {test: 'Suite.Ledger/test_passes', owner: '@bob', expires: 2099-01-01}    # \(config.path):6 key 'quarantine', entry 1"),
                      entry.stderr)

        try configure("""
            quarantine:
              - {test: 'Suite.Ledger/test_fails', owner: '@alice', reason: 'JIRA-52', expires: 2020-01-01}
            """)
        let expired = try run("q-4")
        XCTAssertEqual(expired.status, 1, expired.stderr)
        XCTAssertTrue(expired.stderr.contains("quarantine of Suite.Ledger/test_fails (@alice) expired on 2020-01-01: it fails the run again"),
                      expired.stderr)
        let shown = try E2E.run(["config", "--config", config.path])
        XCTAssertTrue(shown.stdout.contains("quarantine                0 regexes, 1 entry"), shown.stdout)
        XCTAssertTrue(shown.stdout.contains("  Suite.Ledger/test_fails: owner @alice, until 2020-01-01: JIRA-52 (expired: no longer applies)"), shown.stdout)

        try configure("""
            quarantine-cap: 1
            quarantine:
              - {test: 'Suite.Ledger/test_fails', owner: '@alice', expires: 2099-12-31}
              - 'test_passes'
            """)
        let capped = try run("q-5")
        XCTAssertEqual(capped.status, 2, capped.stderr)
        XCTAssertTrue(capped.stderr.contains("quarantine-cap is 1, and the configuration quarantines 2 tests"), capped.stderr)

        try configure("""
            quarantine:
              - {test: 'Suite.Ledger/test_fails', owner: '@alice', expires: 31/12/2099}
            """)
        let badDate = try run("q-6")
        XCTAssertEqual(badDate.status, 2, badDate.stderr)
        XCTAssertTrue(badDate.stderr.contains("\(config.path):6 key 'quarantine': entry 1 (test 'Suite.Ledger/test_fails'): "
                                              + "'expires' must be a date YYYY-MM-DD"), badDate.stderr)
    }

    /// `--fail-on-new-flaky`: a test flaky for the first time fails the run; once known, not.
    func testFailOnNewFlakyFailsOnlyOnAFlakeTheLedgerNeverSaw() throws {
        let root = E2E.temporaryDirectory("ledger-new-flaky")
        let report = root.appendingPathComponent("report")
        let env = ["LEDGER_COUNTER": root.appendingPathComponent("counter").path, "LEDGER_RETRY_FLAKY": "1"]
        let args = ["--retries", "1", "--filter", "test_retry_flaky|test_passes", "--fail-on-new-flaky"]
        let first = try run(args, report: report, env: env.merging(["ROBOTCI_RUN_ID": "n-1", "GITHUB_SHA": "c1"]) { $1 })
        XCTAssertEqual(first.status, 1, first.stderr)
        XCTAssertTrue(first.stderr.contains("1 test was flaky for the first time in the flake ledger (--fail-on-new-flaky: the run fails):\n  \(retryFlaky)"),
                      first.stderr)
        XCTAssertTrue(first.stderr.contains("robotci: FAILED (1 new flaky test with --fail-on-new-flaky)"), first.stderr)
        let second = try run(args, report: report, env: env.merging(["ROBOTCI_RUN_ID": "n-2", "GITHUB_SHA": "c2"]) { $1 })
        XCTAssertEqual(second.status, 0, "a known flaky test does not fail the run:\n" + second.stderr)
        XCTAssertFalse(second.stderr.contains("for the first time"), second.stderr)
        // Without the flag a new flake is reported and the run passes, as before.
        let other = root.appendingPathComponent("other")
        let plain = try run(["--retries", "1", "--filter", "test_retry_flaky"], report: other, env: env.merging(["GITHUB_SHA": "c1"]) { $1 })
        XCTAssertEqual(plain.status, 0, plain.stderr)
        XCTAssertEqual(try ledger(report)[retryFlaky]?["flakyRuns"] as? Int, 2)
    }

    /// Two machines' folders merged, and a queue run, each feed the ledger of the folder they write.
    func testMergeAndQueueFeedTheLedger() throws {
        let root = E2E.temporaryDirectory("ledger-merge")
        let env = ["LEDGER_COUNTER": root.appendingPathComponent("counter").path, "GITHUB_SHA": "cafe01"]
        var dirs: [String] = []
        for k in 1...2 {
            let dir = root.appendingPathComponent("p\(k)")
            dirs.append(dir.path)
            for id in ["ci-1", "ci-2"] {
                try? FileManager.default.removeItem(at: dir.appendingPathComponent("timings.json"))
                let r = try E2E.run(["run", "--package", E2E.fixture("Ledger"), "--partition", "\(k)/2", "--retries", "0", "--skip", "retry",
                                     "--report-dir", dir.path], env: env.merging(["ROBOTCI_RUN_ID": id]) { $1 })
                XCTAssertNotEqual(r.status, 2, r.stderr)
            }
        }
        let merged = root.appendingPathComponent("merged")
        let m = try E2E.run(["merge"] + dirs + ["--output", merged.path])
        XCTAssertEqual(m.status, 1, m.stderr)
        let rows = try ledger(merged)
        XCTAssertEqual(rows[alternating]?["runs"] as? Int, 2, "one run per run id, whichever partition ran it")
        XCTAssertEqual(rows[alternating]?["flakyRuns"] as? Int, 1, "passed in ci-1, failed in ci-2 at one commit")
        XCTAssertEqual(rows[passes]?["runs"] as? Int, 2)
        XCTAssertEqual(rows[fails]?["flakyRuns"] as? Int, 0)
        XCTAssertEqual(Set(rows.keys), [alternating, fails, passes])
        // What a partition knew of its failure (it passed at this commit in ci-1) survives the merge.
        let junit = try String(contentsOf: merged.appendingPathComponent("junit.xml"), encoding: .utf8)
        XCTAssertTrue(junit.contains("message=\"likely flaky: passed at commit cafe01 before (run ci-1): test_alternating failed\""), junit)

        let server = try RedisServer()
        defer { server.stop() }
        let queue = "redis://127.0.0.1:\(server.port)/ledger"
        let machines = try E2E.startMachines(2, in: root, env: env.merging(["ROBOTCI_RUN_ID": "q-run"]) { $1 }) { m in
            ["run", "--package", E2E.fixture("Ledger"), "--queue", queue, "--retries", "0", "--shards", "1",
             "--report-dir", root.appendingPathComponent("m\(m)").path]
        }
        for (p, log) in machines {
            let deadline = Date().addingTimeInterval(120)
            while p.isRunning && Date() < deadline { usleep(50_000) }
            if p.isRunning { kill(p.processIdentifier, SIGKILL) }
            p.waitUntilExit()
            XCTAssertEqual(p.terminationStatus, 1, (try? String(contentsOf: log, encoding: .utf8)) ?? "")
        }
        let queued = root.appendingPathComponent("queued")
        let report = try E2E.run(["report", "--queue", queue, "--output", queued.path])
        XCTAssertEqual(report.status, 1, report.stderr)
        let q = try ledger(queued)
        XCTAssertEqual(Set(q.keys), [alternating, fails, passes, retryFlaky])
        XCTAssertEqual(q[passes]?["runs"] as? Int, 1)
        XCTAssertEqual(q[fails]?["runs"] as? Int, 1)
        XCTAssertEqual(q[alternating]?["flakyRuns"] as? Int, 0, "a new folder: one run of each test")
    }

    /// Without a CI variable the commit is git's, and a tree with uncommitted changes is no run
    /// of it: its failure after a pass is not called a flake.
    func testAnEditedTreeIsNoRunOfItsCommit() throws {
        let root = E2E.temporaryDirectory("ledger-dirty")
        let package = root.appendingPathComponent("suite")
        try FileManager.default.copyItem(at: URL(fileURLWithPath: E2E.fixture("Ledger")), to: package)
        func git(_ args: [String]) throws {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            p.arguments = ["git", "-C", package.path, "-c", "user.email=e2e@robotci", "-c", "user.name=e2e"] + args
            p.standardOutput = FileHandle.nullDevice
            p.standardError = FileHandle.nullDevice
            try p.run()
            p.waitUntilExit()
            XCTAssertEqual(p.terminationStatus, 0, "git \(args)")
        }
        try git(["init", "-q"])
        try git(["add", "."])
        try git(["commit", "-q", "-m", "suite"])
        let report = root.appendingPathComponent("report")
        // Empty is unset (the test may itself run on a CI that sets them).
        let env = ["LEDGER_COUNTER": root.appendingPathComponent("counter").path, "GITHUB_SHA": "", "CI_COMMIT_SHA": ""]
        let args = ["run", "--package", package.path, "--shards", "1", "--retries", "0", "--filter", "alternating", "--report-dir", report.path]
        let clean = try E2E.run(args, env: env.merging(["ROBOTCI_RUN_ID": "d-1"]) { $1 })
        XCTAssertEqual(clean.status, 0, clean.stderr)
        try String(contentsOf: URL(fileURLWithPath: E2E.fixture("Ledger")).appendingPathComponent("robotci.yml"), encoding: .utf8)
            .appending("# edited\n").write(to: package.appendingPathComponent("robotci.yml"), atomically: true, encoding: .utf8)
        let edited = try E2E.run(args, env: env.merging(["ROBOTCI_RUN_ID": "d-2"]) { $1 })
        XCTAssertEqual(edited.status, 1, edited.stderr)
        XCTAssertFalse(edited.stderr.contains("likely flaky"), edited.stderr)
        let results = try String(contentsOf: report.appendingPathComponent("results.json"), encoding: .utf8)
        XCTAssertTrue(results.contains("\"gitTreeDirty\":true"), results)
        XCTAssertEqual(try ledger(report)[alternating]?["flakyRuns"] as? Int, 0)
    }
}
