import BrowserTools
import Foundation
import ProcessToolkit
import WorkerContract
#if canImport(Glibc)
import Glibc
#endif

/// One warm Chromium shared by every `launch()`, driven over the DevTools protocol: per shard
/// under robotci (it outlives the shard's test processes), per test process under plain
/// `swift test`. Each launch gets a **fresh browser context** (`Target.createBrowserContext`:
/// its own cookies, storage, cache and service workers, like a Playwright context) with one
/// page, and closing it disposes the context. A test pays a context and a navigation, not a
/// browser start.
///
/// Where the browser comes from:
/// - robotci keeps one per shard behind a relay (`ROBOTCI_BROWSER_SOCKET`, a Unix socket only
///   the run's user can open): this process connects and says which switches it needs; the
///   relay starts the browser on a shard's first launch and keeps it for the next batches.
/// - Otherwise this process starts Chromium itself on `--remote-debugging-pipe`, with a
///   parent-death signal, and the browser lives as long as the process.
/// Neither opens a port.
///
/// With `isolation: reset` (`ROBOTCI_ISOLATION`), the shard keeps one context and page, and
/// `PageReset` clears it at each launch: no new renderer per test. The page's ids and its
/// DevTools session are recorded in `ROBOTCI_BROWSER_DIR/kept.json`, so the shard's next test
/// process takes the same session (and with it a dialog the last one left open).
///
/// Faults: a page whose command failed for a browser reason is checked before the next launch;
/// a browser that does not answer within a few seconds is replaced, so only the test that was
/// using it is affected.
final class ChromiumBrowser: BrowserEngine {
    private let exit: ExitCleanup

    init(exit: ExitCleanup) {
        self.exit = exit
    }

    /// The connection this process uses now.
    private struct Live {
        let connection: DevToolsConnection
        let arguments: [String]
        let pid: Int32
        /// Which browser of the shard's relay (nil: this process's own).
        let generation: Int?
        /// This process's own browser and its scratch folder, when it started one.
        let own: ChromiumProcess?
        var scratch: URL?
        var verified = true
    }

    /// What `kept.json` holds: the shard's kept page and its DevTools session.
    private struct KeptPage: Codable {
        var generation: Int
        var contextID: String
        var targetID: String
        var sessionID: String
    }

    private struct State {
        var live: Live?
        var profileCounter = 0
        /// True while an app of this process has the kept page.
        var keptInUse = false
        var kept: KeptPage?
        /// Every page this process opened and has not closed, by target, for the suspect check.
        var open: [String: LaunchedPage] = [:]
    }

    /// Held for a whole `openPage` or `close`. The connection is not `Sendable`; the lock
    /// makes every use of it one at a time.
    private let state = Locked(State())

    var browserProcessID: Int32? { state.withLock { $0.live?.pid } }

    func openPage(arguments: [String], url: String, isolation: BrowserIsolation) throws(RobotKitError) -> LaunchedPage {
        try state.withLock { state throws(RobotKitError) -> LaunchedPage in
            var lastError: RobotKitError?
            // A second try covers a browser that died between two tests (crash, kill).
            for attempt in 0..<2 {
                do throws(RobotKitError) {
                    let live = try ready(&state, arguments: arguments, fresh: attempt > 0 && lastError?.webDriverCode == nil)
                    let page: LaunchedPage
                    if isolation == .reset && !state.keptInUse {
                        page = try keptPage(&state, live, arguments: arguments, url: url)
                        state.keptInUse = true
                    } else {
                        page = try Self.newContext(live.connection, url: url, disposeOnDetach: true)
                    }
                    if let target = page.targetID { state.open[target] = page }
                    return page
                } catch {
                    lastError = error
                    discard(&state)
                }
            }
            throw lastError ?? .noSession("could not open a page")
        }
    }

    func close(_ page: LaunchedPage) {
        state.withLock { state in
            if let target = page.targetID { state.open[target] = nil }
            if page.isSuspect { state.live?.verified = false }
            (page.driver as? DevToolsPage)?.detachHandlers()
            if page.kept {
                if state.kept?.targetID == page.targetID { state.keptInUse = false }
                return
            }
            guard let live = state.live, let context = page.contextID else { return }
            do {
                try live.connection.call("Target.disposeBrowserContext", ["browserContextId": context], timeout: 5)
            } catch {
                state.live?.verified = false
            }
        }
    }

    /// A command to the browser target, on this process's connection (for RobotKit's tests,
    /// which set what a test could leave behind: permissions, window sizes).
    @discardableResult
    func command(_ method: String, _ params: [String: Any] = [:]) throws(RobotKitError) -> [String: Any] {
        try state.withLock { state throws(RobotKitError) -> [String: Any] in
            guard let live = state.live else { throw .noSession("no browser is running: launch an app first") }
            return try live.connection.call(method, params)
        }
    }

    // MARK: - Pages

    /// A new browser context with one page loading `url`, attached.
    private static func newContext(_ connection: DevToolsConnection, url: String, disposeOnDetach: Bool)
        throws(RobotKitError) -> LaunchedPage
    {
        let context = try connection.call("Target.createBrowserContext", ["disposeOnDetach": disposeOnDetach])
        guard let contextID = context["browserContextId"] as? String else {
            throw .webDriver(code: "devtools error", "Target.createBrowserContext returned no id")
        }
        let target = try connection.call("Target.createTarget", ["url": url, "browserContextId": contextID])
        guard let targetID = target["targetId"] as? String else {
            throw .webDriver(code: "devtools error", "Target.createTarget returned no id")
        }
        let page = try DevToolsPage.attach(connection, targetID: targetID)
        return LaunchedPage(driver: page, contextID: contextID, targetID: targetID)
    }

    /// The shard's kept page, reset and loading `url`; a new one (recorded for the shard's
    /// next test process) when there is none or it cannot be reset.
    private func keptPage(_ state: inout State, _ live: Live, arguments: [String], url: String) throws(RobotKitError)
        -> LaunchedPage
    {
        if let kept = state.kept ?? Self.loadKept(generation: live.generation) {
            let page = DevToolsPage(connection: live.connection, session: kept.sessionID, targetID: kept.targetID)
            let reset = PageReset(page: page, contextID: kept.contextID, windowSize: PageReset.windowSize(in: arguments))
            do throws(RobotKitError) {
                try reset.run(opening: url)
                state.kept = kept
                return LaunchedPage(driver: page, contextID: kept.contextID, targetID: kept.targetID, kept: true)
            } catch where error.webDriverCode != nil {
                // Gone or not resettable: a new context replaces it, nothing of it is kept. Said,
                // since it costs the launch a new renderer (bench/RESULTS.md).
                page.detachHandlers()
                print("robotkit: the kept page could not be reset (\(error)); a new browser context replaces it")
                _ = try? live.connection.call("Target.disposeBrowserContext", ["browserContextId": kept.contextID], timeout: 5)
            }
        }
        // Not disposed when the connection closes: the shard keeps it.
        let fresh = try Self.newContext(live.connection, url: url, disposeOnDetach: false)
        guard let driver = fresh.driver as? DevToolsPage, let contextID = fresh.contextID else { return fresh }
        let kept = KeptPage(generation: live.generation ?? 0, contextID: contextID, targetID: driver.targetID, sessionID: driver.session)
        state.kept = kept
        Self.saveKept(kept)
        return LaunchedPage(driver: driver, contextID: contextID, targetID: driver.targetID, kept: true)
    }

    private static var keptURL: URL? {
        WorkerEnvironment().browserDirectory?.appendingPathComponent("kept.json")
    }

    /// The kept page another test process of the shard recorded, if it is of this browser.
    private static func loadKept(generation: Int?) -> KeptPage? {
        guard let generation, let url = keptURL, let data = try? Data(contentsOf: url),
            let kept = try? JSONDecoder().decode(KeptPage.self, from: data), kept.generation == generation
        else { return nil }
        return kept
    }

    private static func saveKept(_ kept: KeptPage) {
        if let url = keptURL, let data = try? JSONEncoder().encode(kept) { try? data.write(to: url, options: .atomic) }
    }

    // MARK: - The browser

    /// A live, checked browser for `arguments`: this process's connection, the shard's relay,
    /// or a browser of this process's own. `fresh`: the last one did not answer, replace it.
    private func ready(_ state: inout State, arguments: [String], fresh: Bool) throws(RobotKitError) -> Live {
        if let live = state.live, live.arguments == arguments, !fresh {
            if live.verified && !state.open.values.contains(where: \.isSuspect) { return live }
            if (try? live.connection.call("Browser.getVersion", timeout: 3)) != nil {
                state.live?.verified = true
                return live
            }
        }
        let replace = fresh || state.live != nil
        discard(&state)
        let environment = WorkerEnvironment()
        let live: Live
        if let socket = environment.browserSocket {
            live = try Self.connect(relay: socket, arguments: arguments, fresh: replace)
            Self.disposeStrays(live, keeping: Self.loadKept(generation: live.generation))
        } else {
            state.profileCounter += 1
            live = try startOwn(arguments: arguments, number: state.profileCounter)
        }
        state.live = live
        return live
    }

    /// Connects to the shard's relay and asks for a browser with `arguments`.
    private static func connect(relay socket: String, arguments: [String], fresh: Bool) throws(RobotKitError) -> Live {
        guard let fd = LocalSocket.connect(path: socket) else {
            throw .transport("the shard's browser channel \(socket) refused the connection: \(String(cString: strerror(errno)))")
        }
        let connection = DevToolsConnection(socket: fd, owned: true)
        let answer = try connection.exchange(RelayHello.request(arguments: arguments, fresh: fresh), timeout: 60)
        switch RelayHello.answer(in: answer) {
        case .success(let browser):
            return Live(connection: connection, arguments: arguments, pid: browser.pid, generation: browser.generation, own: nil)
        case .failure(let error):
            throw .driverStart("robotci could not start the shard's browser: \(error.description)")
        }
    }

    /// Contexts a crashed or killed test process left behind in the shard's browser (they are
    /// not disposed with a relayed connection), but the kept page's.
    private static func disposeStrays(_ live: Live, keeping kept: KeptPage?) {
        guard let contexts = try? live.connection.call("Target.getBrowserContexts", timeout: 5)["browserContextIds"] as? [String]
        else { return }
        let strays = contexts.filter { $0 != kept?.contextID }
        guard !strays.isEmpty else { return }
        _ = try? live.connection.callAll(
            strays.map { .init(method: "Target.disposeBrowserContext", params: ["browserContextId": $0]) }, timeout: 5)
    }

    /// Starts Chromium for this process on a pipe, in its scratch folder.
    private func startOwn(arguments: [String], number: Int) throws(RobotKitError) -> Live {
        let chromium: String
        do {
            chromium = try BrowserInstallation.locateChromium()
        } catch {
            throw .missingTool(error.description)
        }
        let scratch = try ChromeDriverService.makeScratch()
        var launch = ChromiumProcess.Launch(
            executable: chromium, arguments: arguments, profile: scratch.appendingPathComponent("profile-\(number)").path,
            logPath: scratch.appendingPathComponent("chromium.log").path, group: .caller)
        launch.temporaryDirectory = scratch.appendingPathComponent("tmp").path
        let settled = launch
        let started: ChromiumProcess
        do {
            started = try SpawnThread.shared.run { () throws(ChromeDriver.StartFailure) -> ChromiumProcess in
                try ChromiumProcess.start(settled)
            }
        } catch {
            throw .driverStart(error.description)
        }
        exit.register(pid: started.process.pid, scratch: scratch.path, installSignalHandlers: ChildProcess.setpriv == nil)
        let connection = DevToolsConnection(socket: started.channel, owned: false)
        do {
            try connection.call("Browser.getVersion", timeout: 30)
        } catch {
            started.stop()
            throw .driverStart("chromium did not answer on its DevTools pipe: \(error.message)\n\(started.logTail())")
        }
        return Live(connection: connection, arguments: arguments, pid: started.process.pid, generation: nil, own: started,
                    scratch: scratch)
    }

    /// Ends the current connection; this process's own browser is killed with it.
    private func discard(_ state: inout State) {
        guard let current = state.live else { return }
        state.live = nil
        state.keptInUse = false
        state.kept = nil
        state.open = [:]
        current.own?.stop()
        if let scratch = current.scratch {
            ExitCleanup.killProcesses(mentioning: scratch.path)
            try? FileManager.default.removeItem(at: scratch)
        }
    }
}
