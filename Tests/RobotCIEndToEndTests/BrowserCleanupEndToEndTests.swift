import Foundation
import XCTest

/// Real browser tests (RobotKit, headless Chromium) run through `robotci --shards 4`,
/// one killed for hanging: afterwards no chromium or chromedriver may be left, and
/// the failing test's screenshot and accessibility tree are in the report.
final class BrowserCleanupEndToEndTests: XCTestCase {
    func testHangingBrowserTestLeavesNoBrowserBehind() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/lib/chromium/chromium-headless-shell") else {
            throw XCTSkip("chromium-headless-shell is not installed (apt-get install chromium-headless-shell)")
        }
        let dir = E2E.temporaryDirectory("browser")
        // Every process of this run inherits the run id, so leftovers are found exactly,
        // whatever else runs browsers on the machine.
        let runID = "e2e-browser-\(UUID().uuidString)"
        // This very package's test bundle is already built (we are running in it). The hanging
        // test has a rule of its own, so the run waits 10 s for it, not the others' 30 s.
        let r = try E2E.run(["run", "--package", E2E.root.path, "--skip-build", "--filter", "RobotKitTests.UnderRobotCITests",
                             "--shards", "4", "--retries", "0", "--test-timeout", "30", "--report-dir", dir.path],
                            env: ["ROBOTCI_BROWSER_E2E": "1", "ROBOTCI_RUN_ID": runID,
                                  "ROBOTCI_RULES": "[{match: testBrowserHangs, test-timeout: 10}]"])
        XCTAssertEqual(r.status, 1, r.stderr)
        let v = try E2E.junitVerdicts(dir.appendingPathComponent("junit.xml"))
        XCTAssertEqual(v["RobotKitTests.UnderRobotCITests/testBrowserHangs"]?.verdict, "timedOut")
        XCTAssertEqual(v["RobotKitTests.UnderRobotCITests/testBrowserA"]?.verdict, "passed")
        XCTAssertEqual(v["RobotKitTests.UnderRobotCITests/testBrowserB"]?.verdict, "passed")
        XCTAssertEqual(v["RobotKitTests.UnderRobotCITests/testBrowserFailsAndLeavesArtifacts"]?.verdict, "failed")

        // Zombies may linger a moment for PID 1 to reap; live browsers must not.
        var leftover: [String] = []
        for _ in 0..<50 {
            leftover = E2E.processes(withEnvironment: "ROBOTCI_RUN_ID=\(runID)").filter { !isZombie($0) }
            if leftover.isEmpty { break }
            usleep(100_000)
        }
        XCTAssertEqual(leftover, [])
        XCTAssertFalse(E2E.processes(withEnvironment: "ROBOTCI_BROWSER_E2E=1").contains { $0.contains("chrom") && !isZombie($0) })

        let results = try String(contentsOf: dir.appendingPathComponent("results.json"), encoding: .utf8)
        let attachments = dir.appendingPathComponent("attachments")
        let files = FileManager.default.enumerator(atPath: attachments.path)?.compactMap { $0 as? String } ?? []
        let failing = files.filter { $0.contains("testBrowserFailsAndLeavesArtifacts") }
        XCTAssertTrue(failing.contains { $0.hasSuffix("/screenshot.png") }, "\(failing)")
        XCTAssertTrue(failing.contains { $0.hasSuffix("/accessibility.txt") }, "\(failing)")
        XCTAssertTrue(failing.contains { $0.hasSuffix("/steps.json") }, "\(failing)")
        XCTAssertTrue(results.contains("\"kind\":\"screenshot\""))
        XCTAssertTrue(results.contains("still running after 10 s (rule 1's test-timeout)"), "the hang is killed at its rule's deadline")
    }

    private func isZombie(_ line: String) -> Bool {
        guard let pid = line.split(separator: ":").first,
              let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return true }
        return stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).hasPrefix("Z")
    }
}
