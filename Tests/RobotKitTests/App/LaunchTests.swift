import BrowserTools
import Foundation
import MockServer
import ProcessToolkit
@testable import RobotKit
import XCTest

final class LaunchTests: XCTestCase {
    func testLaunchEnvironmentAndArgumentsBecomeQueryItems() {
        let app = WebApp(url: Fixture.url("elements.html"))
        app.launchEnvironment = ["API_BASE_URL": "http://127.0.0.1:9/api", "MODE": "a b&c"]
        app.launchArguments = ["--uitesting", "-reset"]
        XCTAssertEqual(
            app.launchURL.query,
            "API_BASE_URL=http://127.0.0.1:9/api&MODE=a%20b%26c&--uitesting&-reset")
        app.launch()
        defer { app.terminate() }
        XCTAssertEqual(app.staticTexts["env.api"].label, "http://127.0.0.1:9/api")
        XCTAssertEqual(app.staticTexts["env.args"].label, "--uitesting -reset")
    }

    func testWorkerEnvironmentReadsRobotCIVariables() {
        let environment = WorkerEnvironment([
            "ROBOTCI_WEBDRIVER_PORT": "9600", "ROBOTCI_MOCK_PORT": "9700", "ROBOTCI_ARTIFACTS_DIR": "/tmp/a",
            "ROBOTCI_ATTEMPT": "2", "ROBOTCI_WORKER_INDEX": "3", "ROBOTCI_RUN_ID": "run-1", "ROBOTCI_REPETITION": "4",
        ])
        XCTAssertEqual(environment.webDriverPort, 9600)
        XCTAssertEqual(environment.mockPort, 9700)
        XCTAssertEqual(environment.artifactsDirectory?.path, "/tmp/a")
        XCTAssertEqual(environment.attempt, 2)
        XCTAssertEqual(environment.shardIndex, 3)
        XCTAssertEqual(environment.runID, "run-1")
        XCTAssertEqual(environment.repetition, 4)
        XCTAssertTrue(environment.isUnderRobotCI)
        let plain = WorkerEnvironment([:])
        XCTAssertNil(plain.webDriverPort)
        XCTAssertEqual(plain.attempt, 1)
        XCTAssertNil(plain.repetition)
        XCTAssertFalse(plain.isUnderRobotCI)
    }

    func testTheHeadlessShellComesFirstAndItsLauncherHandsItAFirstPage() throws {
        let shell = "/usr/lib/chromium/chromium-headless-shell"
        let full = try BrowserInstallation.locate(environment: ["CHROME_BIN": "/usr/lib/chromium/chromium"])
        XCTAssertFalse(full.isHeadlessShell)
        guard FileManager.default.isExecutableFile(atPath: shell) else {
            throw XCTSkip("chromium-headless-shell is not installed (apt-get install chromium-headless-shell)")
        }
        let found = try BrowserInstallation.locate()
        XCTAssertEqual(found.chromium, shell, "the shell is preferred over the full browser")
        XCTAssertTrue(found.isHeadlessShell)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("launcher-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let launcher = try ChromeDriverService.chromiumLauncher(in: folder)
        let script = try String(contentsOfFile: launcher, encoding: .utf8)
        // Without a first page chromedriver's new session fails: "unable to discover open pages".
        XCTAssertTrue(script.hasSuffix("'\(shell)' \"$@\" about:blank\n"), script)
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: launcher))
    }

    func testMissingBrowserSaysWhatToInstall() {
        XCTAssertThrowsError(
            try BrowserInstallation.locate(environment: ["CHROME_BIN": "/nonexistent/chromium", "PATH": "/nonexistent"])
        ) { error in
            XCTAssertTrue("\(error)".contains("apt-get install chromium-headless-shell chromium-driver"), "\(error)")
        }
        XCTAssertThrowsError(try BrowserInstallation.locate(environment: ["CHROMEDRIVER": "/nonexistent/cd"])) { error in
            XCTAssertTrue("\(error)".hasPrefix("chromedriver is not installed"), "\(error)")
        }
        XCTAssertNoThrow(try BrowserInstallation.locate())
    }

    func testChromedriverRunsInThisProcessGroupWithAParentDeathSignal() throws {
        _ = try RobotKitProcess.current.driver.endpoint()
        let processes = try childProcesses(of: getpid())
        let driver = try XCTUnwrap(processes.first { $0.command.contains("chromedriver") }, "\(processes)")
        XCTAssertEqual(getpgid(driver.pid), getpgrp(), "robotci's group kill must reach chromedriver")
        let status = try String(contentsOfFile: "/proc/\(driver.pid)/status", encoding: .utf8)
        XCTAssertTrue(status.contains("PPid:\t\(getpid())"))
    }

    /// Launch + first navigation + terminate, the browser cost every robot test pays: the first
    /// launch of a process starts the shared browser, the later ones open a fresh context in it.
    /// Prints the numbers (timing targets are checked by bench/ui, not here); asserts that
    /// the browser is shared and the contexts are not.
    func testLaunchesShareOneBrowserAndTerminateDisposesTheContext() throws {
        var samples: [Double] = []
        var browsers = Set<Int32>()
        for _ in 0..<6 {
            let app = WebApp(url: Fixture.url("app.html"))
            let start = Date()
            try app.launchOrThrow()
            XCTAssertTrue(app.buttons["home.characterButton"].exists)
            let page = try XCTUnwrap(app.currentPage)
            samples.append(Date().timeIntervalSince(start))
            browsers.insert(try XCTUnwrap(RobotKitProcess.current.browser.browserProcessID))
            let quit = Date()
            app.terminate()
            samples[samples.count - 1] += Date().timeIntervalSince(quit)
            let alive = (try? page.driver.evaluate("1", awaitPromise: false, timeout: 5)) != nil
            if WorkerEnvironment().isolation == .reset {
                // `ROBOTKIT_ISOLATION=reset`: the page is kept for the next launch, which clears it.
                XCTAssertTrue(alive, "terminate() kept the page for the next launch")
            } else {
                XCTAssertFalse(alive, "terminate() closed the context's page")
            }
        }
        let warm = samples.dropFirst().sorted()
        print("RobotKit launch + first navigation + terminate: first \(String(format: "%.3f", samples[0])) s, "
            + "then median \(String(format: "%.3f", warm[warm.count / 2])) s, samples \(samples.map { String(format: "%.3f", $0) })")
        XCTAssertEqual(browsers.count, 1, "every launch of a process uses one browser")
    }

    /// What one launch stores (cookie, local/session storage, IndexedDB, Cache Storage, a
    /// service shard) is gone for the next launch, in the same browser.
    func testNextLaunchSeesNoneOfThePreviousLaunchsStorage() async throws {
        let server = try await MockServer.create()
        try await StoragePage.serve(on: server)
        let base = await server.baseURL
        let url = try XCTUnwrap(URL(string: base + StoragePage.path))
        let first = WebApp(url: url)
        try first.launchOrThrow()
        let browser = RobotKitProcess.current.browser.browserProcessID
        try first.evaluate("return writeEverything()")
        let written = try XCTUnwrap(first.evaluate("return readEverything()") as? [String: Any])
        XCTAssertEqual(written["cookie"] as? String, "robot=1")
        for kind in ["local", "session", "indexedDB", "caches", "workers"] {
            XCTAssertEqual((written[kind] as? NSNumber)?.intValue, 1, "\(kind): \(written)")
        }
        first.terminate()

        let second = WebApp(url: url)
        try second.launchOrThrow()
        defer { second.terminate() }
        XCTAssertEqual(RobotKitProcess.current.browser.browserProcessID, browser, "the same browser")
        let seen = try XCTUnwrap(second.evaluate("return readEverything()") as? [String: Any])
        XCTAssertEqual(seen["cookie"] as? String, "", "\(seen)")
        for kind in ["local", "session", "indexedDB", "caches", "workers"] {
            XCTAssertEqual((seen[kind] as? NSNumber)?.intValue, 0, "\(kind) leaked: \(seen)")
        }
        await server.stop()
    }

    /// A browser killed between two launches is replaced by the next launch.
    func testADeadBrowserIsReplacedAtTheNextLaunch() throws {
        let app = WebApp(url: Fixture.url("app.html"))
        try app.launchOrThrow()
        let first = try XCTUnwrap(RobotKitProcess.current.browser.browserProcessID)
        kill(first, SIGKILL)
        usleep(200_000)
        app.terminate()
        try app.launchOrThrow()
        defer { app.terminate() }
        XCTAssertTrue(app.buttons["home.characterButton"].exists)
        XCTAssertNotEqual(RobotKitProcess.current.browser.browserProcessID, first)
    }

    private func childProcesses(of parent: pid_t) throws -> [(pid: pid_t, command: String)] {
        try FileManager.default.contentsOfDirectory(atPath: "/proc").compactMap { entry in
            guard let pid = pid_t(entry),
                let status = try? String(contentsOfFile: "/proc/\(entry)/status", encoding: .utf8),
                status.contains("PPid:\t\(parent)\n"),
                let command = ProcessTable.contents(of: "/proc/\(entry)/cmdline")
            else { return nil }
            return (pid, String(decoding: command, as: UTF8.self))
        }
    }
}
