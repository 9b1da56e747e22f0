import Foundation
import XCTest

/// The warm browser per shard, through the built robotci on RobotKit's own tests
/// (`RobotKitTests.WarmBrowserUnderRobotCITests`), one shard, one process per test:
/// - the browser outlives a test process (A and B run in different processes, one Chromium),
///   and nothing A stored (cookie, local/session storage, IndexedDB, Cache Storage, service
///   shard) is visible to B;
/// - a browser killed mid-test fails only that test (C); the next (D) gets a new browser;
/// - a browser that hangs makes only that test time out (E, named by robotci); the next (F)
///   gets a new browser;
/// - the same crash and hang under `--isolation reset`, where the shard keeps one page;
/// - no chromium or chromedriver is left when robotci exits.
final class WarmBrowserEndToEndTests: XCTestCase {
    func testSlotBrowserIsSharedIsolatedAndReplacedAfterACrashOrAHang() throws {
        guard ["/usr/lib/chromium/chromium-headless-shell", "/usr/lib/chromium/chromium"].contains(where: FileManager.default.isExecutableFile) else {
            throw XCTSkip("chromium is not installed (apt-get install chromium-headless-shell)")
        }
        let f = try Fault("warm-browser")
        let prefix = Self.prefix
        let names = ["testA_WritesEveryKindOfStorage", "testB_SeesNoneOfIt", "testC_BrowserCrashesMidTest",
                     "testD_AfterTheCrash", "testE_BrowserHangs", "testF_AfterTheHang"]
        try Self.seedOrder(names, in: f.report)
        // This very package's test bundle is already built (we are running in it).
        let run = try f.start(["--filter", "WarmBrowserUnderRobotCITests", "--shards", "1", "--max-batch-size", "1",
                               "--retries", "0", "--test-timeout", "15"],
                              env: ["ROBOTCI_WARM_E2E": "1", "ROBOTCI_RULES": "[{match: testE_BrowserHangs, test-timeout: 8}]"],
                              package: E2E.root.path)
        defer { run.stop() }
        XCTAssertEqual(run.wait(timeout: 240), 1, run.stderr)
        let results = try f.results()
        func attempt(_ name: String) throws -> [String: Any] {
            try XCTUnwrap(results.attempts[prefix + name]?.first, "\(name) ran: \(results.ids)")
        }
        func browser(_ name: String) throws -> String {
            String(try Self.printed("warm-browser: pid ", by: name, in: results).prefix { $0.isNumber })
        }
        let outcomes = try names.map { try attempt($0)["outcome"] as? String ?? "" }
        let failures = try names.map { "\($0): \(try attempt($0)["failures"] ?? "")" }
        XCTAssertEqual(outcomes, ["passed", "passed", "failed", "passed", "timedOut", "passed"], "\(failures)")
        let batchA = try attempt(names[0])["batch"] as? Int, batchB = try attempt(names[1])["batch"] as? Int
        XCTAssertNotEqual(batchA, batchB, "A and B ran in two processes")
        XCTAssertEqual(try browser(names[0]), try browser(names[1]), "B reused the browser A's process started")
        XCTAssertNotEqual(try browser(names[2]), try browser(names[3]), "D got a new browser after C's was killed")
        XCTAssertNotEqual(try browser(names[4]), try browser(names[5]), "F got a new browser after E's hung")
        XCTAssertFalse(try browser(names[0]).isEmpty)
        XCTAssertEqual(f.leftovers(), [])
        let pattern = E2E.processes(withEnvironment: "ROBOTCI_WARM_E2E=1").filter { $0.contains("chrom") && !Proc.isZombie($0) }
        XCTAssertEqual(pattern, [], "no chromium or chromedriver of this run is left")
    }

    /// `--isolation reset`: B runs in the very page A used (same browser, same window), in
    /// another process, and finds none of what A stored (the same checks as under `context`).
    func testResetIsolationKeepsThePageAndLeavesNothingOfTheLastTest() throws {
        guard ["/usr/lib/chromium/chromium-headless-shell", "/usr/lib/chromium/chromium"].contains(where: FileManager.default.isExecutableFile) else {
            throw XCTSkip("chromium is not installed (apt-get install chromium-headless-shell)")
        }
        let f = try Fault("warm-browser-reset")
        let names = ["testA_WritesEveryKindOfStorage", "testB_SeesNoneOfIt"]
        try Self.seedOrder(names, in: f.report)
        let run = try f.start(["--filter", "WarmBrowserUnderRobotCITests/test[AB]_", "--shards", "1", "--max-batch-size", "1",
                               "--retries", "0", "--test-timeout", "60", "--isolation", "reset"],
                              env: ["ROBOTCI_WARM_E2E": "1"], package: E2E.root.path)
        defer { run.stop() }
        XCTAssertEqual(run.wait(timeout: 180), 0, run.stderr)
        let results = try f.results()
        for name in names {
            let attempt = try XCTUnwrap(results.attempts[Self.prefix + name]?.first, "\(name) ran: \(results.ids)")
            XCTAssertEqual(attempt["outcome"] as? String, "passed", "\(name): \(attempt["failures"] ?? "")")
        }
        func printed(_ name: String, _ label: String) throws -> String { try Self.printed(label, by: name, in: results) }
        XCTAssertEqual(try printed(names[0], "warm-browser: pid "), try printed(names[1], "warm-browser: pid "), "one browser")
        let pageA = try printed(names[0], "warm-page: "), pageB = try printed(names[1], "warm-page: ")
        XCTAssertNotEqual(pageA, "none")
        XCTAssertEqual(pageA, pageB, "B ran in the page A used (reset, not a new context)")
        XCTAssertEqual(f.leftovers(), [])
    }

    /// `--isolation reset` when the kept page's browser dies: a browser killed mid-test fails
    /// only that test (C) and the next (D) gets a new browser and page; one that hangs times
    /// out only its test (E) and the next (F) gets a new one. Nothing is left.
    func testResetIsolationSurvivesACrashAndAHang() throws {
        guard ["/usr/lib/chromium/chromium-headless-shell", "/usr/lib/chromium/chromium"].contains(where: FileManager.default.isExecutableFile) else {
            throw XCTSkip("chromium is not installed (apt-get install chromium-headless-shell)")
        }
        let f = try Fault("warm-browser-reset-faults")
        let names = ["testC_BrowserCrashesMidTest", "testD_AfterTheCrash", "testE_BrowserHangs", "testF_AfterTheHang"]
        try Self.seedOrder(names, in: f.report)
        let run = try f.start(["--filter", "WarmBrowserUnderRobotCITests/test[C-F]_", "--shards", "1", "--max-batch-size", "1",
                               "--retries", "0", "--test-timeout", "15", "--isolation", "reset"],
                              env: ["ROBOTCI_WARM_E2E": "1", "ROBOTCI_RULES": "[{match: testE_BrowserHangs, test-timeout: 8}]"],
                              package: E2E.root.path)
        defer { run.stop() }
        XCTAssertEqual(run.wait(timeout: 240), 1, run.stderr)
        let results = try f.results()
        let outcomes = try names.map { try XCTUnwrap(results.attempts[Self.prefix + $0]?.first)["outcome"] as? String ?? "" }
        XCTAssertEqual(outcomes, ["failed", "passed", "timedOut", "passed"], "\(results.ids)")
        func browser(_ name: String) throws -> String { try Self.printed("warm-browser: pid ", by: name, in: results) }
        XCTAssertNotEqual(try browser(names[0]), try browser(names[1]), "D got a new browser after C's was killed")
        XCTAssertNotEqual(try browser(names[2]), try browser(names[3]), "F got a new browser after E's hung")
        XCTAssertEqual(f.leftovers(), [])
        let left = E2E.processes(withEnvironment: "ROBOTCI_WARM_E2E=1").filter { $0.contains("chrom") && !Proc.isZombie($0) }
        XCTAssertEqual(left, [], "no chromium or chromedriver of this run is left")
    }

    /// `kill -9` of robotci while a test holds the shard's browser: Chromium (which robotci
    /// started on a DevTools pipe) and all of Chromium's helpers end with it (parent-death
    /// signals), the test process too; nothing of the run is left.
    func testKillNineOfRobotCILeavesNoBrowser() throws {
        let f = try Fault("warm-browser-kill9")
        let run = try f.start(["--filter", "WarmBrowserUnderRobotCITests/testG", "--shards", "1", "--retries", "0",
                               "--test-timeout", "120"],
                              env: ["ROBOTCI_WARM_E2E": "1", "ROBOTCI_WARM_KILL": "1"], package: E2E.root.path)
        defer { run.stop() }
        let marker = f.marker
        func browsers() -> [pid_t] {
            E2E.processes(withEnvironment: marker).filter { $0.contains("chrom") && !Proc.isZombie($0) }
                .compactMap { pid_t($0.split(separator: ":")[0]) }
        }
        /// Chromium's renderers are non-dumpable (their environment cannot be read), so the
        /// browser is followed as a process tree from the processes that carry the marker.
        func tree(_ roots: [pid_t]) -> Set<pid_t> {
            var all = Set(roots), frontier = roots
            while let pid = frontier.popLast() {
                for child in Proc.children(of: pid) where all.insert(child).inserted { frontier.append(child) }
            }
            return all
        }
        // The test has launched the app and holds it (it writes `holding` after launch()).
        let holding = f.state.appendingPathComponent("holding")
        XCTAssertTrue(waitUntil(90) { FileManager.default.fileExists(atPath: holding.path) },
                      "the test launched the app: \(run.stderr)")
        let before = tree(browsers())
        let commands = before.map { Proc.commandLine($0) }
        XCTAssertTrue(commands.contains { $0.contains("--remote-debugging-pipe") }, "the shard's browser, on a pipe: \(commands)")
        XCTAssertFalse(commands.contains { $0.contains("chromedriver") || $0.contains("--remote-debugging-port") }, "\(commands)")
        XCTAssertTrue(commands.contains { $0.contains("--type=renderer") }, "the app's renderer is running: \(commands)")
        XCTAssertEqual(kill(run.pid, SIGKILL), 0)
        _ = run.wait(timeout: 10)
        var left: [String] = []
        let gone = waitUntil(10) {
            left = before.filter { Proc.isLive($0) }.map { "\($0): \(Proc.commandLine($0).prefix(120))" }
            return left.isEmpty
        }
        XCTAssertTrue(gone, "chromium/chromedriver outlived a kill -9 of robotci: \(left)")
        XCTAssertEqual(f.leftovers(), [], "nothing of the run is left")
    }

    private static let prefix = "RobotKitTests.WarmBrowserUnderRobotCITests/"

    /// History that makes one shard run `names` in this order (longest first).
    private static func seedOrder(_ names: [String], in report: URL) throws {
        try FileManager.default.createDirectory(at: report, withIntermediateDirectories: true)
        let timings = names.enumerated().map { "\"\(prefix)\($1)\":\(Double(names.count - $0) / 10)" }.joined(separator: ",")
        try "{\"tests\":{\(timings)},\"version\":1}".write(
            to: report.appendingPathComponent("timings.json"), atomically: true, encoding: .utf8)
    }

    /// The rest of the line after `label` in what the first attempt of `name` printed.
    private static func printed(_ label: String, by name: String, in results: Results) throws -> String {
        let attempt = try XCTUnwrap(results.attempts[prefix + name]?.first, "\(name) ran: \(results.ids)")
        let output = attempt["output"] as? String ?? ""
        let range = try XCTUnwrap(output.range(of: label), "\(name) printed \(label): \(output)")
        return String(output[range.upperBound...].prefix { !$0.isNewline })
    }
}
