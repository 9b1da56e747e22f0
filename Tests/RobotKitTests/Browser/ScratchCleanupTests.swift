import Foundation
@testable import RobotKit
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// The browser clean-up at exit kills only this process's browsers (issue 27).
final class ScratchCleanupTests: XCTestCase {
    func testOnlyWholePathsCount() {
        let mine = "/tmp/robotkit-35-Ab3xQz"
        XCTAssertTrue(ExitCleanup.commandLine(["chromium", "--user-data-dir=\(mine)/profile-1"], names: mine))
        XCTAssertTrue(ExitCleanup.commandLine(["sh", "\(mine)/chromium"], names: mine))
        XCTAssertTrue(ExitCleanup.commandLine(["x", mine], names: mine + "/"))
        XCTAssertFalse(ExitCleanup.commandLine(["chromium", "--user-data-dir=/tmp/robotkit-35-Ab3xQz0/profile-1"], names: mine))
        XCTAssertFalse(ExitCleanup.commandLine(["chromium", "--user-data-dir=/tmp/robotkit-350/profile-1"], names: "/tmp/robotkit-35"),
                       "before: pid 35's clean-up matched pid 350's profile by substring")
        XCTAssertFalse(ExitCleanup.commandLine(["grep", "x\(mine)/y"], names: mine))
    }

    /// Two real processes, one under our folder and one under a folder whose name starts with
    /// ours (pid 35 vs 350): only the first is killed.
    func testCleanupKillsOurBrowsersNotANeighboursOnes() throws {
        let ours = "/tmp/robotkit-\(getpid())-\(UUID().uuidString.prefix(6))"
        let neighbour = ours + "0"
        // posix_spawn and waitpid directly: Foundation's Process notices a child's death late.
        func start(_ folder: String) -> pid_t {
            var pid: pid_t = 0
            // `; :` keeps sh itself running (no exec of sleep), with the folder in its argv.
            let words: [String] = ["/bin/sh", "-c", "sleep 30; :", "\(folder)/profile-1"]
            let argv = words.map { (word: String) -> UnsafeMutablePointer<CChar>? in strdup(word) } + [nil]
            defer { argv.forEach { free($0) } }
            XCTAssertEqual(posix_spawn(&pid, "/bin/sh", nil, nil, argv, environ), 0)
            return pid
        }
        let mine = start(ours), theirs = start(neighbour)
        defer {
            kill(theirs, SIGKILL)
            var status: Int32 = 0
            waitpid(theirs, &status, 0)
        }
        usleep(200_000)
        ExitCleanup.killProcesses(mentioning: ours)
        var status: Int32 = 0
        XCTAssertEqual(waitpid(mine, &status, 0), mine)
        XCTAssertEqual(status & 0x7f, SIGKILL, "ours is killed")
        usleep(200_000)
        XCTAssertEqual(waitpid(theirs, &status, WNOHANG), 0, "the neighbour's process survives")
    }

    /// The scratch folder is new and unpredictable (mkdtemp), not `/tmp/robotkit-PID`.
    func testScratchFolderIsMadeByMkdtemp() throws {
        let scratch = try RobotKitProcess.current.driver.endpoint().scratch
        let name = scratch.lastPathComponent
        XCTAssertTrue(name.hasPrefix("robotkit-\(getpid())-") && name.count == "robotkit-\(getpid())-".count + 6, name)
        let mode = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: scratch.path)[.posixPermissions] as? Int)
        XCTAssertEqual(mode & 0o077, 0, "only this user can enter it")
        XCTAssertEqual(ChromeDriverService.scratchOwner(name), getpid())
        XCTAssertEqual(ChromeDriverService.scratchOwner("robotkit-42"), 42, "older folders are still cleaned up")
    }
}
