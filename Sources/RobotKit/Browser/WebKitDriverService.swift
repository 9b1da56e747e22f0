import BrowserTools
import Foundation
import ProcessToolkit

/// The one WPEWebDriver of this test process, started on first use, as `ChromeDriverService`
/// starts chromedriver: from `SpawnThread` with a parent-death signal, in the test process's
/// group (robotci kills the group on a timeout), on `ROBOTCI_WEBDRIVER_PORT` or a free port,
/// its log in the process's scratch folder, killed at exit by `ExitCleanup`. cog is started
/// by the driver through a launcher in the scratch folder that gives it the same parent-death
/// signal; WebKit's helper processes (network, web) exit with cog.
///
/// Under robotci with `--browsers webkit` the shard's driver is robotci's
/// (`ROBOTCI_WEBKIT_DRIVER_URL`, started in the shard's namespace, kept across its processes):
/// this process starts none, and the kept session's id lives in the shard's folder
/// (`ROBOTCI_BROWSER_DIR`), so the next process of the shard takes the same cog over.
final class WebKitDriverService: Sendable {
    private let exit: ExitCleanup

    /// What a new session needs to know.
    struct Endpoint: Sendable {
        /// `http://127.0.0.1:PORT`
        var baseURL: String
        /// cog, or its parent-death launcher: the session's `binary`.
        var browserLauncher: String
        /// With the shard's driver: where the kept session's id is left for the shard's next process.
        var sessionFile: URL? = nil
        /// With the shard's driver: its log, which robotci writes.
        var sharedLog: URL? = nil
    }

    private let running = Locked<(driver: WebKitDriver, endpoint: Endpoint)?>(nil)
    private let shared = Locked<Endpoint?>(nil)

    /// Made by `RobotKitProcess`: one per test process.
    init(exit: ExitCleanup) {
        self.exit = exit
    }

    /// The running driver, starting it (again) when needed.
    func endpoint() throws(RobotKitError) -> Endpoint {
        let environment = WorkerEnvironment()
        if let url = environment.webKitDriverURL, let folder = environment.browserDirectory {
            return try sharedEndpoint(url: url, folder: folder)
        }
        return try running.withLock { running throws(RobotKitError) -> Endpoint in
            if let running, running.driver.process.isRunning { return running.endpoint }
            let started = try start()
            running = started
            return started.endpoint
        }
    }

    /// The driver's log (its, cog's and WebKit's stderr), for error messages.
    func logTail(maxBytes: Int = 2000) -> String {
        if let log = shared.current?.sharedLog, let data = FileManager.default.contents(atPath: log.path) {
            return String(decoding: data.suffix(maxBytes), as: UTF8.self)
        }
        return running.current?.driver.logTail(maxBytes: maxBytes) ?? ""
    }

    /// robotci's driver for the shard: the launcher for cog is written beside it, in the
    /// shard's folder (it outlives this process, as the cog it starts may).
    private func sharedEndpoint(url: String, folder: URL) throws(RobotKitError) -> Endpoint {
        try shared.withLock { shared throws(RobotKitError) -> Endpoint in
            if let shared { return shared }
            let tools: WebKitDriver.Installation
            do {
                tools = try WebKitDriver.locate()
            } catch {
                throw .missingTool("\(error)")
            }
            let launcher: String
            do {
                launcher = try WebKitDriver.writeBrowserLauncher(browser: tools.browser, in: folder)
            } catch {
                throw .driverStart("\(error)")
            }
            let made = Endpoint(baseURL: url, browserLauncher: launcher, sessionFile: folder.appendingPathComponent("webkit-session.json"),
                                sharedLog: folder.appendingPathComponent("wpewebdriver.log"))
            shared = made
            return made
        }
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
                try WebKitDriver.start(DriverLaunch(executable: tools.driver, port: port, logPath: log, group: .caller))
            }
        } catch {
            throw .driverStart(error.description)
        }
        exit.register(pid: driver.process.pid, scratch: scratch.path, installSignalHandlers: ChildProcess.setpriv == nil)
        return (driver, Endpoint(baseURL: driver.url, browserLauncher: launcher))
    }

    /// `scratch/cog`: execs cog with a parent-death signal (`WebKitDriver.writeBrowserLauncher`).
    private static func writeBrowserLauncher(browser: String, in scratch: URL) throws(RobotKitError) -> String {
        do {
            return try WebKitDriver.writeBrowserLauncher(browser: browser, in: scratch)
        } catch {
            throw .driverStart(error.description)
        }
    }
}
