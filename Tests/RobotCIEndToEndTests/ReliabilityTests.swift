import Foundation
import TestSupport
import XCTest
#if canImport(FoundationXML)
import FoundationXML
#endif
#if canImport(Glibc)
import Glibc
#endif

/// Fault injection: the built `robotci` runs `Tests/Fixtures/Reliability` (or this package's
/// browser tests) while a fault is injected from outside, and the report must still account
/// for every test. Each test prints one `RELIABILITY | fault | repetitions | outcome` line,
/// the numbers docs/reliability.md's table quotes.
final class ReliabilityTests: XCTestCase {
    override class func setUp() {
        super.setUp()
        try? E2E.buildFixture("Reliability")
    }

    // MARK: - kill -9 of worker processes

    /// Five times during one run, a worker process is SIGKILLed while a test of it runs:
    /// that test gets a `crashed` attempt (and passes on its retry), the rest of its batch
    /// re-runs, the run completes and every listed test has exactly one record.
    func testKillNineOfWorkersMidBatch() throws {
        let f = try Fault("kill9-workers")
        let started = Date()
        let run = try f.start(["--filter", "SlowTests", "--shards", "3", "--retries", "2", "--test-timeout", "30"],
                              env: ["RELIABILITY_SLEEP": "0.8"])
        defer { run.stop() }
        var kills: [(pid: pid_t, test: String)] = []
        let deadline = Date().addingTimeInterval(60)
        while kills.count < 5 && run.isRunning && Date() < deadline {
            // A worker whose current test started 0.05–0.35 s ago: 0.45 s of it are left.
            let now = Date().timeIntervalSince1970
            let candidates = f.runningTests().filter { entry in
                (0.05...0.35).contains(now - entry.since) && !kills.contains { $0.pid == entry.pid || $0.test == entry.test }
                    && Proc.parent(of: entry.pid) == run.pid && Proc.commandLine(entry.pid).contains("ReliabilityPackageTests.xctest")
            }
            if let victim = candidates.randomElement() {
                XCTAssertEqual(kill(victim.pid, SIGKILL), 0)
                kills.append((victim.pid, victim.test))
                usleep(600_000)
            } else {
                usleep(20_000)
            }
        }
        let status = run.wait(timeout: 120)
        let seconds = Date().timeIntervalSince(started)
        XCTAssertEqual(kills.count, 5, "found a worker mid-test five times")
        XCTAssertEqual(status, 0, "killed tests pass on their retry (flaky); \(run.stderr)")

        let listed = try f.listed(["--filter", "SlowTests"])
        let results = try f.results()
        XCTAssertEqual(listed.count, 24)
        XCTAssertEqual(results.ids, listed, "every listed test has exactly one record in results.json")
        let junit = try JUnitCount(f.report.appendingPathComponent("junit.xml"))
        XCTAssertEqual(junit.ids, listed, "every listed test has exactly one testcase in junit.xml")

        var crashed = 0
        for (id, attempts) in results.attempts {
            let outcomes = attempts.map { $0["outcome"] as? String ?? "?" }
            crashed += outcomes.filter { $0 == "crashed" }.count
            if let kill = kills.first(where: { id.hasSuffix($0.test) }) {
                XCTAssertEqual(outcomes, ["crashed", "passed"], "\(id) was running in pid \(kill.pid) when it was killed")
                let message = ((attempts.first?["failures"] as? [[String: Any]])?.last?["message"] as? String) ?? ""
                XCTAssertTrue(message.contains("signal 9"), message)
                XCTAssertEqual(junit.verdicts[id], "flaky", id)
            } else {
                XCTAssertEqual(outcomes, ["passed"], "\(id) was not hit, so it passed once")
            }
        }
        XCTAssertEqual(crashed, kills.count, "no test but the killed ones is blamed")
        XCTAssertEqual(f.leftovers(), [])
        reliabilityRow("kill -9 of a worker mid-test", repetitions: kills.count,
               "\(crashed) crashed attempts (signal 9), each passed on retry (flaky); \(results.ids.count)/\(listed.count) tests once in results.json and junit.xml; exit \(status); \(String(format: "%.1f", seconds)) s")
    }

    // MARK: - kill -9 of robotci

    /// robotci itself is SIGKILLed mid-run: its journal rebuilds a valid report of every
    /// test that had finished, and no worker outlives it.
    func testKillNineOfRobotCIItselfLeavesARebuildableJournal() throws {
        let f = try Fault("kill9-robotci")
        let run = try f.start(["--filter", "SlowTests|HangTests", "--shards", "2", "--test-timeout", "60"],
                              env: ["RELIABILITY_SLEEP": "0.4"])
        defer { run.stop() }
        XCTAssertTrue(waitUntil(60) { f.journalAttempts() >= 6 && f.runningTests().contains { $0.test == "HangTests/testHangs" } },
                      "the run got going: \(run.stderr)")
        let workers = Proc.children(of: run.pid)
        XCTAssertFalse(workers.isEmpty, "robotci had live workers when it was killed")
        XCTAssertEqual(kill(run.pid, SIGKILL), 0)
        _ = run.wait(timeout: 10)
        // Its workers die with it (parent-death signal), the hanging one included.
        let orphansGone = waitUntil(5) { workers.allSatisfy { !Proc.isLive($0) } }
        let survivors = workers.filter { Proc.isLive($0) }
        XCTAssertTrue(orphansGone, "workers outlived robotci: \(survivors.map { "\($0): \(Proc.commandLine($0))" })")

        let journal = try String(contentsOf: f.report.appendingPathComponent("results.jsonl"), encoding: .utf8)
        let lines = journal.split(separator: "\n")
        var journalTests = Set<String>()
        var whole = 0
        for (i, line) in lines.enumerated() {
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
                XCTAssertEqual(i, lines.count - 1, "only a last line cut off mid-write may be partial")
                continue
            }
            whole += 1
            if object["type"] as? String == "attempt", let test = E2E.idText(object["test"]) { journalTests.insert(test) }
        }
        XCTAssertFalse(journal.contains("\"type\":\"finished\""), "the run never finished")

        let rebuilt = f.directory.appendingPathComponent("rebuilt")
        let r = try E2E.run(["report", "--results", f.report.appendingPathComponent("results.jsonl").path, "--output", rebuilt.path])
        XCTAssertEqual(r.status, 2, "a journal of a run that never finished is incomplete: exit 2\n\(r.stderr)")
        let junit = try JUnitCount(rebuilt.appendingPathComponent("junit.xml"))
        let results = try Results(rebuilt.appendingPathComponent("results.json"))
        // Every planned test is accounted for: the journal's with their attempts, the rest not run.
        let ran = Set(results.attempts.filter { !$0.value.isEmpty }.keys)
        XCTAssertEqual(ran, journalTests, "the tests with a result are exactly the journal's")
        XCTAssertEqual(Set(junit.ids), Set(results.ids), "junit.xml and results.json list the same tests, once")
        XCTAssertEqual(junit.ids.count, results.ids.count)
        XCTAssertGreaterThan(results.ids.count, journalTests.count, "the planned tests the kill left without a result are there")
        for id in results.ids where !ran.contains(id) {
            XCTAssertEqual(results.outcome(id), "notRun", "\(id) has no result: not run, never passed")
        }
        XCTAssertEqual(results.metadata["interrupted"] as? Bool, true, "a journal without its end is a partial run")
        XCTAssertFalse(journalTests.contains("ReliabilityTests.HangTests/testHangs"), "the test running at the kill is not invented")
        XCTAssertEqual(results.outcome("ReliabilityTests.HangTests/testHangs"), "notRun")
        XCTAssertTrue(r.stdout.contains("planned, \(results.ids.count) accounted for (\(journalTests.count) with a result"), r.stdout)
        XCTAssertEqual(f.leftovers(), [])
        reliabilityRow("kill -9 of robotci mid-run", repetitions: 1,
               "journal: \(whole)/\(lines.count) lines whole, \(journalTests.count) tests; `robotci report --results results.jsonl` rebuilt junit.xml + results.json with all \(junit.ids.count) (interrupted: true); \(workers.count) workers died with robotci")
    }

    // MARK: - SIGINT / SIGTERM

    /// SIGINT and SIGTERM while a test hangs and others run: exit 130 within 5 s, a valid
    /// partial report, nothing left running.
    func testSigintAndSigtermExit130WithinFiveSeconds() throws {
        var lines: [String] = []
        for (name, signal) in [("SIGINT", SIGINT), ("SIGTERM", SIGTERM)] {
            let f = try Fault("signal-\(name)")
            let run = try f.start(["--filter", "SlowTests|HangTests", "--shards", "2", "--test-timeout", "120"],
                                  env: ["RELIABILITY_SLEEP": "0.4"])
            defer { run.stop() }
            XCTAssertTrue(waitUntil(60) { f.journalAttempts() >= 3 && f.runningTests().contains { $0.test == "HangTests/testHangs" } },
                          "\(name): the run got going: \(run.stderr)")
            let sent = Date()
            XCTAssertEqual(kill(run.pid, signal), 0)
            let status = run.wait(timeout: 30)
            let seconds = Date().timeIntervalSince(sent)
            XCTAssertEqual(status, 130, "\(name): \(run.stderr)")
            XCTAssertLessThan(seconds, 5, "\(name): robotci took \(seconds) s to exit")
            let results = try f.results()
            XCTAssertEqual(results.metadata["interrupted"] as? Bool, true, name)
            let junit = try JUnitCount(f.report.appendingPathComponent("junit.xml"))
            XCTAssertEqual(junit.ids, results.ids, "\(name): junit.xml and results.json list the same tests")
            XCTAssertGreaterThanOrEqual(results.ids.count, 3, name)
            XCTAssertEqual(results.outcome("ReliabilityTests.HangTests/testHangs"), "notRun", "\(name): the interrupted test is not called a failure")
            for (id, attempts) in results.attempts where attempts.isEmpty {
                XCTAssertEqual(results.outcome(id), "notRun", "\(name): \(id) has no attempt: not run")
            }
            XCTAssertTrue(run.stderr.contains("interrupted"), run.stderr)
            let left = f.leftovers()
            XCTAssertEqual(left, [], name)
            lines.append("\(name): exit \(status) after \(String(format: "%.2f", seconds)) s, partial report of \(results.ids.count) tests (junit.xml parses, interrupted: true), \(left.count) processes left")
        }
        reliabilityRow("SIGINT / SIGTERM mid-run", repetitions: 2, lines.joined(separator: "; "))
    }

    // MARK: - the shard's browser

    /// The shard's browser is SIGKILLed mid-test: that test fails with a message that says the
    /// browser went away, and the next test in the same process gets a new one.
    func testBrowserKilledMidTest() throws {
        let f = try Fault("browser-death")
        let prefix = "RobotKitTests.DriverDeathUnderRobotCITests/"
        let a = prefix + "testA_BrowserIsKilledMidTest", b = prefix + "testB_NextTestGetsAFreshBrowser"
        // History that says both are short, so they share one process (one batch).
        try FileManager.default.createDirectory(at: f.report, withIntermediateDirectories: true)
        try #"{"tests":{"\#(a)":0.1,"\#(b)":0.1},"version":1}"#.write(to: f.report.appendingPathComponent("timings.json"), atomically: true, encoding: .utf8)
        // This very package's test bundle is already built (we are running in it).
        let run = try f.start(["--filter", "DriverDeathUnderRobotCITests", "--shards", "1", "--retries", "0", "--test-timeout", "60"],
                              env: ["ROBOTCI_DRIVER_DEATH_E2E": "1"], package: E2E.root.path)
        defer { run.stop() }
        let status = run.wait(timeout: 150)
        XCTAssertEqual(status, 1, run.stderr)
        let results = try f.results()
        let first = try XCTUnwrap(results.attempts[a]?.first, "\(results.ids)")
        let second = try XCTUnwrap(results.attempts[b]?.first, "\(results.ids)")
        XCTAssertEqual(first["outcome"] as? String, "failed")
        XCTAssertEqual(second["outcome"] as? String, "passed", second["output"] as? String ?? "")
        XCTAssertEqual(first["batch"] as? Int, second["batch"] as? Int, "both ran in one process")
        let messages = ((first["failures"] as? [[String: Any]]) ?? []).compactMap { $0["message"] as? String }
        XCTAssertTrue(messages.contains { $0.contains("the browser went away") }, "\(messages)")
        func pids(_ attempt: [String: Any], after label: String) -> [String] {
            let output = attempt["output"] as? String ?? ""
            guard let range = output.range(of: label) else { return [] }
            return output[range.upperBound...].prefix { $0 != " " && $0 != "\n" }.split(separator: ",").map(String.init)
        }
        let killed = pids(first, after: "killing browser ")
        let fresh = pids(second, after: "browser now ")
        XCTAssertFalse(killed.isEmpty)
        XCTAssertFalse(fresh.isEmpty, "the second test runs a browser")
        XCTAssertTrue(Set(killed).isDisjoint(with: fresh), "a new browser, not the killed one: \(killed) vs \(fresh)")
        XCTAssertEqual(f.leftovers(), [])
        reliabilityRow("the shard's browser killed mid-test", repetitions: 1,
               "killed browser \(killed.joined(separator: ",")): test failed with \"\(messages.first { $0.contains("browser") }?.prefix(120) ?? "")…\"; next test in the same process passed on new browser \(fresh.joined(separator: ",")); 0 browsers left")
    }

    // MARK: - ports

    /// Between batches, a foreign process takes the port the shard's last batch used, three
    /// times: each next batch gets a new port, and its test can bind it.
    func testMockPortTakenBetweenBatchesIsReplaced() throws {
        let f = try Fault("ports")
        let run = try f.start(["--filter", "PortTests", "--shards", "1", "--max-batch-size", "1", "--retries", "0"])
        defer { run.stop() }
        var held: [Int: Int32] = [:]  // port → listening socket of the "foreign process"
        defer { for fd in held.values { close(fd) } }
        var seen: [(test: String, port: Int, bound: Bool)] = []
        let deadline = Date().addingTimeInterval(60)
        while seen.count < 4 && run.isRunning && Date() < deadline {
            let files = (try? FileManager.default.contentsOfDirectory(atPath: f.state.path)) ?? []
            for file in files.sorted() where file.hasPrefix("port-") {
                let test = String(file.dropFirst("port-".count))
                guard !seen.contains(where: { $0.test == test }),
                      let text = try? String(contentsOf: f.state.appendingPathComponent(file), encoding: .utf8) else { continue }
                let parts = text.split(whereSeparator: { $0 == " " || $0 == "\n" })
                guard parts.count == 2, let port = Int(parts[0]) else { continue }
                seen.append((test, port, parts[1] == "true"))
                if held.count < 3, held[port] == nil, let fd = Loopback.listen(port: port) { held[port] = fd }
                XCTAssertTrue(FileManager.default.createFile(atPath: f.state.appendingPathComponent("go-\(test)").path, contents: nil), "cannot release \(test)")
            }
            usleep(20_000)
        }
        let status = run.wait(timeout: 60)
        XCTAssertEqual(status, 0, run.stderr)
        XCTAssertEqual(seen.count, 4)
        XCTAssertEqual(held.count, 3, "three ports were taken away")
        XCTAssertEqual(Set(seen.map(\.port)).count, 4, "each batch after a takeover got another port: \(seen)")
        for (i, s) in seen.enumerated() {
            XCTAssertTrue(s.bound, "\(s.test) could bind its ROBOTCI_MOCK_PORT \(s.port)")
            if i > 0 { XCTAssertNotNil(held[seen[i - 1].port], "the port before \(s.test) was held by then") }
        }
        let results = try f.results()
        let batchPorts = results.batches.compactMap { $0["mockPort"] as? Int }
        XCTAssertEqual(batchPorts, seen.map(\.port), "results.json records the port each batch was given")
        XCTAssertEqual(Set(results.batches.compactMap { $0["worker"] as? Int }), [0], "one shard throughout")
        reliabilityRow("mock port taken by a foreign process between batches", repetitions: held.count,
               "shard 0 moved \(seen.map { String($0.port) }.joined(separator: " → ")); every test bound the port it was given; exit \(status)")
    }

    // MARK: - escaping grandchild

    /// A test starts a grandchild that calls setsid() (own session and process group,
    /// holding the test's stdout): robotci, a child subreaper, still ends it.
    func testGrandchildThatCallsSetsidIsEnded() throws {
        let f = try Fault("setsid")
        let started = Date()
        let run = try f.start(["--filter", "EscapeTests", "--shards", "1", "--retries", "0", "--test-timeout", "30"])
        defer { run.stop() }
        let status = run.wait(timeout: 60)
        let seconds = Date().timeIntervalSince(started)
        XCTAssertEqual(status, 0, run.stderr)
        let results = try f.results()
        let output = (results.attempts.first?.value.first?["output"] as? String) ?? ""
        let pid = output.range(of: #"escaped grandchild pid (\d+) session \1"#, options: .regularExpression)
            .flatMap { pid_t(output[$0].split(separator: " ")[3]) }
        XCTAssertNotNil(pid, "the test started a grandchild in its own session: \(output)")
        if let pid { XCTAssertFalse(Proc.isLive(pid), "grandchild \(pid) still runs: \(Proc.commandLine(pid))") }
        let left = f.leftovers()
        XCTAssertEqual(left, [])
        XCTAssertLessThan(seconds, 20, "the grandchild holding the output pipe does not stall the run")
        reliabilityRow("grandchild calls setsid() and sleeps", repetitions: 1,
               "grandchild \(pid.map(String.init) ?? "?") (own session) killed by robotci; \(left.count) processes with the run's marker left; run took \(String(format: "%.1f", seconds)) s")
    }

    // MARK: - report folder not writable

    /// The report folder cannot be written: exit 2 with the folder and the system's reason,
    /// and an earlier report in it is left exactly as it was.
    func testReportFolderNotWritable() throws {
        let f = try Fault("readonly")
        var rows: [String] = []
        let file = f.directory.appendingPathComponent("a-file")
        try "not a folder".write(to: file, atomically: true, encoding: .utf8)

        // 1. A path through a regular file (root can write anywhere else).
        let under = file.appendingPathComponent("report")
        let r1 = try E2E.run(["run", "--package", E2E.fixture("Reliability"), "--skip-build", "--filter", "QuietTests/testA", "--report-dir", under.path])
        XCTAssertEqual(r1.status, 2, r1.stderr)
        XCTAssertTrue(r1.stderr.contains("cannot write the report folder \(under.path): Not a directory"), r1.stderr)
        rows.append("parent is a file: exit \(r1.status)")

        // 2. `robotci report` and `robotci merge` into such a path.
        let earlier = f.directory.appendingPathComponent("earlier")
        XCTAssertEqual(try E2E.run(["run", "--package", E2E.fixture("Reliability"), "--skip-build", "--filter", "QuietTests/testA", "--report-dir", earlier.path]).status, 0)
        let r2 = try E2E.run(["report", "--results", earlier.appendingPathComponent("results.json").path, "--output", under.path])
        XCTAssertEqual(r2.status, 2, r2.stderr)
        XCTAssertTrue(r2.stderr.contains("cannot write the report into \(under.path)") && r2.stderr.contains("Not a directory"), r2.stderr)
        let r3 = try E2E.run(["merge", earlier.path, "--output", under.path])
        XCTAssertEqual(r3.status, 2, r3.stderr)
        XCTAssertTrue(r3.stderr.contains("cannot write the merged report into \(under.path)") && r3.stderr.contains("Not a directory"), r3.stderr)
        rows.append("report/merge --output under a file: exit \(r2.status)/\(r3.status)")

        // 3. A read-only folder holding an earlier report (read-only tmpfs, else chattr +i).
        let disk = f.directory.appendingPathComponent("disk")
        try FileManager.default.createDirectory(at: disk, withIntermediateDirectories: true)
        let mounted = Mount.tmpfs(disk, size: "4m")
        defer { if mounted { Mount.unmount(disk) } }
        let report = disk.appendingPathComponent("report")
        XCTAssertEqual(try E2E.run(["run", "--package", E2E.fixture("Reliability"), "--skip-build", "--filter", "QuietTests/testA", "--report-dir", report.path]).status, 0)
        let before = try Snapshot(report)
        let how: String
        if mounted && Mount.remountReadOnly(disk) {
            how = "read-only tmpfs"
        } else if Mount.run("/usr/bin/chattr", ["+i", report.path]) == 0 {
            how = "chattr +i"
        } else {
            rows.append("read-only folder: not tried (neither mount nor chattr +i works here)")
            reliabilityRow("report folder not writable", repetitions: rows.count, rows.joined(separator: "; "))
            return
        }
        defer { if how == "chattr +i" { _ = Mount.run("/usr/bin/chattr", ["-i", report.path]) } }
        let r4 = try E2E.run(["run", "--package", E2E.fixture("Reliability"), "--skip-build", "--filter", "QuietTests/testA", "--report-dir", report.path])
        XCTAssertEqual(r4.status, 2, r4.stderr)
        let reason = how == "chattr +i" ? "Operation not permitted" : "Read-only file system"
        XCTAssertTrue(r4.stderr.contains("cannot write the report folder \(report.path): \(reason)"), r4.stderr)
        XCTAssertEqual(try Snapshot(report), before, "the earlier report is untouched")
        rows.append("\(how) with an earlier report: exit \(r4.status), \(before.files.count) files of the earlier report unchanged")
        reliabilityRow("report folder not writable", repetitions: 3, rows.joined(separator: "; "))
    }

    // MARK: - disk full

    /// The disk fills up (a 1 MiB tmpfs): during the run (the batch log eats the space, the
    /// journal can no longer append) and while writing the report. Exit 2 naming the file and
    /// "No space left on device"; the earlier report's files stay whole and unchanged.
    func testDiskFullWhileWriting() throws {
        let f = try Fault("diskfull")
        let disk = f.directory.appendingPathComponent("disk")
        try FileManager.default.createDirectory(at: disk, withIntermediateDirectories: true)
        guard Mount.tmpfs(disk, size: "1m") else {
            throw XCTSkip("cannot mount a small tmpfs here (needs root and CAP_SYS_ADMIN), so a full disk cannot be made")
        }
        defer { Mount.unmount(disk) }
        let report = disk.appendingPathComponent("report")
        let args = ["run", "--package", E2E.fixture("Reliability"), "--skip-build", "--report-dir", report.path, "--retries", "0"]
        XCTAssertEqual(try E2E.run(args + ["--filter", "QuietTests/testA"]).status, 0)
        let before = try Snapshot(report)
        var rows: [String] = []
        // Leave 128 KiB, then 24 KiB: the first run's 600 KB of output fills the disk mid-run,
        // the second fits the run but not the report's index.html (about 48 KB).
        for (free, filter, during) in [(131_072, "LoudTests", true), (24_576, "QuietTests/testA", false)] {
            let filler = disk.appendingPathComponent("filler")
            // What robotci clears when a run starts (the last run's journal and attachments)
            // goes first, so the space left is what the run really gets.
            for name in ["filler", "report/attachments", "report/results.jsonl", "report/.robotci-work"] {
                try? FileManager.default.removeItem(at: disk.appendingPathComponent(name))
            }
            XCTAssertTrue(FileManager.default.createFile(atPath: filler.path, contents: Data(count: max(0, Mount.available(disk) - free))), "cannot fill the disk")
            let r = try E2E.run(args + ["--filter", filter])
            XCTAssertEqual(r.status, 2, r.stderr)
            XCTAssertTrue(r.stderr.contains("robotci: error: cannot write \(report.path)/") && r.stderr.contains(": No space left on device"), r.stderr)
            if during {
                XCTAssertTrue(r.stderr.contains("warning: cannot append to \(report.path)/results.jsonl: No space left on device"), r.stderr)
            }
            XCTAssertEqual(try Snapshot(report), before, "the earlier report's files are whole and unchanged")
            let temps = try FileManager.default.contentsOfDirectory(atPath: report.path).filter { $0.hasSuffix(".tmp") }
            XCTAssertEqual(temps, [], "no half-written temp files are left")
            let error = r.stderr.split(separator: "\n").first { $0.contains("robotci: error:") }.map(String.init) ?? ""
            rows.append("\(during ? "fills during the run" : "fills writing the report"): exit \(r.status), \"\(error.replacingOccurrences(of: report.path, with: "<report>"))\"\(during ? " (+ journal warning)" : "")")
        }
        rows.append("\(before.files.count) files of the earlier report unchanged")
        reliabilityRow("disk full", repetitions: 2, rows.joined(separator: "; "))
    }

    /// The console itself cannot be written (stdout and stderr on /dev/full, as a CI log on a
    /// full disk): robotci loses its lines, not the run. Foundation's `FileHandle.write`
    /// traps there (SIGILL) before the report is written; robotci writes with write(2).
    func testAConsoleThatCannotBeWrittenLosesTheLinesNotTheRun() throws {
        let f = try Fault("console-full")
        let toFull = ["/bin/sh", "-c", "exec \"$0\" \"$@\" >/dev/full 2>/dev/full"]
        let pass = try E2E.run(["run", "--package", E2E.fixture("Reliability"), "--skip-build", "--report-dir", f.report.path,
                                "--retries", "0", "--filter", "QuietTests/testA", "--reporter", "github"],
                               env: ["GITHUB_STEP_SUMMARY": "/dev/full"], wrapper: toFull)
        XCTAssertEqual(pass.status, 0, "a passing run still passes with nowhere to print (not a trap: 132 or 4)")
        XCTAssertEqual(try f.results().ids.count, 1, "its report was written")
        let rebuilt = f.directory.appendingPathComponent("rebuilt")
        let report = try E2E.run(["report", "--results", f.report.appendingPathComponent("results.jsonl").path, "--output", rebuilt.path],
                                 wrapper: toFull)
        XCTAssertEqual(report.status, 0, "report prints to the same console")
        XCTAssertTrue(FileManager.default.fileExists(atPath: rebuilt.appendingPathComponent("index.html").path))
        reliabilityRow("console on a full disk", repetitions: 1, "run exit \(pass.status), report written; report exit \(report.status)")
    }

    /// The disk fills mid-run and space comes back while the run goes on: the journal keeps
    /// every attempt (entries wait in memory and are written, in order, when space is back;
    /// a torn line is skipped by the reader), so `robotci report --results results.jsonl`
    /// rebuilds every finished attempt, as results.json has them.
    func testDiskFullMidRunThenFreedLosesNoAttempt() throws {
        let f = try Fault("diskfull-recover")
        try FileManager.default.createDirectory(at: f.report, withIntermediateDirectories: true)
        guard Mount.tmpfs(f.report, size: "4m") else {
            throw XCTSkip("cannot mount a small tmpfs here (needs root and CAP_SYS_ADMIN), so a full disk cannot be made")
        }
        defer { Mount.unmount(f.report) }
        let run = try f.start(["--filter", "SlowTests", "--shards", "2", "--retries", "0"], env: ["RELIABILITY_SLEEP": "0.3"])
        defer { run.stop() }
        XCTAssertTrue(waitUntil(60) { f.journalAttempts() >= 2 }, "the run got going: \(run.stderr)")
        let filler = f.report.appendingPathComponent("filler")
        XCTAssertTrue(FileManager.default.createFile(atPath: filler.path, contents: Data(count: Mount.available(f.report))), "cannot fill the disk")
        let whenFull = f.journalAttempts()
        XCTAssertTrue(waitUntil(30) { run.stderr.contains("warning: cannot append to") }, "the journal hit the full disk: \(run.stderr)")
        Thread.sleep(forTimeInterval: 1.0)
        try FileManager.default.removeItem(at: filler)
        let status = run.wait(timeout: 120)
        XCTAssertEqual(status, 0, run.stderr)
        XCTAssertTrue(run.stderr.contains("results.jsonl is being written again"), run.stderr)

        let rebuilt = f.directory.appendingPathComponent("rebuilt")
        let r = try E2E.run(["report", "--results", f.report.appendingPathComponent("results.jsonl").path, "--output", rebuilt.path])
        XCTAssertEqual(r.status, 0, r.stderr)
        let final = try f.results(), again = try Results(rebuilt.appendingPathComponent("results.json"))
        XCTAssertEqual(again.ids, final.ids)
        XCTAssertEqual(again.attempts.mapValues(\.count), final.attempts.mapValues(\.count), "every finished attempt is in the journal")
        XCTAssertTrue(final.attempts.values.allSatisfy { $0.count == 1 })
        reliabilityRow("disk full mid-run, then freed", repetitions: 1,
                       "journal had \(whenFull) attempts when the disk filled; after space came back `robotci report --results` rebuilt all \(again.attempts.count) tests' attempts, as results.json has them")
    }
}

// MARK: - Support

/// Prints one line of the reliability table.
