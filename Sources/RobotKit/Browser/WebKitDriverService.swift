import BrowserTools
import Foundation
import ProcessToolkit

/// The one WPEWebDriver of this test process, started on first use, as `ChromeDriverService`
/// starts chromedriver: from `SpawnThread` with a parent-death signal, in the test process's
/// group (robotci kills the group on a timeout), on `ROBOTCI_WEBDRIVER_PORT` or a free port,
/// its log in the process's scratch folder, killed at exit by `ExitCleanup`. cog is started
/// by the driver through a launcher in the scratch folder that gives it the same parent-death
/// signal; WebKit's helper processes (network, web) exit with cog.
final class WebKitDriverService: Sendable {
    private let exit: ExitCleanup

    /// What a new session needs to know.
    struct Endpoint: Sendable {
        /// `http://127.0.0.1:PORT`
        var baseURL: String
        /// cog, or its parent-death launcher: the session's `binary`.
        var browserLauncher: String
    }

    private let running = Locked<(driver: WebKitDriver, endpoint: Endpoint)?>(nil)

    /// Made by `RobotKitProcess`: one per test process.
    init(exit: ExitCleanup) {
        self.exit = exit
    }

    /// The running driver, starting it (again) when needed.
    func endpoint() throws(RobotKitError) -> Endpoint {
        try running.withLock { running throws(RobotKitError) -> Endpoint in
            if let running, running.driver.process.isRunning { return running.endpoint }
            let started = try start()
            running = started
            return started.endpoint
        }
    }

    /// The driver's log (its, cog's and WebKit's stderr), for error messages.
    func logTail(maxBytes: Int = 2000) -> String {
        running.current?.driver.logTail(maxBytes: maxBytes) ?? ""
    }

    /// The driver's pid while it runs (tests look for its processes).
    var driverProcessID: Int32? { running.current?.driver.process.pid }

    private func start() throws(RobotKitError) -> (driver: WebKitDriver, endpoint: Endpoint) {
        let tools: WebKitDriver.Installation
        do {
            tools = try WebKitDriver.locate()
        } catch {
            throw .missingTool(error.description)
        }
        let scratch = try ChromeDriverService.makeScratch()
        let port = ChromeDriverService.usablePort(preferred: WorkerEnvironment().webDriverPort)
        let launcher = try Self.writeBrowserLauncher(browser: tools.browser, in: scratch)
        let log = scratch.appendingPathComponent("wpewebdriver.log").path
        let driver: WebKitDriver
        do {
            driver = try SpawnThread.shared.run { () throws(WebKitDriver.Failure) -> WebKitDriver in
                try WebKitDriver.start(executable: tools.driver, port: port, logPath: log, group: .caller)
            }
        } catch {
            throw .driverStart(error.description)
        }
        exit.register(pid: driver.process.pid, scratch: scratch.path, installSignalHandlers: ChildProcess.setpriv == nil)
        return (driver, Endpoint(baseURL: driver.url, browserLauncher: launcher))
    }

    /// `scratch/cog`: execs cog with a parent-death signal, so a killed driver takes its
    /// browser along (cog outlives a dead WPEWebDriver otherwise).
    private static func writeBrowserLauncher(browser: String, in scratch: URL) throws(RobotKitError) -> String {
        guard let setpriv = ChildProcess.setpriv else { return browser }
        let url = scratch.appendingPathComponent("cog")
        let script = "#!/bin/sh\nexec '\(setpriv)' --pdeathsig KILL '\(browser)' \"$@\"\n"
        do {
            try Data(script.utf8).write(to: url)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: url.path)
        } catch {
            throw .driverStart("could not write the cog launcher \(url.path): \(error)")
        }
        return url.path
    }
}
