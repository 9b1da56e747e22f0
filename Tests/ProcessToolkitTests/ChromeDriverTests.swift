import Foundation
import BrowserTools
import LoopbackSockets
import ProcessToolkit
import XCTest
#if canImport(Glibc)
import Glibc
#endif

final class ChromeDriverTests: XCTestCase {
    private var scratch: URL!

    override func setUpWithError() throws {
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent("chromedriver-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: scratch)
    }

    private func script(_ name: String, _ body: String) throws -> String {
        let path = scratch.appendingPathComponent(name).path
        try Data("#!/bin/sh\n\(body)\n".utf8).write(to: URL(fileURLWithPath: path))
        chmod(path, 0o755)
        return path
    }

    func testTheRealChromedriverListensOnLoopbackAndStopsWithItsGroup() throws {
        guard let executable = BrowserInstallation.chromedriver() else {
            throw XCTSkip("chromedriver is not installed (apt-get install chromium-driver)")
        }
        let port = try XCTUnwrap(Loopback.freePort())
        let log = scratch.appendingPathComponent("chromedriver.log").path
        let driver = try ChromeDriver.start(DriverLaunch(executable: executable, port: port, logPath: log, group: .own))
        XCTAssertEqual(driver.url, "http://127.0.0.1:\(port)")
        XCTAssertTrue(Loopback.canConnect(port))
        XCTAssertTrue(driver.process.isRunning)
        driver.stop()
        XCTAssertFalse(driver.process.isRunning)
        XCTAssertFalse(Loopback.canConnect(port), "chromedriver still listens after stop()")
    }

    /// Killed, chromedriver and Chromium leave their temporary folders behind: they go to the
    /// folder the caller gives (and removes), not to /tmp.
    func testTemporaryFilesGoToTheGivenFolder() throws {
        guard let executable = BrowserInstallation.chromedriver() else {
            throw XCTSkip("chromedriver is not installed (apt-get install chromium-driver)")
        }
        let seen = scratch.appendingPathComponent("tmpdir-seen").path
        let wrapper = try script("chromedriver", "printf '%s' \"$TMPDIR\" > '\(seen)'; exec '\(executable)' \"$@\"")
        let folder = try XCTUnwrap(PrivateFolder.make(prefix: "cd-"))
        defer { try? FileManager.default.removeItem(at: folder) }
        let temporary = folder.appendingPathComponent("tmp").path
        let driver = try ChromeDriver.start(
            DriverLaunch(executable: wrapper, port: try XCTUnwrap(Loopback.freePort()), logPath: scratch.appendingPathComponent("log").path,
                         group: .own), temporaryDirectory: temporary)
        XCTAssertEqual(try String(contentsOfFile: seen, encoding: .utf8), temporary)
        var isFolder: ObjCBool = false
        XCTAssertTrue(FileManager.default.fileExists(atPath: temporary, isDirectory: &isFolder) && isFolder.boolValue)
        driver.stop()

        // A path Chromium could not start in (its lock socket's path would pass 107 bytes) is
        // not used: the inherited TMPDIR is.
        let long = folder.appendingPathComponent(String(repeating: "x", count: ChromeDriver.maximumTemporaryPath)).path
        let second = try ChromeDriver.start(
            DriverLaunch(executable: wrapper, port: try XCTUnwrap(Loopback.freePort()), logPath: scratch.appendingPathComponent("log2").path,
                         group: .own), temporaryDirectory: long)
        defer { second.stop() }
        XCTAssertEqual(try String(contentsOfFile: seen, encoding: .utf8), ProcessInfo.processInfo.environment["TMPDIR"] ?? "")
        XCTAssertFalse(FileManager.default.fileExists(atPath: long))
    }

    func testADriverThatExitsAtStartUpIsReportedWithItsLog() throws {
        let fake = try script("exits", "echo 'bind() failed: Address in use' >&2; exit 1")
        let log = scratch.appendingPathComponent("log").path
        let port = try XCTUnwrap(Loopback.freePort())
        XCTAssertThrowsError(try ChromeDriver.start(DriverLaunch(executable: fake, port: port, logPath: log, group: .own))) { error in
            let text = "\(error)"
            XCTAssertTrue(text.hasPrefix("chromedriver exited at start-up (exit 1)"), text)
            XCTAssertTrue(text.contains("bind() failed: Address in use"), text)
        }
    }

    func testADriverThatNeverListensIsKilledAfterTheTimeout() throws {
        let fake = try script("silent", "echo $$ > '\(scratch.path)/pid'; exec sleep 30")
        let port = try XCTUnwrap(Loopback.freePort())
        let started = Date()
        XCTAssertThrowsError(try ChromeDriver.start(
            DriverLaunch(executable: fake, port: port, logPath: scratch.appendingPathComponent("log").path, group: .own), timeout: 0.5)
        ) { error in
            XCTAssertTrue("\(error)".hasPrefix("chromedriver did not listen on 127.0.0.1:\(port) within 0.5 s"), "\(error)")
        }
        XCTAssertLessThan(Date().timeIntervalSince(started), 10)
        let pid = try XCTUnwrap(pid_t(String(contentsOfFile: scratch.appendingPathComponent("pid").path, encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)))
        XCTAssertNotEqual(kill(pid, 0), 0, "the silent driver (pid \(pid)) was left running")
    }
}
