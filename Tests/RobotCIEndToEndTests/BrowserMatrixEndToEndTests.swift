import Foundation
import TestSupport
import XCTest

/// `--browsers`, through the built robotci on the bundled example (Examples/CharacterApp) and
/// on RobotKit's own engine-neutral isolation tests. One test case, since each run is long:
/// 1. `--browsers webkit`: every test of the example passes on WebKit, named `[webkit]`
///    everywhere, with WPEWebDriver and cog doing the work, no Chromium process started, and,
///    polled every 100 ms, no TCP listener of the WebKit stack in the host's network namespace
///    (`ss -ltnp`); the probe is first shown to see WPEWebDriver where robotci is told
///    `--network-isolation off`, so an empty answer means something;
/// 2. `--browsers chromium,webkit`: one verdict per test per engine, history and timings kept
///    per engine, exit 0;
/// 3. isolation on both engines: what A stores, B (the next launch on the same engine, in the
///    next process of the shard, on the same warm browser: Chromium's relay, WebKit's kept
///    session on robotci's WPEWebDriver) does not see (`EngineIsolationUnderRobotCITests`);
/// 4. `webdriver=URL` to a chromedriver this test starts, standing in for a grid: the example's
///    robots pass through it (its log counts their sessions).
final class BrowserMatrixEndToEndTests: XCTestCase {
    private static let example = E2E.root.appendingPathComponent("Examples/CharacterApp").path

    func testTheExampleRunsOnWebKitOnBothEnginesAndThroughAGrid() throws {
        for tool in ["/usr/bin/WPEWebDriver", "/usr/bin/cog", "/usr/bin/chromedriver", "/usr/lib/chromium/chromium-headless-shell"]
        where !FileManager.default.isExecutableFile(atPath: tool) {
            throw XCTSkip("\(tool) is not installed (make setup-test)")
        }
        guard Self.kernelAllowsNamespaces() else { throw XCTSkip("the kernel refuses network namespaces here") }
        let listed = try E2E.run(["list", "--package", Self.example])
        XCTAssertEqual(listed.status, 0, listed.stderr)
        let tests = listed.stdout.split(separator: "\n").map(String.init).filter { $0.contains("/test") }
        XCTAssertGreaterThanOrEqual(tests.count, 23, listed.stdout)

        // The probe sees the WebKit stack when it is on the host's loopback.
        let probe = try run("probe", ["--browsers", "webkit", "--network-isolation", "off", "--filter", "DeepLinkUITests", "--shards", "1"])
        XCTAssertEqual(probe.status, 0, probe.stderr)
        XCTAssertFalse(probe.hostListeners.isEmpty, "with isolation off the probe sees WPEWebDriver listening on the host's loopback")

        // 1. WebKit alone.
        let webkit = try run("webkit", ["--browsers", "webkit", "--shards", "2"])
        XCTAssertEqual(webkit.status, 0, webkit.stderr)
        XCTAssertEqual(webkit.hostListeners, [], "listeners of the WebKit stack in the host's namespace")
        XCTAssertEqual(webkit.chromium, [], "no Chromium runs under --browsers webkit")
        XCTAssertTrue(webkit.seen.contains("WPEWebDriver") && webkit.seen.contains("cog"), "WebKit did the work: \(webkit.seen)")
        XCTAssertTrue((1...2).contains(webkit.cogs.count), "one warm cog per shard, not one per batch: \(webkit.cogs)")
        let onWebKit = try Results(webkit.report.appendingPathComponent("results.json"))
        XCTAssertEqual(onWebKit.ids, tests.map { $0 + " [webkit]" }.sorted())
        XCTAssertEqual(onWebKit.tests.filter { $0["outcome"] as? String != "passed" }.compactMap { E2E.idText($0["id"]) }, [])
        let junit = try JUnitCount(webkit.report.appendingPathComponent("junit.xml"))
        XCTAssertEqual(junit.ids.count, tests.count)
        XCTAssertTrue(junit.ids.allSatisfy { $0.hasSuffix(" [webkit]") }, "\(junit.ids)")

        // 2. Both engines: one verdict per test per engine.
        let both = try run("both", ["--browsers", "chromium,webkit", "--shards", "2"])
        XCTAssertEqual(both.status, 0, both.stderr)
        XCTAssertEqual(both.hostListeners, [])
        let matrix = try Results(both.report.appendingPathComponent("results.json"))
        XCTAssertEqual(matrix.ids, (tests + tests.map { $0 + " [webkit]" }).sorted())
        XCTAssertEqual(matrix.tests.filter { $0["outcome"] as? String == "passed" }.count, 2 * tests.count, both.stderr)
        for batch in matrix.batches {
            let engines = Set(E2E.idTexts(batch["tests"]).map { $0.hasSuffix(" [webkit]") })
            XCTAssertEqual(engines.count, 1, "a batch runs one engine: \(batch)")
        }
        let history = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: both.report.appendingPathComponent("history.json"))) as? [String: Any])
        XCTAssertEqual((history["tests"] as? [String: Any])?.count, tests.count)
        XCTAssertEqual(((history["browsers"] as? [String: Any])?["webkit"] as? [String: Any])?.count, tests.count)
        let timings = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: both.report.appendingPathComponent("timings.json"))) as? [String: Any])
        XCTAssertEqual(((timings["browsers"] as? [String: Any])?["webkit"] as? [String: Any])?.count, tests.count)

        // --last-failed re-runs a test on the engine it failed on only: one WebKit run marked failed.
        let resultsURL = both.report.appendingPathComponent("results.json")
        var json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: resultsURL)) as? [String: Any])
        var records = try XCTUnwrap(json["tests"] as? [[String: Any]])
        let failing = try XCTUnwrap(records.firstIndex { E2E.idText($0["id"]) == tests[0] + " [webkit]" })
        records[failing]["outcome"] = "failed"
        records[failing]["attempts"] = (records[failing]["attempts"] as? [[String: Any]] ?? []).map { attempt in
            var failed = attempt
            failed["outcome"] = "failed"
            return failed
        }
        json["tests"] = records
        try JSONSerialization.data(withJSONObject: json).write(to: resultsURL)
        let again = try E2E.run(["run", "--package", Self.example, "--skip-build", "--report-dir", both.report.path,
                                 "--browsers", "chromium,webkit", "--last-failed"])
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertEqual(try Results(resultsURL).ids, [tests[0] + " [webkit]"], again.stderr)

        // 3. Isolation on both engines: A and B in two processes on one warm browser per engine, B sees nothing of A.
        let isolation = try run("isolation", ["--browsers", "chromium,webkit", "--shards", "1", "--max-batch-size", "1", "--retries", "1",
                                              "--filter", "EngineIsolationUnderRobotCITests"],
                                package: E2E.root.path,
                                env: ["ROBOTCI_MATRIX_E2E": "1", "ROBOTCI_RULES": "[{match: testD_BrowserHangs, test-timeout: 8, retries: 0}]"])
        XCTAssertEqual(isolation.cogs.count, 2, "B took A's WebKit session over, in another process; D's hang replaced it: \(isolation.cogs)")
        XCTAssertEqual(isolation.status, 1, "D timed out on purpose: \(isolation.stderr)")
        let isolated = try Results(isolation.report.appendingPathComponent("results.json"))
        let prefix = "RobotKitTests.EngineIsolationUnderRobotCITests/"
        let names = ["testA_WritesEveryKindOfStorage", "testB_SeesNoneOfIt"]
        for suffix in ["", " [webkit]"] {
            let attempts = try names.map { try XCTUnwrap(isolated.attempts[prefix + $0 + suffix]?.first, "\($0)\(suffix): \(isolated.ids)") }
            XCTAssertEqual(names.map { isolated.attempts[prefix + $0 + suffix]?.count }, [1, 1])
            XCTAssertEqual(attempts.map { $0["outcome"] as? String }, ["passed", "passed"], "\(attempts.map { $0["failures"] ?? "" })")
            XCTAssertNotEqual(attempts[0]["batch"] as? Int, attempts[1]["batch"] as? Int, "A and B ran in two processes\(suffix)")
            let agents = attempts.map { ($0["output"] as? String ?? "").contains("Chrome/") }
            XCTAssertEqual(agents, suffix.isEmpty ? [true, true] : [false, false], "the engine named ran: \(attempts.map { $0["output"] ?? "" })")
        }
        // A hung browser times out only its test; the next test on the engine gets a new one.
        for suffix in ["", " [webkit]"] {
            XCTAssertEqual(isolated.outcome(prefix + "testD_BrowserHangs" + suffix), "timedOut", "D\(suffix)")
            XCTAssertEqual(isolated.outcome(prefix + "testE_AfterTheHang" + suffix), "passed", "E\(suffix)")
        }
        // A test flaky on WebKit only says so there: retried on WebKit, passed on Chromium.
        XCTAssertEqual(isolated.outcome(prefix + "testC_FlakyOnWebKitOnly"), "passed")
        XCTAssertEqual(isolated.outcome(prefix + "testC_FlakyOnWebKitOnly [webkit]"), "flaky")
        let retried = isolated.attempts[prefix + "testC_FlakyOnWebKitOnly [webkit]"] ?? []
        XCTAssertEqual(retried.map { ($0["output"] as? String ?? "").contains("Chrome/") }, [false, false], "the retry ran on WebKit")
        let verdicts = try JUnitCount(isolation.report.appendingPathComponent("junit.xml")).verdicts
        XCTAssertEqual(verdicts[prefix + "testC_FlakyOnWebKitOnly"], "passed", "\(verdicts)")
        XCTAssertEqual(verdicts[prefix + "testC_FlakyOnWebKitOnly [webkit]"], "flaky", "\(verdicts)")
        let isolationHistory = try XCTUnwrap(JSONSerialization.jsonObject(
            with: Data(contentsOf: isolation.report.appendingPathComponent("history.json"))) as? [String: Any])
        let flakyOnWebKit = ((isolationHistory["browsers"] as? [String: Any])?["webkit"] as? [String: Any])?[prefix + "testC_FlakyOnWebKitOnly"]
        XCTAssertEqual((flakyOnWebKit as? [String: Any])?["o"] as? String, "K", "flaky on WebKit in the history")
        XCTAssertEqual(((isolationHistory["tests"] as? [String: Any])?[prefix + "testC_FlakyOnWebKitOnly"] as? [String: Any])?["o"] as? String, "P")

        // 4. A WebDriver endpoint robotci does not start: a chromedriver on a port of ours.
        let grid = try Grid()
        defer { grid.stop() }
        // What a grid needs beyond a browser's name reaches it: here the headless shell as Chrome's binary.
        let shell = "/usr/lib/chromium/chromium-headless-shell"
        let remote = try run("grid", ["--browsers", "webdriver=\(grid.url)", "--shards", "2"],
                             env: ["ROBOTKIT_WEBDRIVER_CAPABILITIES": "{\"goog:chromeOptions\": {\"binary\": \"\(shell)\"}}"])
        XCTAssertEqual(remote.status, 0, remote.stderr)
        let viaGrid = try Results(remote.report.appendingPathComponent("results.json"))
        XCTAssertEqual(viaGrid.ids, tests.map { $0 + " [webdriver]" }.sorted())
        XCTAssertEqual(viaGrid.tests.filter { $0["outcome"] as? String == "passed" }.count, tests.count, remote.stderr)
        XCTAssertGreaterThanOrEqual(grid.sessionsCreated(), tests.count, "every launch was a session of the grid's")
        XCTAssertTrue(grid.logText.contains("\"binary\": \"\(shell)\""), "the capabilities reached the grid's sessions")
    }

    /// Many machines: `--partition` and `--queue` split each engine's run of a test as a test of
    /// its own, batches never mix two engines, and `robotci merge` / `robotci report --queue`
    /// account for one verdict per test per engine.
    func testPartitionsAndAQueueSplitAndMergeEachEnginesRuns() throws {
        for tool in ["/usr/bin/WPEWebDriver", "/usr/bin/cog", "/usr/lib/chromium/chromium-headless-shell", "/usr/bin/redis-server"]
        where !FileManager.default.isExecutableFile(atPath: tool) {
            throw XCTSkip("\(tool) is not installed (make setup-test)")
        }
        let common = ["--package", Self.example, "--browsers", "chromium,webkit", "--filter", "DeepLinkUITests", "--shards", "1"]
        let listed = try E2E.run(["list"] + common)
        XCTAssertEqual(listed.status, 0, listed.stderr)
        let ids = listed.stdout.split(separator: "\n").map(String.init).filter { $0.contains("/test") }.sorted()
        XCTAssertEqual(ids.filter { $0.hasSuffix(" [webkit]") }.count * 2, ids.count, "listed once per engine: \(ids)")
        func checkBatches(_ results: Results) {
            for batch in results.batches {
                XCTAssertEqual(Set(E2E.idTexts(batch["tests"]).map { $0.hasSuffix(" [webkit]") }).count, 1, "one engine per batch: \(batch)")
            }
        }

        let dir = E2E.temporaryDirectory("matrix-machines")
        for k in 1...2 {
            let part = try E2E.run(["run", "--skip-build", "--partition", "\(k)/2", "--report-dir", dir.appendingPathComponent("p\(k)").path] + common,
                                   env: ["ROBOTCI_RUN_ID": "matrix-partitions"])
            XCTAssertEqual(part.status, 0, part.stderr)
            checkBatches(try Results(dir.appendingPathComponent("p\(k)/results.json")))
        }
        let merged = try E2E.run(["merge", dir.appendingPathComponent("p1").path, dir.appendingPathComponent("p2").path,
                                  "--output", dir.appendingPathComponent("merged").path])
        XCTAssertEqual(merged.status, 0, merged.stderr)
        let all = try Results(dir.appendingPathComponent("merged/results.json"))
        XCTAssertEqual(all.ids, ids)
        XCTAssertEqual(all.tests.filter { $0["outcome"] as? String == "passed" }.count, ids.count, merged.stderr)
        let history = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: dir.appendingPathComponent("merged/history.json"))) as? [String: Any])
        XCTAssertEqual(((history["browsers"] as? [String: Any])?["webkit"] as? [String: Any])?.count, ids.count / 2)

        let redis = try RedisServer()
        defer { redis.stop() }
        let queue = "redis://127.0.0.1:\(redis.port)/matrix"
        let machines = try E2E.startMachines(2, in: dir, env: ["ROBOTCI_RUN_ID": "matrix-queue"]) { m in
            ["run", "--skip-build", "--queue", queue, "--report-dir", dir.appendingPathComponent("q\(m)").path] + common
        }
        for machine in machines {
            machine.process.waitUntilExit()
            XCTAssertEqual(machine.process.terminationStatus, 0, (try? String(contentsOf: machine.log, encoding: .utf8)) ?? "")
        }
        let report = try E2E.run(["report", "--queue", queue, "--output", dir.appendingPathComponent("queue").path])
        XCTAssertEqual(report.status, 0, report.stderr)
        let queued = try Results(dir.appendingPathComponent("queue/results.json"))
        XCTAssertEqual(queued.ids, ids)
        XCTAssertEqual(queued.tests.filter { $0["outcome"] as? String == "passed" }.count, ids.count, report.stderr)
        checkBatches(queued)
    }

    /// Where no namespace can be made (no `unshare` on the PATH robotci searches, as where the
    /// kernel refuses), `--browsers webkit` runs with one warning naming WebKit's server and the
    /// one-user-per-host rule; `--network-isolation on` stops before anything runs; a missing
    /// WebKit stack stops before the build, naming the packages.
    func testWithoutANamespaceWebKitWarnsOnceAndWithoutItsStackStops() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/WPEWebDriver"), FileManager.default.isExecutableFile(atPath: "/usr/bin/cog") else {
            throw XCTSkip("WebKit's stack is not installed (make setup)")
        }
        let report = E2E.temporaryDirectory("matrix-no-netns").path
        let args = ["run", "--package", E2E.root.path, "--skip-build", "--filter", "RobotCICoreTests.BatchEndTests", "--shards", "2",
                    "--report-dir", report, "--browsers", "webkit"]
        let auto = try E2E.run(args, env: ["PATH": "/nonexistent"], cwd: NSTemporaryDirectory())
        XCTAssertEqual(auto.status, 0, auto.stderr)
        let warnings = auto.stderr.split(separator: "\n").filter { $0.contains("network namespace") }
        XCTAssertEqual(warnings.count, 1, auto.stderr)
        XCTAssertTrue(warnings.first?.contains("WebKit's WebDriver server") == true && warnings.first?.contains("one user per host") == true,
                      auto.stderr)
        let on = try E2E.run(args + ["--network-isolation", "on"], env: ["PATH": "/nonexistent"], cwd: NSTemporaryDirectory())
        XCTAssertEqual(on.status, 2, on.stderr)
        XCTAssertFalse(on.stderr.contains("tests on 2 shards"), "nothing ran: \(on.stderr)")

        let missing = try E2E.run(args, env: ["WPEWEBDRIVER": "/nonexistent/WPEWebDriver"], cwd: NSTemporaryDirectory())
        XCTAssertEqual(missing.status, 2, missing.stderr)
        XCTAssertTrue(missing.stderr.contains("apt-get install wpewebkit-driver cog"), missing.stderr)
        XCTAssertFalse(missing.stderr.contains("Compiling") || missing.stderr.contains("tests on 2 shards"), "before the build: \(missing.stderr)")
        let bad = try E2E.run(["run", "--package", E2E.root.path, "--skip-build", "--browsers", "chromium,safari"], cwd: NSTemporaryDirectory())
        XCTAssertEqual(bad.status, 2, bad.stderr)
        XCTAssertTrue(bad.stderr.contains("browser 'safari' is not one robotci knows") && bad.stderr.contains("`webdriver=URL`"), bad.stderr)
    }

    /// What a run left, and what the probes saw while it ran.
    private struct Observed {
        var status: Int32
        var stderr: String
        var report: URL
        /// `ss -ltnp` lines of the WebKit stack's processes in the host's namespace.
        var hostListeners: [String]
        /// Processes of the run that were Chromium.
        var chromium: [String]
        /// Names of the run's processes seen (`WPEWebDriver`, `cog`, …).
        var seen: Set<String>
        /// The pids of the cogs (WebKit's browser) seen.
        var cogs: Set<String>
    }

    private func run(_ label: String, _ args: [String], package: String = example, env: [String: String] = [:]) throws -> Observed {
        let f = try Fault("matrix-\(label)")
        let process = try f.start(args + (args.contains("--retries") ? [] : ["--retries", "0"]), env: env, package: package)
        defer { process.stop() }
        var listeners: [String] = [], chromium: [String] = [], seen = Set<String>(), cogs = Set<String>()
        var status: Int32 = -1
        let deadline = Date().addingTimeInterval(900)
        var runPIDs = Set<String>()
        while Date() < deadline {
            let ofRun = E2E.processes(withEnvironment: f.marker)
            runPIDs.formUnion(ofRun.map { String($0.prefix { $0 != ":" }) })
            // This run's listeners only: a WebKit RobotKit started in this test process, or
            // another run on the machine, is not this run's.
            for line in Self.hostListeners() where !listeners.contains(line) && runPIDs.contains(where: { line.contains("pid=\($0),") }) {
                listeners.append(line)
            }
            for line in ofRun where !Proc.isZombie(line) {
                let command = line.split(separator: " ").dropFirst().first.map { ($0 as NSString).lastPathComponent } ?? ""
                seen.insert(command)
                if command == "cog" { cogs.insert(String(line.prefix { $0 != ":" })) }
                if line.contains("chrom") && !line.contains("chromedriver") && !chromium.contains(line) { chromium.append(line) }
            }
            if !process.isRunning {
                status = process.wait(timeout: 0)
                break
            }
            usleep(100_000)
        }
        XCTAssertEqual(f.leftovers(), [], "\(label): nothing of the run is left")
        return Observed(status: status, stderr: process.stderr, report: f.report, hostListeners: listeners, chromium: chromium, seen: seen, cogs: cogs)
    }

    /// `ss -ltnpH` lines (the host's namespace: this test's) of WebKit's processes, every run's.
    private static func hostListeners() -> [String] {
        let output = Self.output(["/usr/bin/ss", "-ltnpH"]) ?? Self.output(["/bin/ss", "-ltnpH"]) ?? ""
        return output.split(separator: "\n").map(String.init).filter { line in
            ["\"WPEWebDriver\"", "\"cog\"", "\"WPEWebProcess\"", "\"WPENetworkProce"].contains { line.contains($0) }
        }
    }

    private static func kernelAllowsNamespaces() -> Bool {
        output(["/usr/bin/unshare"] + (geteuid() == 0 ? ["--net", "true"] : ["--user", "--map-root-user", "--net", "true"])) != nil
    }

    private static func output(_ command: [String]) -> String? {
        guard FileManager.default.isExecutableFile(atPath: command[0]) else { return nil }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst())
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return nil }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return process.terminationStatus == 0 ? String(decoding: data, as: UTF8.self) : nil
    }

    /// A chromedriver on a free loopback port, standing in for a Selenium Grid.
    private final class Grid {
        let process: Process
        let port: Int
        let log: URL
        var url: String { "http://127.0.0.1:\(port)" }

        init() throws {
            port = Grid.freePort()
            log = E2E.temporaryDirectory("matrix-grid").appendingPathComponent("chromedriver.log")
            process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/chromedriver")
            process.arguments = ["--port=\(port)", "--log-path=\(log.path)", "--verbose"]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            let up = waitUntil(20) { (try? String(contentsOf: self.log, encoding: .utf8))?.contains("ChromeDriver was started successfully") == true }
            XCTAssertTrue(up, "chromedriver started on \(port)")
        }

        var logText: String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }

        /// Sessions the driver created, from its log.
        func sessionsCreated() -> Int {
            logText.components(separatedBy: "] RESPONSE InitSession {").count - 1
        }

        func stop() {
            if process.isRunning { process.terminate() }
            process.waitUntilExit()
        }

        private static func freePort() -> Int {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            defer { close(fd) }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            _ = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
            }
            return Int(UInt16(bigEndian: address.sin_port))
        }
    }
}
