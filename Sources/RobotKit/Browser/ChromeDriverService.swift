import BrowserTools
import Foundation
import LoopbackSockets
import ProcessToolkit
import StandardStreams
#if canImport(Glibc)
import Glibc
#endif

/// The one chromedriver of this test process, started on first use (ProcessToolkit's
/// `ChromeDriver.start`, as the runner starts a shard's).
///
/// It dies with the test process however that ends: it is spawned with a
/// parent-death signal (`setpriv --pdeathsig KILL`) from `SpawnThread`, a thread that never
/// exits, it stays in the test process's group (robotci kills the group on a
/// timeout), and an `atexit` handler stops it on a normal exit. Chromium is
/// launched through a wrapper that gives it the same parent-death signal, so
/// killing chromedriver takes its browsers along.
final class ChromeDriverService: Sendable {
    /// Told the driver's pid and scratch folder, to stop and remove them when the process ends.
    private let exit: ExitCleanup

    /// What a new browser session needs to know.
    struct Endpoint: Sendable {
        /// `http://127.0.0.1:PORT`
        var baseURL: String
        /// The chromium binary (or its parent-death wrapper) to hand chromedriver.
        var chromiumLauncher: String
        /// This process's scratch folder: profiles and the driver log.
        var scratch: URL
    }

    /// The driver this process started, and what a session needs of it; nil before the first
    /// launch.
    private let running = Locked<(driver: ChromeDriver, endpoint: Endpoint)?>(nil)

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

    /// When `url` is this process's chromedriver and it has died (killed, crashed), a sentence
    /// that says so; nil while it runs. `endpoint()` starts a new one for the next launch.
    func deathNotice(for url: String) -> String? {
        guard let driver = running.current?.driver, url.hasPrefix(driver.url + "/"), !driver.process.isRunning else {
            return nil
        }
        return "chromedriver (pid \(driver.process.pid), \(driver.url)) is no longer running: it exited or was killed "
            + "while the test used it; the browser went with it, and the next launch() starts a new chromedriver"
    }

    /// The chromedriver log (its and chromium's stderr), for error messages.
    func logTail(maxBytes: Int = 2000) -> String {
        running.current?.driver.logTail(maxBytes: maxBytes) ?? ""
    }

    private func start() throws(RobotKitError) -> (driver: ChromeDriver, endpoint: Endpoint) {
        let tools = try Self.tools()
        let scratch = try Self.makeScratch()
        let port = Self.usablePort(preferred: WorkerEnvironment().webDriverPort)
        let launcher = try Self.writeChromiumLauncher(tools: tools, in: scratch)
        let log = scratch.appendingPathComponent("chromedriver.log").path
        // In the test process's group and with its tag (robotci's kills and stray reaper find it).
        let driver: ChromeDriver
        do {
            driver = try SpawnThread.shared.run { () throws(ChromeDriver.StartFailure) -> ChromeDriver in
                try ChromeDriver.start(
                    DriverLaunch(executable: tools.chromedriver, port: port, logPath: log, group: .caller),
                    temporaryDirectory: scratch.appendingPathComponent("tmp").path)
            }
        } catch {
            throw .driverStart(error.description)
        }
        exit.register(pid: driver.process.pid, scratch: scratch.path, installSignalHandlers: tools.setpriv == nil)
        return (driver, Endpoint(baseURL: driver.url, chromiumLauncher: launcher, scratch: scratch))
    }

    /// This machine's browser tools, or what to install.
    static func tools() throws(RobotKitError) -> BrowserInstallation {
        do {
            return try BrowserInstallation.locate()
        } catch {
            throw .missingTool(error.description)
        }
    }

    /// The preferred port (`ROBOTCI_WEBDRIVER_PORT`) when it is free, else one the OS picks,
    /// for any WebDriver server this process starts.
    static func usablePort(preferred: Int?) -> Int {
        if let preferred, Loopback.isFree(preferred) { return preferred }
        if let preferred {
            StandardStream.error.write("RobotKit: ROBOTCI_WEBDRIVER_PORT \(preferred) is in use; using a free port\n")
        }
        return Loopback.freePort() ?? 9515
    }

    /// The Chromium launcher (see `writeChromiumLauncher`) in `folder`, written when missing.
    /// Asked on every launch under robotci, so a launcher already written is taken as it is,
    /// before any search for the tools.
    static func chromiumLauncher(in folder: URL) throws(RobotKitError) -> String {
        let path = folder.appendingPathComponent("chromium").path
        if FileManager.default.isExecutableFile(atPath: path) { return path }
        let tools = try tools()
        guard tools.needsLauncher else { return tools.chromium }
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw .driverStart("could not create the browser folder \(folder.path): \(error)")
        }
        return try writeChromiumLauncher(tools: tools, in: folder)
    }

    private static func writeChromiumLauncher(tools: BrowserInstallation, in scratch: URL) throws(RobotKitError)
        -> String
    {
        guard tools.needsLauncher else { return tools.chromium }
        let url = scratch.appendingPathComponent("chromium")
        // The headless shell, started with a profile folder, opens no page, and chromedriver
        // then fails its new session with "unable to discover open pages"; a first page fixes it.
        let firstPage = tools.isHeadlessShell ? " about:blank" : ""
        let deathSignal = tools.setpriv.map { "'\($0)' --pdeathsig KILL " } ?? ""
        let script = "#!/bin/sh\nexec \(deathSignal)'\(tools.chromium)' \"$@\"\(firstPage)\n"
        do {
            try Data(script.utf8).write(to: url)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: url.path)
        } catch {
            throw .driverStart("could not write the chromium launcher \(url.path): \(error)")
        }
        return url.path
    }

    /// A new `$TMPDIR/robotkit-PID-XXXXXX` (mkdtemp: a name nobody could predict or already
    /// hold, mode 0700), after removing folders of processes that are gone.
    static func makeScratch() throws(RobotKitError) -> URL {
        let files = FileManager.default
        let temporary = files.temporaryDirectory
        if let entries = try? files.contentsOfDirectory(atPath: temporary.path) {
            for entry in entries where entry.hasPrefix("robotkit-") {
                guard let owner = scratchOwner(entry), !ProcessTable.isRunning(owner) else { continue }
                try? files.removeItem(at: temporary.appendingPathComponent(entry))
            }
        }
        guard let made = PrivateFolder.make(prefix: "robotkit-\(getpid())-") else {
            throw .driverStart("could not create a scratch folder in \(temporary.path): \(String(cString: strerror(errno)))")
        }
        return made
    }

    /// The pid in a scratch folder's name: `robotkit-PID-XXXXXX` (or an older `robotkit-PID`).
    static func scratchOwner(_ name: String) -> pid_t? {
        guard name.hasPrefix("robotkit-") else { return nil }
        let rest = name.dropFirst("robotkit-".count)
        return pid_t(rest.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false).first ?? rest)
    }

}
