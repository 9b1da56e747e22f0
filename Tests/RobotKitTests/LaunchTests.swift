import Foundation
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
            "ROBOTCI_ATTEMPT": "2", "ROBOTCI_WORKER_INDEX": "3", "ROBOTCI_RUN_ID": "run-1",
        ])
        XCTAssertEqual(environment.webDriverPort, 9600)
        XCTAssertEqual(environment.mockPort, 9700)
        XCTAssertEqual(environment.artifactsDirectory?.path, "/tmp/a")
        XCTAssertEqual(environment.attempt, 2)
        XCTAssertEqual(environment.workerIndex, 3)
        XCTAssertEqual(environment.runID, "run-1")
        XCTAssertTrue(environment.isUnderRobotCI)
        let plain = WorkerEnvironment([:])
        XCTAssertNil(plain.webDriverPort)
        XCTAssertEqual(plain.attempt, 1)
        XCTAssertFalse(plain.isUnderRobotCI)
    }

    func testMissingBrowserSaysWhatToInstall() {
        XCTAssertThrowsError(
            try BrowserInstallation.locate(environment: ["CHROME_BIN": "/nonexistent/chromium", "PATH": "/nonexistent"])
        ) { error in
            XCTAssertTrue("\(error)".contains("apt-get install chromium chromium-driver"), "\(error)")
        }
        XCTAssertThrowsError(try BrowserInstallation.locate(environment: ["CHROMEDRIVER": "/nonexistent/cd"])) { error in
            XCTAssertTrue("\(error)".hasPrefix("chromedriver is not installed"), "\(error)")
        }
        XCTAssertNoThrow(try BrowserInstallation.locate())
    }

    func testChromedriverRunsInThisProcessGroupWithAParentDeathSignal() throws {
        _ = try ChromeDriverService.shared.endpoint()
        let processes = try childProcesses(of: getpid())
        let driver = try XCTUnwrap(processes.first { $0.command.contains("chromedriver") }, "\(processes)")
        XCTAssertEqual(getpgid(driver.pid), getpgrp(), "robotci's group kill must reach chromedriver")
        let status = try String(contentsOfFile: "/proc/\(driver.pid)/status", encoding: .utf8)
        XCTAssertTrue(status.contains("PPid:\t\(getpid())"))
    }

    /// Launch + first navigation + quit, the browser cost every robot test pays:
    /// cold (a browser started by launch()) and warm (the spare started during the
    /// previous test, which is how a suite runs).
    func testBrowserOverheadPerTest() throws {
        _ = try ChromeDriverService.shared.endpoint()  // started once per process, not per test
        func measure(prewarm: Bool) throws -> Double {
            SessionPool.shared.isEnabled = prewarm
            var samples: [Double] = []
            for _ in 0..<5 {
                let app = WebApp(url: Fixture.url("app.html"))
                let start = Date()
                try app.launchOrThrow()
                XCTAssertTrue(app.buttons["home.characterButton"].exists)
                var elapsed = Date().timeIntervalSince(start)
                Thread.sleep(forTimeInterval: 1)  // the test's own work, not measured
                let quit = Date()
                app.terminate()
                elapsed += Date().timeIntervalSince(quit)
                samples.append(elapsed)
            }
            let median = samples.sorted()[samples.count / 2]
            print("RobotKit browser overhead per test (launch + first navigation + quit), \(prewarm ? "warm" : "cold"): "
                + "median \(String(format: "%.3f", median)) s, samples \(samples.map { String(format: "%.3f", $0) })")
            return median
        }
        let cold = try measure(prewarm: false)
        let warm = try measure(prewarm: true)
        SessionPool.shared.isEnabled = true
        XCTAssertLessThan(warm, 1.5)
        XCTAssertLessThan(cold, 5, "a cold launch under heavy load")
    }

    private func childProcesses(of parent: pid_t) throws -> [(pid: pid_t, command: String)] {
        try FileManager.default.contentsOfDirectory(atPath: "/proc").compactMap { entry in
            guard let pid = pid_t(entry),
                let status = try? String(contentsOfFile: "/proc/\(entry)/status", encoding: .utf8),
                status.contains("PPid:\t\(parent)\n"),
                let command = FileHandle(forReadingAtPath: "/proc/\(entry)/cmdline")?.readDataToEndOfFile()
            else { return nil }
            return (pid, String(decoding: command, as: UTF8.self))
        }
    }
}
