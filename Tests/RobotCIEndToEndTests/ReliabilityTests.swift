import Foundation
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
/// the numbers README's reliability table quotes.
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
            if object["type"] as? String == "attempt", let test = object["test"] as? String { journalTests.insert(test) }
        }
        XCTAssertFalse(journal.contains("\"type\":\"finished\""), "the run never finished")

        let rebuilt = f.directory.appendingPathComponent("rebuilt")
        let r = try E2E.run(["report", "--results", f.report.appendingPathComponent("results.jsonl").path, "--output", rebuilt.path])
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

    // MARK: - chromedriver

    /// A RobotKit test's chromedriver is SIGKILLed mid-test: that test fails with a message
    /// that names the dead driver, and the next test in the same process gets a new one.
    func testChromedriverKilledMidTest() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/chromedriver") else {
            throw XCTSkip("chromium-driver is not installed (apt-get install chromium chromium-driver)")
        }
        let f = try Fault("chromedriver")
        let prefix = "RobotKitTests.DriverDeathUnderRobotCITests/"
        let a = prefix + "testA_ChromedriverIsKilledMidTest", b = prefix + "testB_NextTestGetsAFreshDriver"
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
        XCTAssertTrue(messages.contains { $0.contains("chromedriver") && $0.contains("no longer running") }, "\(messages)")
        func pids(_ attempt: [String: Any], after label: String) -> [String] {
            let output = attempt["output"] as? String ?? ""
            guard let range = output.range(of: label) else { return [] }
            return output[range.upperBound...].prefix { $0 != " " && $0 != "\n" }.split(separator: ",").map(String.init)
        }
        let killed = pids(first, after: "killing chromedriver ")
        let fresh = pids(second, after: "chromedriver now ")
        XCTAssertFalse(killed.isEmpty)
        XCTAssertFalse(fresh.isEmpty, "the second test runs a driver")
        XCTAssertTrue(Set(killed).isDisjoint(with: fresh), "a new chromedriver, not the killed one: \(killed) vs \(fresh)")
        XCTAssertEqual(f.leftovers(), [])
        reliabilityRow("chromedriver killed mid-test", repetitions: 1,
               "killed driver \(killed.joined(separator: ",")): test failed with \"\(messages.first { $0.contains("chromedriver") }?.prefix(120) ?? "")…\"; next test in the same process passed on new driver \(fresh.joined(separator: ",")); 0 browsers left")
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
                if held.count < 3, held[port] == nil, let fd = Socket.listen(port: port) { held[port] = fd }
                FileManager.default.createFile(atPath: f.state.appendingPathComponent("go-\(test)").path, contents: nil)
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
            FileManager.default.createFile(atPath: filler.path, contents: Data(count: max(0, Mount.available(disk) - free)))
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
        FileManager.default.createFile(atPath: filler.path, contents: Data(count: Mount.available(f.report)))
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
func reliabilityRow(_ fault: String, repetitions: Int, _ outcome: String) {
    print("RELIABILITY | \(fault) | \(repetitions) | \(outcome)")
}

/// Polls `condition` every 20 ms for up to `seconds`.
func waitUntil(_ seconds: Double, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if condition() { return true }
        usleep(20_000)
    }
    return condition()
}

/// One fault scenario: a scratch folder (state files, report) and a marker every process
/// of the run inherits, so leftovers are found exactly.
struct Fault {
    let directory: URL
    let state: URL
    let report: URL
    let marker: String

    init(_ label: String) throws {
        directory = E2E.temporaryDirectory("reliability-\(label)")
        state = directory.appendingPathComponent("state")
        report = directory.appendingPathComponent("report")
        marker = "RELIABILITY_RUN=\(label)-\(UUID().uuidString)"
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
    }

    var environment: [String: String] {
        let parts = marker.split(separator: "=", maxSplits: 1).map(String.init)
        return ["RELIABILITY_STATE": state.path, parts[0]: parts[1]]
    }

    /// `robotci run` on the Reliability fixture, in the background.
    func start(_ args: [String], env: [String: String] = [:], package: String = E2E.fixture("Reliability")) throws -> Background {
        try Background(["run", "--package", package, "--skip-build", "--report-dir", report.path] + args,
                       env: environment.merging(env) { _, new in new }, logs: directory)
    }

    /// `robotci list` with the same filters: the tests a run must account for.
    func listed(_ args: [String]) throws -> [String] {
        let r = try E2E.run(["list", "--package", E2E.fixture("Reliability"), "--skip-build"] + args)
        return r.stdout.split(separator: "\n").map(String.init).sorted()
    }

    /// What each live worker process says it is running, and since when.
    func runningTests() -> [(pid: pid_t, test: String, since: Double)] {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: state.path)) ?? []
        return files.compactMap { name in
            guard name.hasPrefix("running-"), let pid = pid_t(name.dropFirst("running-".count)), Proc.isLive(pid),
                  let text = try? String(contentsOf: state.appendingPathComponent(name), encoding: .utf8) else { return nil }
            let parts = text.split(whereSeparator: { $0 == " " || $0 == "\n" })
            guard parts.count == 2, let since = Double(parts[1]) else { return nil }
            return (pid, String(parts[0]), since)
        }
    }

    /// Attempt lines in the journal so far.
    func journalAttempts() -> Int {
        let text = (try? String(contentsOf: report.appendingPathComponent("results.jsonl"), encoding: .utf8)) ?? ""
        return text.components(separatedBy: "\"type\":\"attempt\"").count - 1
    }

    func results() throws -> Results { try Results(report.appendingPathComponent("results.json")) }

    /// Live processes of this run (zombies waiting for init are not running anything).
    func leftovers() -> [String] {
        var found: [String] = []
        _ = waitUntil(3) {
            found = E2E.processes(withEnvironment: marker).filter { !Proc.isZombie($0) }
            return found.isEmpty
        }
        // Never leave them behind for the next test: they are this run's, found by its marker.
        for line in found { if let pid = pid_t(line.split(separator: ":")[0]) { kill(pid, SIGKILL) } }
        return found
    }
}

/// robotci running in the background, its output in files. Spawned with posix_spawn and
/// reaped with waitpid: Foundation's `Process` notices an exit only when every descendant
/// has closed a descriptor the child inherited, which a surviving worker would hold.
final class Background {
    let pid: pid_t
    let stderrURL: URL
    private var status: Int32?
    var stderr: String { (try? String(contentsOf: stderrURL, encoding: .utf8)) ?? "" }

    init(_ args: [String], env: [String: String], logs: URL) throws {
        stderrURL = logs.appendingPathComponent("robotci.stderr")
        let stdoutPath = logs.appendingPathComponent("robotci.stdout").path
        var environment = ProcessInfo.processInfo.environment
        environment["CI"] = "true"
        for (k, v) in env { environment[k] = v }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdoutPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, stderrURL.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let argv = ([E2E.robotci] + args).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var child: pid_t = 0
        let rc = posix_spawn(&child, E2E.robotci, &actions, nil, argv, envp)
        guard rc == 0 else { throw NSError(domain: "posix_spawn robotci: \(String(cString: strerror(rc)))", code: Int(rc)) }
        pid = child
    }

    var isRunning: Bool {
        if status != nil { return false }
        var raw: Int32 = 0
        guard waitpid(pid, &raw, WNOHANG) == pid else { return true }
        status = (raw & 0x7f) == 0 ? (raw >> 8) & 0xff : 128 + (raw & 0x7f)
        return false
    }

    /// Waits for the exit status (SIGKILLs robotci after `timeout`); 128+N when killed by signal N.
    func wait(timeout: Double) -> Int32 {
        let deadline = Date().addingTimeInterval(timeout)
        while isRunning && Date() < deadline { usleep(20_000) }
        if isRunning {
            kill(pid, SIGKILL)
            while isRunning { usleep(10_000) }
        }
        return status ?? -1
    }

    /// Ends robotci if a failed assertion left it running.
    func stop() {
        if isRunning { _ = wait(timeout: 0) }
    }
}

/// `results.json`, parsed with Foundation.
struct Results {
    let json: [String: Any]
    init(_ url: URL) throws {
        json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any], url.path)
    }
    var tests: [[String: Any]] { json["tests"] as? [[String: Any]] ?? [] }
    var ids: [String] { tests.compactMap { $0["id"] as? String }.sorted() }
    var attempts: [String: [[String: Any]]] {
        Dictionary(tests.map { ($0["id"] as? String ?? "", $0["attempts"] as? [[String: Any]] ?? []) }, uniquingKeysWith: { a, b in a + b })
    }
    var batches: [[String: Any]] { json["batches"] as? [[String: Any]] ?? [] }
    var metadata: [String: Any] { json["metadata"] as? [String: Any] ?? [:] }
    func outcome(_ id: String) -> String? { tests.first { $0["id"] as? String == id }?["outcome"] as? String }
}

/// Every `testcase` of a junit.xml (duplicates kept), read with Foundation's XML parser.
struct JUnitCount {
    let ids: [String]
    let verdicts: [String: String]
    init(_ url: URL) throws {
        let doc = try XMLDocument(contentsOf: url, options: [])
        ids = try doc.nodes(forXPath: "//testcase").compactMap { node -> String? in
            guard let el = node as? XMLElement else { return nil }
            return "\(el.attribute(forName: "classname")?.stringValue ?? "")/\(el.attribute(forName: "name")?.stringValue ?? "")"
        }.sorted()
        verdicts = try E2E.junitVerdicts(url).mapValues(\.verdict)
    }
}

/// /proc lookups.
enum Proc {
    static func stat(_ pid: pid_t) -> [Substring]? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = text.lastIndex(of: ")") else { return nil }
        return text[text.index(after: close)...].split(separator: " ")
    }

    /// Exists and is not a zombie.
    static func isLive(_ pid: pid_t) -> Bool {
        guard let fields = stat(pid), let state = fields.first else { return false }
        return state != "Z" && state != "X"
    }

    static func parent(of pid: pid_t) -> pid_t? { stat(pid).flatMap { $0.count > 1 ? pid_t($0[1]) : nil } }

    static func children(of parent: pid_t) -> [pid_t] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap(pid_t.init).filter { Proc.parent(of: $0) == parent && isLive($0) }
    }

    static func commandLine(_ pid: pid_t) -> String {
        guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { return "" }
        return String(decoding: data.map { $0 == 0 ? 32 : $0 }, as: UTF8.self)
    }

    /// For `E2E.processes` lines (`"PID: command"`).
    static func isZombie(_ line: String) -> Bool {
        guard let pid = pid_t(line.split(separator: ":")[0]) else { return true }
        return !isLive(pid)
    }
}

/// A listening TCP socket on 127.0.0.1, as a foreign program would hold one.
enum Socket {
    static func listen(port: Int) -> Int32? {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let ok = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 && Glibc.listen(fd, 1) == 0
            }
        }
        if !ok { close(fd); return nil }
        return fd
    }
}

/// The main files of a report folder (and the names of everything in it), for "unchanged".
struct Snapshot: Equatable {
    let files: [String: Data]
    init(_ folder: URL) throws {
        var files: [String: Data] = [:]
        for name in ["results.json", "junit.xml", "timings.json", "index.html"] {
            files[name] = try Data(contentsOf: folder.appendingPathComponent(name))
        }
        self.files = files
    }
}

/// Small file systems for faults (root only; callers skip or fall back when they fail).
enum Mount {
    @discardableResult
    static func run(_ tool: String, _ args: [String]) -> Int32 {
        guard let path = [tool, "/bin/" + (tool as NSString).lastPathComponent, "/usr/bin/" + (tool as NSString).lastPathComponent]
            .first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else { return -1 }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: path)
        p.arguments = args
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        guard (try? p.run()) != nil else { return -1 }
        p.waitUntilExit()
        return p.terminationStatus
    }

    static func tmpfs(_ at: URL, size: String) -> Bool { run("/bin/mount", ["-t", "tmpfs", "-o", "size=\(size)", "tmpfs", at.path]) == 0 }
    static func remountReadOnly(_ at: URL) -> Bool { run("/bin/mount", ["-o", "remount,ro", at.path]) == 0 }
    static func unmount(_ at: URL) { run("/bin/umount", ["-l", at.path]) }

    /// Bytes free on the file system of `at` (tmpfs keeps no reserve for root).
    static func available(_ at: URL) -> Int {
        var s = statvfs()
        guard statvfs(at.path, &s) == 0 else { return 0 }
        return Int(s.f_bavail) * Int(s.f_frsize)
    }
}

/// Bad input: each case exits 2 with a message that names the culprit (file:line and key,
/// flag, path) and writes nothing.
final class BadInputReliabilityTests: XCTestCase {
    override class func setUp() {
        super.setUp()
        try? E2E.buildFixture("Reliability")
    }

    func testEachBadInputNamesTheCulpritAndExitsTwo() throws {
        let dir = E2E.temporaryDirectory("bad-input")
        let fixture = E2E.fixture("Reliability")
        let config = dir.appendingPathComponent("robotci.yml")
        let out = dir.appendingPathComponent("never-written")

        // A package without a test target, and one whose test bundle lists no tests.
        let noTarget = dir.appendingPathComponent("NoTestTarget")
        try FileManager.default.createDirectory(at: noTarget.appendingPathComponent("Sources/Lib"), withIntermediateDirectories: true)
        try "// swift-tools-version:5.9\nimport PackageDescription\nlet package = Package(name: \"NoTestTarget\", targets: [.target(name: \"Lib\")])\n"
            .write(to: noTarget.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
        try "public let x = 1\n".write(to: noTarget.appendingPathComponent("Sources/Lib/Lib.swift"), atomically: true, encoding: .utf8)
        let empty = dir.appendingPathComponent("EmptySuite")
        try FileManager.default.createDirectory(at: empty.appendingPathComponent(".build/debug"), withIntermediateDirectories: true)
        try "// swift-tools-version:5.9\nimport PackageDescription\nlet package = Package(name: \"EmptySuite\", targets: [.testTarget(name: \"EmptySuiteTests\")])\n"
            .write(to: empty.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
        let bundle = empty.appendingPathComponent(".build/debug/EmptySuitePackageTests.xctest")
        try "#!/bin/sh\n# a built test bundle with no tests: lists nothing\nexit 0\n".write(to: bundle, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: bundle.path)

        // Results from a newer robotci (format v2), as results.json and as a journal.
        let real = dir.appendingPathComponent("real")
        let made = try E2E.run(["run", "--package", fixture, "--skip-build", "--filter", "QuietTests/testA", "--report-dir", real.path])
        XCTAssertEqual(made.status, 0, made.stderr)
        let newerJSON = dir.appendingPathComponent("newer/results.json"), newerJournal = dir.appendingPathComponent("newer/results.jsonl")
        try FileManager.default.createDirectory(at: newerJSON.deletingLastPathComponent(), withIntermediateDirectories: true)
        for (from, to) in [("results.json", newerJSON), ("results.jsonl", newerJournal)] {
            let text = try String(contentsOf: real.appendingPathComponent(from), encoding: .utf8)
            XCTAssertTrue(text.contains("\"format\":\"robotci-results-v2\""), "\(from) carries its format")
            try text.replacingOccurrences(of: "robotci-results-v2", with: "robotci-results-v3").write(to: to, atomically: true, encoding: .utf8)
        }
        let newer = "written by a newer robotci (format 'robotci-results-v3'; this robotci reads up to 'robotci-results-v2')"

        struct Case { var name: String; var yaml: String?; var args: [String]; var expect: [String] }
        let run = ["run", "--package", fixture, "--skip-build", "--report-dir", out.path]
        let withConfig = run + ["--config", config.path]
        let cases: [Case] = [
            Case(name: "malformed YAML", yaml: "shards: 2\nfilter: [a, b\nretries: 1\n", args: withConfig,
                 expect: ["\(config.path):3:", "invalid YAML: did not find expected ',' or ']'"]),
            Case(name: "unknown key", yaml: "shards: 2\nretires: 1\n", args: withConfig,
                 expect: ["\(config.path):2: unknown key 'retires'; did you mean 'retries'?"]),
            Case(name: "word for an integer", yaml: "shards: many\n", args: withConfig,
                 expect: ["\(config.path):1 key 'shards': 'shards' must be an integer ≥ 1, got 'many'"]),
            Case(name: "list for one value", yaml: "retries: [1, 2]\n", args: withConfig,
                 expect: ["\(config.path):1 key 'retries': 'retries' takes one value, not a list"]),
            Case(name: "mapping for a list", yaml: "filter:\n  a: b\n", args: withConfig,
                 expect: ["\(config.path):1: key 'filter' needs a value or a list, not a mapping"]),
            Case(name: "not a boolean", yaml: "fail-on-flaky: perhaps\n", args: withConfig,
                 expect: ["\(config.path):1 key 'fail-on-flaky': 'fail-on-flaky' must be true or false, got 'perhaps'"]),
            Case(name: "--shards 0", args: run + ["--shards", "0"], expect: ["--shards: 'shards' must be an integer ≥ 1, got '0'"]),
            Case(name: "--partition 4/3", args: run + ["--partition", "4/3"], expect: ["--partition: partition 4/3 is out of range"]),
            Case(name: "--test-timeout 0", args: run + ["--test-timeout", "0"], expect: ["--test-timeout: 'test-timeout' must be a positive number of seconds"]),
            Case(name: "package without a test target", args: ["run", "--package", noTarget.path, "--skip-build", "--report-dir", out.path],
                 expect: ["no .xctest bundle in", "does the package have a test target?"]),
            Case(name: "package with no tests", args: ["run", "--package", empty.path, "--skip-build", "--report-dir", out.path],
                 expect: ["no tests to run: '\(empty.path)' has no tests"]),
            Case(name: "filter matching nothing", args: run + ["--filter", "NoSuchTest"],
                 expect: ["no tests to run: no test is left by --filter 'NoSuchTest' among 34 tests", "ids look like '"]),
            Case(name: "report: newer results.json", args: ["report", "--results", newerJSON.path, "--output", out.path],
                 expect: ["\(newerJSON.path): \(newer)"]),
            Case(name: "report: newer results.jsonl", args: ["report", "--results", newerJournal.path, "--output", out.path],
                 expect: ["\(newerJournal.path):1: \(newer)"]),
            Case(name: "merge: newer results.json", args: ["merge", newerJSON.path, "--output", out.path],
                 expect: ["\(newerJSON.path): \(newer)"]),
            Case(name: "merge: newer results.jsonl", args: ["merge", newerJournal.path, "--output", out.path],
                 expect: ["\(newerJournal.path):1: \(newer)"]),
        ]
        for c in cases {
            try? FileManager.default.removeItem(at: config)
            if let yaml = c.yaml { try yaml.write(to: config, atomically: true, encoding: .utf8) }
            let r = try E2E.run(c.args)
            XCTAssertEqual(r.status, 2, "\(c.name): \(r.stderr)")
            for text in c.expect { XCTAssertTrue(r.stderr.contains(text), "\(c.name): expected «\(text)» in\n\(r.stderr)") }
            XCTAssertFalse(FileManager.default.fileExists(atPath: out.path), "\(c.name): nothing is written")
            let message = r.stderr.split(separator: "\n").first { $0.contains("error") || $0.contains("robotci report:") }
                .map { $0.replacingOccurrences(of: dir.path, with: "…") } ?? ""
            print("RELIABILITY-INPUT | \(c.name) | exit \(r.status) | \(message.prefix(170))")
        }
        reliabilityRow("bad input", repetitions: cases.count, "each exits 2 naming the culprit; nothing written")
    }
}

/// Security: merge keeps attachments inside the report folder, the mock server listens on
/// loopback only, and no environment secret reaches a report.
final class SecurityReliabilityTests: XCTestCase {
    override class func setUp() {
        super.setUp()
        try? E2E.buildFixture("Reliability")
    }

    /// `robotci merge` given results.json whose attachments lead outside their report folder
    /// (`../`, absolute, a symlink out): refused with the path, exit 2, nothing written; a
    /// well-behaved attachment in the same place is merged (so the check is not blanket).
    func testMergeRefusesAttachmentPathsOutsideTheReport() throws {
        let dir = E2E.temporaryDirectory("merge-escape")
        let real = dir.appendingPathComponent("real")
        let made = try E2E.run(["run", "--package", E2E.fixture("Reliability"), "--skip-build", "--filter", "QuietTests/testA", "--report-dir", real.path])
        XCTAssertEqual(made.status, 0, made.stderr)
        let original = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: real.appendingPathComponent("results.json"))) as? [String: Any])

        /// A report folder whose one attempt has `artifact` as an attachment (kind console: inlined by the report).
        func input(_ name: String, artifact: String, link: String? = nil) throws -> URL {
            let folder = dir.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: folder.appendingPathComponent("attachments"), withIntermediateDirectories: true)
            try "a console line\n".write(to: folder.appendingPathComponent("attachments/ok.txt"), atomically: true, encoding: .utf8)
            if let link { try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent(link).path, withDestinationPath: "/etc/passwd") }
            var json = original
            var tests = json["tests"] as? [[String: Any]] ?? []
            var attempts = tests[0]["attempts"] as? [[String: Any]] ?? []
            attempts[0]["artifacts"] = [["kind": "console", "path": artifact]]
            tests[0]["attempts"] = attempts
            json["tests"] = tests
            try JSONSerialization.data(withJSONObject: json).write(to: folder.appendingPathComponent("results.json"))
            return folder
        }

        let good = try input("good", artifact: "attachments/ok.txt")
        let merged = dir.appendingPathComponent("merged-good")
        let ok = try E2E.run(["merge", good.path, "--output", merged.path])
        XCTAssertEqual(ok.status, 0, ok.stderr)
        let copied = FileManager.default.enumerator(atPath: merged.appendingPathComponent("attachments").path)?.compactMap { $0 as? String } ?? []
        XCTAssertTrue(copied.contains { $0.hasSuffix("ok.txt") }, "a proper attachment is merged: \(copied)")

        var refused: [String] = []
        for (name, path, link) in [("dotdot", "../../etc/passwd", nil), ("absolute", "/etc/passwd", nil),
                                   ("inner-dotdot", "attachments/../../../outside.txt", nil),
                                   ("symlink", "attachments/link.txt", "attachments/link.txt")] as [(String, String, String?)] {
            let folder = try input(name, artifact: path, link: link)
            let out = dir.appendingPathComponent("merged-\(name)")
            let r = try E2E.run(["merge", folder.path, "--output", out.path])
            XCTAssertEqual(r.status, 2, "\(name): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains("attachment '\(path)' of ReliabilityTests.QuietTests/testA_Passes (attempt 1) leads outside the report folder"), "\(name): \(r.stderr)")
            XCTAssertFalse(FileManager.default.fileExists(atPath: out.path), "\(name): nothing written")
            XCTAssertFalse(FileManager.default.fileExists(atPath: dir.appendingPathComponent("etc/passwd").path))
            refused.append(path)
            if link != nil {
                // `robotci report` over the same folder must not inline what the link points at.
                let r2 = try E2E.run(["report", "--results", folder.appendingPathComponent("results.json").path, "--output", folder.path])
                XCTAssertEqual(r2.status, 0, r2.stderr)
                let html = try String(contentsOf: folder.appendingPathComponent("index.html"), encoding: .utf8)
                XCTAssertFalse(html.contains("root:x:0:0"), "a symlink out of the report folder is not read into index.html")
            }
        }
        reliabilityRow("merge: attachment paths out of the report folder", repetitions: refused.count,
                       "refused (exit 2, nothing written): \(refused.joined(separator: ", ")); control attachments/ok.txt merged; report does not inline a symlink to /etc/passwd")
    }

    /// `robotci mock` listens on 127.0.0.1 / ::1 only: the kernel's socket table shows no
    /// listener on its port at any other address (0.0.0.0 included).
    func testMockServerListensOnLoopbackOnly() throws {
        let dir = E2E.temporaryDirectory("mock-loopback")
        let scenario = dir.appendingPathComponent("scenario.yml")
        try "routes:\n  - method: GET\n    path: /hello\n    json: {ok: true}\n".write(to: scenario, atomically: true, encoding: .utf8)
        let port = try XCTUnwrap(PortProbe.free())
        let mock = try Background(["mock", "--scenario", scenario.path, "--port", String(port)], env: [:], logs: dir)
        defer { kill(mock.pid, SIGTERM); _ = mock.wait(timeout: 10) }
        var listeners: [String] = []
        XCTAssertTrue(waitUntil(20) {
            listeners = PortProbe.listeners(port: port)
            return !listeners.isEmpty
        }, "robotci mock listens on \(port): \(mock.stderr)")
        XCTAssertTrue(listeners.contains("127.0.0.1"), "\(listeners)")
        for address in listeners { XCTAssertTrue(address == "127.0.0.1" || address == "::1", "listening on \(address)") }
        reliabilityRow("mock server binding", repetitions: 1, "robotci mock on port \(port) listens on \(listeners.sorted().joined(separator: " and ")) only (from /proc/net/tcp{,6})")
    }

    /// Secrets in robotci's environment never reach a report file, the GitHub step summary
    /// or the console, while a non-secret variable a test prints does (the search works).
    func testNoEnvironmentSecretInTheReport() throws {
        let dir = E2E.temporaryDirectory("secrets")
        let report = dir.appendingPathComponent("report")
        let summary = dir.appendingPathComponent("step-summary.md")
        let secrets = ["s3cr3t-value-\(UUID().uuidString)", "AKIA" + UUID().uuidString.replacingOccurrences(of: "-", with: "")]
        let publicProbe = "public-\(UUID().uuidString)"
        let r = try E2E.run(["run", "--package", E2E.fixture("Reliability"), "--skip-build", "--filter", "QuietTests", "--retries", "0",
                             "--reporter", "github", "--report-dir", report.path],
                            env: ["ROBOTCI_SECRET_PROBE": secrets[0], "AWS_SECRET_ACCESS_KEY": secrets[1],
                                  "RELIABILITY_PUBLIC_PROBE": publicProbe, "RELIABILITY_STATE": dir.path,
                                  "GITHUB_STEP_SUMMARY": summary.path, "GITHUB_ACTIONS": "true"])
        XCTAssertEqual(r.status, 1, "one test fails and one crashes: \(r.stderr)")
        var files = (FileManager.default.enumerator(atPath: report.path)?.compactMap { $0 as? String } ?? [])
            .map { report.appendingPathComponent($0) }
            .filter { (try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true }
        files.append(summary)
        var searched = 0
        var publicFound = false
        for file in files {
            let data = try Data(contentsOf: file)
            searched += data.count
            for secret in secrets { XCTAssertNil(data.range(of: Data(secret.utf8)), "\(file.path) contains a secret") }
            if data.range(of: Data(publicProbe.utf8)) != nil { publicFound = true }
        }
        for secret in secrets {
            XCTAssertFalse(r.stdout.contains(secret) || r.stderr.contains(secret), "the console shows a secret")
        }
        XCTAssertTrue(publicFound, "the printed non-secret variable is in the report, so the search would find a leak")
        XCTAssertTrue(files.contains { $0.lastPathComponent == "index.html" } && FileManager.default.fileExists(atPath: summary.path))
        let html = try String(contentsOf: report.appendingPathComponent("index.html"), encoding: .utf8)
        XCTAssertTrue(html.contains("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; script-src 'sha256-"), "the report carries its CSP")
        reliabilityRow("environment secrets in the report", repetitions: secrets.count,
                       "ROBOTCI_SECRET_PROBE and AWS_SECRET_ACCESS_KEY values in 0 of \(files.count) files (\(searched) bytes: report folder + GitHub step summary) and not on the console; a printed public variable found; index.html has its CSP")
    }
}

/// Free ports and the kernel's table of listening TCP sockets.
enum PortProbe {
    static func free() -> Int? {
        guard let fd = Socket.listen(port: 0) else { return nil }
        defer { close(fd) }
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ok = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) == 0 }
        }
        return ok ? Int(UInt16(bigEndian: address.sin_port)) : nil
    }

    /// Local addresses of sockets listening on `port`, from /proc/net/tcp and tcp6.
    static func listeners(port: Int) -> [String] {
        var found: [String] = []
        for (file, v6) in [("/proc/net/tcp", false), ("/proc/net/tcp6", true)] {
            guard let text = try? String(contentsOfFile: file, encoding: .utf8) else { continue }
            for line in text.split(separator: "\n").dropFirst() {
                let fields = line.split(separator: " ")
                guard fields.count > 3, fields[3] == "0A" else { continue }  // 0A: LISTEN
                let local = fields[1].split(separator: ":")
                guard local.count == 2, Int(local[1], radix: 16) == port else { continue }
                found.append(address(String(local[0]), v6: v6))
            }
        }
        return found
    }

    /// /proc/net's hex address (32-bit words in host byte order) as text.
    private static func address(_ hex: String, v6: Bool) -> String {
        var bytes: [UInt8] = []
        var i = hex.startIndex
        while i < hex.endIndex {
            let j = hex.index(i, offsetBy: 8)
            let word = UInt32(hex[i..<j], radix: 16) ?? 0
            bytes += [UInt8(word & 0xff), UInt8((word >> 8) & 0xff), UInt8((word >> 16) & 0xff), UInt8(word >> 24)]
            i = j
        }
        if !v6 { return bytes.map(String.init).joined(separator: ".") }
        if bytes == [UInt8](repeating: 0, count: 15) + [1] { return "::1" }
        if bytes == [UInt8](repeating: 0, count: 16) { return "::" }
        return bytes.map { String(format: "%02x", $0) }.joined()
    }
}
