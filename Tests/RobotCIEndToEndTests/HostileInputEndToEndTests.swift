import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// Hostile inputs given to the built `robotci` (issue 27).
final class HostileInputEndToEndTests: XCTestCase {
    /// Before: this 922-byte file made `robotci merge` expand 10⁹ entities (30 s, then out of
    /// memory under a 4 GB limit). Now: exit 2 naming the file and the DOCTYPE, at once, within
    /// a 256 MB address-space limit.
    func testBillionLaughsMergeIsAClearErrorWithinSmallMemory() throws {
        let bomb = E2E.fixture("Hostile/billion-laughs.xml")
        let out = E2E.temporaryDirectory("bomb").appendingPathComponent("out")
        let started = Date()
        let r = try E2E.run(["merge", bomb, "--output", out.path], timeout: 60,
                            wrapper: ["/usr/bin/prlimit", "--as=\(256 << 20)", "--"])
        let seconds = Date().timeIntervalSince(started)
        XCTAssertEqual(r.status, 2, r.stderr)
        XCTAssertTrue(r.stderr.contains(bomb) && r.stderr.contains("<!DOCTYPE"), r.stderr)
        XCTAssertLessThan(seconds, 5, "refused before any expansion")
        XCTAssertFalse(FileManager.default.fileExists(atPath: out.appendingPathComponent("junit.xml").path))
    }

    /// A command-driver suite whose test leaves a FIFO named `console.log` (the report inlines
    /// that name) beside a screenshot, has a 100-character CJK name (300 bytes: over the
    /// 255-byte file-name limit in the old slug), and claims `time="3600000"`.
    /// Before: report writing blocked on the FIFO forever; the CJK test's artifacts were
    /// dropped silently; the hour count went into timings.json. Now: the FIFO is skipped with a
    /// warning, the artifacts are kept, the time is capped at the batch's wall time.
    func testFIFOArtifactLongCJKNameAndHugeTimeAreHandled() throws {
        let dir = E2E.temporaryDirectory("hostile-artifacts")
        let package = dir.appendingPathComponent("suite")
        try FileManager.default.createDirectory(at: package, withIntermediateDirectories: true)
        let cjk = String(repeating: "测试名称很长", count: 17).prefix(100)
        try "\(cjk)\n".write(to: package.appendingPathComponent("names.txt"), atomically: true, encoding: .utf8)
        try E2E.commandSuite(at: package, list: "sed 's/^/hostile::/' names.txt", script: """
            mkfifo "$ROBOTCI_ARTIFACTS_DIR/console.log"
            printf 'png' > "$ROBOTCI_ARTIFACTS_DIR/shot.png"
            name=$(cat names.txt)
            printf '<testsuite name="hostile"><testcase classname="hostile" name="%s" time="3600000"><failure message="boom"/></testcase></testsuite>' "$name" > "$1"
            """)
        let report = dir.appendingPathComponent("report")
        let r = try E2E.run(["run", "--package", package.path, "--retries", "0", "--test-timeout", "20",
                             "--report-dir", report.path], timeout: 120)
        XCTAssertEqual(r.status, 1, r.stdout + r.stderr)
        let attempts = try E2E.attemptsByTest(in: report)
        let attempt = try XCTUnwrap(attempts["hostile::\(cjk)"]?.first, "\(attempts.keys)")
        let paths = (attempt["artifacts"] as? [[String: Any]] ?? []).compactMap { $0["path"] as? String }
        let shot = try XCTUnwrap(paths.first { $0.hasSuffix("/shot.png") }, "the screenshot is kept: \(paths)")
        XCTAssertTrue(FileManager.default.fileExists(atPath: report.appendingPathComponent(shot).path), shot)
        for component in shot.split(separator: "/") { XCTAssertLessThanOrEqual(component.utf8.count, 255, shot) }
        XCTAssertFalse(paths.contains { $0.hasSuffix("console.log") }, "the FIFO is no artifact: \(paths)")
        XCTAssertLessThan(attempt["duration"] as? Double ?? .infinity, 60, "time=3600000 capped at the batch's wall time")
        let logs = try FileManager.default.contentsOfDirectory(atPath: report.appendingPathComponent("attachments/batches").path)
            .filter { $0.hasSuffix(".log") }
            .map { try String(contentsOf: report.appendingPathComponent("attachments/batches/\($0)"), encoding: .utf8) }
            .joined()
        XCTAssertTrue(logs.contains("console.log is a FIFO, not a regular file; skipped"), logs)
        XCTAssertTrue(FileManager.default.fileExists(atPath: report.appendingPathComponent("index.html").path))
    }

    /// Two shards: one test daemonises a server (setsid, its parent exits: re-parented to
    /// robotci) and needs it for 3 s; a test on the other shard ends meanwhile. Before: the
    /// stray reaper after the quick batch killed every orphan of robotci, the other shard's
    /// server included, and the first test failed. Now the reaper takes only the finished
    /// batch's orphans (its `ROBOTCI_PROCESS_TAG`), and the server dies when its own batch ends.
    func testStrayReaperSparesAnotherShardsRunningBatch() throws {
        let package = E2E.temporaryDirectory("strays").appendingPathComponent("suite")
        try FileManager.default.createDirectory(at: package, withIntermediateDirectories: true)
        try E2E.commandSuite(at: package, list: "printf 'procs::daemon\\nprocs::quick\\n'", script: """
            verdict=""
            case "$2" in
            *daemon*)
              ( setsid sleep 300 & echo $! > daemon.pid )
              sleep 3
              kill -0 "$(cat daemon.pid)" 2>/dev/null || verdict='<failure message="my server was killed by another shard"/>'
              name=daemon ;;
            *) sleep 1; name=quick ;;
            esac
            printf '<testsuite name="procs"><testcase classname="procs" name="%s">%s</testcase></testsuite>' "$name" "$verdict" > "$1"
            """)
        let report = package.deletingLastPathComponent().appendingPathComponent("report")
        let r = try E2E.run(["run", "--package", package.path, "--shards", "2", "--retries", "0", "--test-timeout", "20",
                             "--report-dir", report.path], timeout: 120)
        XCTAssertEqual(r.status, 0, r.stdout + r.stderr)
        let v = try E2E.junitVerdicts(report.appendingPathComponent("junit.xml"))
        XCTAssertEqual(v.mapValues(\.verdict), ["procs/daemon": "passed", "procs/quick": "passed"], r.stderr)
        let pid = try XCTUnwrap(Int32(String(contentsOf: package.appendingPathComponent("daemon.pid"), encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)))
        XCTAssertNotEqual(kill(pid, 0), 0, "the daemon died with its own batch")
    }

    /// Before: a build command's echoed output and a failing list command's output (shown in
    /// the error) went to the console, CI's log, unmasked.
    func testBuildAndListOutputAreMasked() throws {
        let package = E2E.temporaryDirectory("masked-build").appendingPathComponent("suite")
        try FileManager.default.createDirectory(at: package, withIntermediateDirectories: true)
        let token = "tok-\(UUID().uuidString)"
        try """
            driver: command
            build: 'echo "building with $DEPLOY_TOKEN and postgres://app:short@db/x"'
            list: 'echo "cannot list: DEPLOY_TOKEN=$DEPLOY_TOKEN" >&2; exit 3'
            run: true {tests} {junit}
            """.write(to: package.appendingPathComponent("robotci.yml"), atomically: true, encoding: .utf8)
        let r = try E2E.run(["run", "--package", package.path], env: ["DEPLOY_TOKEN": token], timeout: 60)
        XCTAssertEqual(r.status, 2, r.stderr)
        XCTAssertTrue(r.stderr.contains("building with *** and postgres://app:***@db/x"), r.stderr)
        XCTAssertTrue(r.stderr.contains("cannot list: DEPLOY_TOKEN=***"), r.stderr)
        XCTAssertFalse((r.stdout + r.stderr).contains(token))
        XCTAssertFalse(r.stderr.contains(":short@"))
    }
}
