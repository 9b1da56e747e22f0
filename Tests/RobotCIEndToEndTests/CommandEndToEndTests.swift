import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// The CLI's other paths: listing, filters, bad input, build failures, interruption.
final class CommandEndToEndTests: XCTestCase {
    override class func setUp() {
        super.setUp()
        try? E2E.buildFixture("Outcomes")
    }

    func testListPrintsDiscoveredTestsAfterFilterAndSkip() throws {
        let r = try E2E.run(["list", "--package", E2E.fixture("Outcomes"), "--skip-build", "--filter", "Passing|Crash", "--skip", "testC_"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stdout.split(separator: "\n").map(String.init), [
            "OutcomesTests.CrashTests/testA_BeforeCrash", "OutcomesTests.CrashTests/testB_Crashes",
            "OutcomesTests.PassingTests/testAddition", "OutcomesTests.PassingTests/testAlsoPasses",
            "OutcomesTests.PassingTests/testPrintsAndPasses",
        ])
    }

    func testPassingSubsetExitsZeroAndSecondRunPlansFromTimings() throws {
        let dir = E2E.temporaryDirectory("passing")
        let args = ["run", "--package", E2E.fixture("Outcomes"), "--skip-build", "--filter", "Passing|Skipped|Loud", "--shards", "2", "--report-dir", dir.path]
        let first = try E2E.run(args)
        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: dir.appendingPathComponent("timings.json").path))
        let second = try E2E.run(args)
        XCTAssertEqual(second.status, 0, second.stderr)
        XCTAssertTrue(second.stderr.contains("PASSED"), second.stderr)
    }

    func testFailOnFlakyTurnsFlakyIntoExitOne() throws {
        let dir = E2E.temporaryDirectory("flaky")
        let base = ["run", "--package", E2E.fixture("Outcomes"), "--skip-build", "--filter", "Flaky", "--report-dir", dir.path]
        XCTAssertEqual(try E2E.run(base).status, 0)
        XCTAssertEqual(try E2E.run(base + ["--fail-on-flaky"]).status, 1)
    }

    func testQuarantinedFailureDoesNotFailTheBuild() throws {
        let dir = E2E.temporaryDirectory("quarantine")
        let config = dir.appendingPathComponent("robotci.yml")
        try "quarantine:\n  - FailingTests\nretries: 0\n".write(to: config, atomically: true, encoding: .utf8)
        let r = try E2E.run(["run", "--config", config.path, "--package", E2E.fixture("Outcomes"), "--skip-build",
                             "--filter", "Failing|Passing", "--report-dir", dir.appendingPathComponent("report").path])
        XCTAssertEqual(r.status, 0, r.stderr)
        let junit = try String(contentsOf: dir.appendingPathComponent("report/junit.xml"), encoding: .utf8)
        XCTAssertTrue(junit.contains("quarantined: failed"), junit)
    }

    func testBadConfigNamesFileLineAndKeyAndExitsTwo() throws {
        let dir = E2E.temporaryDirectory("badconfig")
        let config = dir.appendingPathComponent("robotci.yml")
        try "shards: 4\nretires: 3\n".write(to: config, atomically: true, encoding: .utf8)
        let r = try E2E.run(["run", "--config", config.path, "--package", E2E.fixture("Outcomes"), "--skip-build"])
        XCTAssertEqual(r.status, 2)
        XCTAssertTrue(r.stderr.contains("robotci.yml:2: unknown key 'retires'; did you mean 'retries'?"), r.stderr)

        try "shards: many\n".write(to: config, atomically: true, encoding: .utf8)
        let r2 = try E2E.run(["run", "--config", config.path, "--package", E2E.fixture("Outcomes"), "--skip-build"])
        XCTAssertEqual(r2.status, 2)
        XCTAssertTrue(r2.stderr.contains("robotci.yml:1 key 'shards': 'shards' must be an integer"), r2.stderr)
    }

    func testBadFlagsExitTwo() throws {
        let r = try E2E.run(["run", "--package", E2E.fixture("Outcomes"), "--skip-build", "--filter", "([unclosed"])
        XCTAssertEqual(r.status, 2)
        XCTAssertTrue(r.stderr.contains("--filter '([unclosed' is not a valid regular expression"), r.stderr)
        let env = try E2E.run(["run", "--package", E2E.fixture("Outcomes"), "--skip-build"], env: ["ROBOTCI_SHARDS": "0"])
        XCTAssertEqual(env.status, 2)
        XCTAssertTrue(env.stderr.contains("ROBOTCI_SHARDS"), env.stderr)
        let missing = try E2E.run(["run", "--package", "/nonexistent/pkg"])
        XCTAssertEqual(missing.status, 2)
        XCTAssertTrue(missing.stderr.contains("no Package.swift"), missing.stderr)
    }

    func testBuildFailureShowsCompilerErrorAndExitsTwo() throws {
        let dir = E2E.temporaryDirectory("broken")
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("Tests/BrokenTests"), withIntermediateDirectories: true)
        try """
            // swift-tools-version:5.9
            import PackageDescription
            let package = Package(name: "Broken", targets: [.testTarget(name: "BrokenTests")])
            """.write(to: dir.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
        try "import XCTest\nfinal class T: XCTestCase { func testX() { let x: Int = \"nope\" } }\n"
            .write(to: dir.appendingPathComponent("Tests/BrokenTests/T.swift"), atomically: true, encoding: .utf8)
        let r = try E2E.run(["run", "--package", dir.path, "--report-dir", dir.appendingPathComponent("report").path])
        XCTAssertEqual(r.status, 2)
        XCTAssertTrue(r.stderr.contains("error: cannot convert value of type 'String'"), r.stderr)
        XCTAssertTrue(r.stderr.contains("the build of"), r.stderr)
    }

    func testInterruptKillsChildrenWritesPartialReportAndExits130() throws {
        let dir = E2E.temporaryDirectory("interrupt")
        let p = Process()
        p.executableURL = URL(fileURLWithPath: E2E.robotci)
        p.arguments = ["run", "--package", E2E.fixture("Outcomes"), "--skip-build", "--filter", "Hang|Passing",
                       "--shards", "2", "--test-timeout", "120", "--report-dir", dir.path]
        var env = ProcessInfo.processInfo.environment
        env["CI"] = "true"
        p.environment = env
        p.standardError = FileHandle.nullDevice
        try p.run()
        // Wait until the hanging test is running, then interrupt.
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            let journal = (try? String(contentsOf: dir.appendingPathComponent("results.jsonl"), encoding: .utf8)) ?? ""
            if journal.contains("testA_BeforeHang") && journal.contains("testAddition") { break }
            usleep(100_000)
        }
        usleep(500_000)
        kill(p.processIdentifier, SIGINT)
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 130)
        XCTAssertEqual(E2E.processes(matching: "OutcomesPackageTests.xctest"), [])
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: dir.appendingPathComponent("results.json"))) as? [String: Any]
        let meta = json?["metadata"] as? [String: Any]
        XCTAssertEqual(meta?["interrupted"] as? Bool, true)
        let tests = json?["tests"] as? [[String: Any]] ?? []
        let outcome = { (id: String) in tests.first { E2E.idText($0["id"]) == id }?["outcome"] as? String }
        XCTAssertEqual(outcome("OutcomesTests.PassingTests/testAddition"), "passed", "finished tests are reported")
        XCTAssertEqual(outcome("OutcomesTests.HangTests/testB_Hangs"), "notRun", "the interrupted test is not called a failure: not run")
    }
}

/// The shipped example config must stay loadable: every key in it is real.
final class ShippedConfigTests: XCTestCase {
    func testConfigTemplateLoads() throws {
        try E2E.buildFixture("Outcomes")
        let r = try E2E.run(["list", "--config", E2E.root.appendingPathComponent("config/robotci.yml").path,
                             "--package", E2E.fixture("Outcomes"), "--skip-build"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stdout.split(separator: "\n").count, 13)
    }
}

/// Usage errors from argument parsing exit 2 like every other usage error.
final class UsageExitCodeTests: XCTestCase {
    func testUnknownFlagAndBadValueExitTwo() throws {
        let unknown = try E2E.run(["run", "--shardz", "4"])
        XCTAssertEqual(unknown.status, 2, unknown.stderr)
        XCTAssertTrue(unknown.stderr.contains("--shardz"), unknown.stderr)
        let bad = try E2E.run(["run", "--shards", "many"])
        XCTAssertEqual(bad.status, 2, bad.stderr)
        let help = try E2E.run(["run", "--help"])
        XCTAssertEqual(help.status, 0)
        XCTAssertTrue(help.stdout.contains("--test-timeout"), help.stdout)
    }
}

/// A port held by another process is detected and replaced before a batch starts.
final class PortEndToEndTests: XCTestCase {
    func testPortHeldByAForeignProcessIsReplaced() throws {
        try E2E.buildFixture("Outcomes")
        // Hold a port (as some other program would), then ask robotci to use it for shard 0.
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        XCTAssertGreaterThanOrEqual(fd, 0)
        defer { close(fd) }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = 0
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, len) == 0 && listen(fd, 1) == 0 && getsockname(fd, $0, &len) == 0 }
        }
        XCTAssertTrue(bound)
        let held = Int(UInt16(bigEndian: addr.sin_port))
        let dir = E2E.temporaryDirectory("ports")
        let r = try E2E.run(["run", "--package", E2E.fixture("Outcomes"), "--skip-build", "--filter", "Passing",
                             "--shards", "1", "--base-port", String(held), "--report-dir", dir.path])
        XCTAssertEqual(r.status, 0, r.stderr)
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: dir.appendingPathComponent("results.json"))) as? [String: Any]
        let batches = json?["batches"] as? [[String: Any]] ?? []
        XCTAssertFalse(batches.isEmpty)
        for b in batches {
            XCTAssertNotEqual(b["mockPort"] as? Int, held, "the held port is never handed to a worker")
            XCTAssertNotEqual(b["webDriverPort"] as? Int, held)
            XCTAssertNotEqual(b["webDriverPort"] as? Int, b["mockPort"] as? Int)
        }
    }
}
