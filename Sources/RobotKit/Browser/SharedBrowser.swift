import Foundation
import HTTPClient
import ProcessToolkit
import WorkerContract
#if canImport(Glibc)
import Glibc
#endif

/// One warm Chromium shared by every `launch()`: per shard under robotci (it outlives
/// the shard's test processes), per test process under plain `swift test`. Each launch gets
/// a **fresh browser context** (`Target.createBrowserContext`: its own cookies, local and
/// session storage, IndexedDB, cache and service workers, like a Playwright context) with
/// one page, and `terminate()` disposes it. A test pays a context and a navigation
/// (≈ 0.1 s), not a browser start (≈ 1 s).
///
/// Where the browser comes from:
/// - robotci runs one chromedriver per shard and says where (`ROBOTCI_WEBDRIVER_URL`,
///   `ROBOTCI_BROWSER_DIR`). The first launch in the shard starts Chromium through it and
///   writes the session's id to `ROBOTCI_BROWSER_DIR/session.json`; later test processes
///   of the shard attach to that session. robotci replaces the shard's chromedriver (and so
///   the browser) after a batch that hung, and kills it when the run ends.
/// - Otherwise (or when that chromedriver has died) `ChromeDriverService` starts one for
///   this process, and the browser lives as long as the process.
///
/// With `isolation: reset` (`ROBOTCI_ISOLATION`), the shard instead keeps one context and
/// page (recorded in `session.json`) and `PageReset` clears it at each launch: no new
/// renderer per test. An app launched while the kept page is in use gets a fresh context.
///
/// Faults: a session that failed a command for a browser reason (no answer, crashed,
/// disconnected) is checked before the next launch; one that does not answer within a few
/// seconds has its browser process killed and is replaced, so only the test that was using
/// it is affected.
final class SharedBrowser: Sendable {
    /// This process's own chromedriver, for when robotci has not given the shard one.
    private let driver: ChromeDriverService

    /// Made by `RobotKitProcess`: one per test process.
    init(driver: ChromeDriverService) {
        self.driver = driver
    }

    /// A launched page: its own browser context, current in `session`.
    struct Page {
        let session: WebDriverSession
        let contextID: String
        let targetID: String
        /// The shard's kept page (`isolation: reset`): closing it keeps it for the next launch.
        var kept = false
    }

    /// The context and page a shard keeps under `isolation: reset`.
    private struct KeptPage: Codable {
        var contextID: String
        var targetID: String
    }

    /// What `session.json` holds, so the shard's next test process can reattach.
    private struct Record: Codable {
        var driverURL: String
        var sessionID: String
        var debuggerAddress: String
        var browserPID: Int32?
        var key: [String]
        var profile: String
        var kept: KeptPage?
    }

    /// The browser this process uses now.
    private struct Live {
        var record: Record
        let session: WebDriverSession
        let devtools: DevToolsSocket
        /// True once this process has checked the session (attached ones are checked first).
        var verified: Bool
    }

    /// Held for a whole `openPage` or `close`: one test process opens one page at a time.
    private struct State {
        var live: Live?
        var profileCounter = 0
        /// True while an app of this process has the kept page.
        var keptInUse = false
        /// Whether this process has read away the console lines it found in chromedriver's
        /// log: an earlier test process's, which may have crashed before it read them.
        var consoleDrained = false
    }

    private let state = Locked(State())

    /// The Chromium process of the current shared browser, if one is up.
    var browserProcessID: Int32? { state.withLock { $0.live?.record.browserPID } }

    /// Opens a new page in a fresh browser context of the shared browser whose Chromium
    /// switches are `arguments` (a browser with other switches is replaced).
    /// The page starts loading `url` at once, while chromedriver attaches to it.
    /// With `.reset`, the shard's kept page, cleared, unless an app of this process has it.
    func openPage(arguments: [String], url: String = "about:blank", isolation: BrowserIsolation = WorkerEnvironment().isolation)
        throws(RobotKitError) -> Page
    {
        try state.withLock { state throws(RobotKitError) -> Page in
            var lastError: RobotKitError?
            // A second try covers a browser that died between two tests (crash, kill).
            for _ in 0..<2 {
                do throws(RobotKitError) {
                    let browser = try ready(&state, arguments: arguments, isolation: isolation)
                    if !state.consoleDrained {
                        _ = try? browser.session.browserLog()
                        state.consoleDrained = true
                    }
                    if isolation == .reset && !state.keptInUse {
                        let page = try keptPage(&state, browser, arguments: arguments, url: url)
                        state.keptInUse = true
                        return page
                    }
                    let fresh = try Self.newContext(browser.devtools, url: url, disposeOnDetach: true)
                    // chromedriver names windows by DevTools target id.
                    try browser.session.switchToWindow(fresh.targetID)
                    return Page(session: browser.session, contextID: fresh.contextID, targetID: fresh.targetID)
                } catch {
                    lastError = error
                    discard(&state, reason: "\(error)")
                }
            }
            throw lastError ?? .noSession("could not open a page")
        }
    }

    /// The shard's kept page, reset and loading `url`; a new one (recorded for the shard's
    /// next test process) when there is none or it cannot be reset.
    private func keptPage(_ state: inout State, _ browser: Live, arguments: [String], url: String) throws(RobotKitError) -> Page {
        if let kept = browser.record.kept {
            let reset = PageReset(
                session: browser.session, devtools: browser.devtools, contextID: kept.contextID, targetID: kept.targetID,
                windowSize: PageReset.windowSize(in: arguments))
            do throws(RobotKitError) {
                try reset.run(opening: url)
                return Page(session: browser.session, contextID: kept.contextID, targetID: kept.targetID, kept: true)
            } catch where !WebDriverSession.meansBrowserTrouble(error) {
                // Gone or not resettable: a new context replaces it, nothing of it is kept. Said,
                // since it costs the launch a new renderer (bench/RESULTS.md).
                print("robotkit: the kept page could not be reset (\(error)); a new browser context replaces it")
                _ = try? browser.devtools.call("Target.disposeBrowserContext", ["browserContextId": kept.contextID], timeout: 5)
            }
        }
        // Not disposed when this process's DevTools connection closes: the shard keeps it.
        let fresh = try Self.newContext(browser.devtools, url: url, disposeOnDetach: false)
        try browser.session.switchToWindow(fresh.targetID)
        state.live?.record.kept = KeptPage(contextID: fresh.contextID, targetID: fresh.targetID)
        if let record = state.live?.record { Self.save(record, to: try endpoint().recordURL) }
        return Page(session: browser.session, contextID: fresh.contextID, targetID: fresh.targetID, kept: true)
    }

    /// A new browser context with one page loading `url`.
    private static func newContext(_ devtools: DevToolsSocket, url: String, disposeOnDetach: Bool) throws(RobotKitError)
        -> (contextID: String, targetID: String)
    {
        let context = try devtools.call("Target.createBrowserContext", ["disposeOnDetach": disposeOnDetach])
        guard let contextID = context["browserContextId"] as? String else {
            throw .webDriver(code: "devtools error", "Target.createBrowserContext returned no id")
        }
        let target = try devtools.call("Target.createTarget", ["url": url, "browserContextId": contextID])
        guard let targetID = target["targetId"] as? String else {
            throw .webDriver(code: "devtools error", "Target.createTarget returned no id")
        }
        return (contextID, targetID)
    }

    /// Disposes the page's browser context (its pages, storage, cookies, cache, workers); the
    /// kept page stays for the next launch, which resets it.
    func close(_ page: Page) {
        state.withLock { state in
            if page.kept {
                if state.live?.record.kept?.targetID == page.targetID { state.keptInUse = false }
                return
            }
            guard let live = state.live, live.session === page.session else { return }
            do {
                try live.devtools.call("Target.disposeBrowserContext", ["browserContextId": page.contextID], timeout: 5)
            } catch {
                state.live?.verified = false
            }
        }
    }

    /// A live, checked browser for `arguments`: the one in this process, the shard's
    /// (from `session.json`), or a new one.
    private func ready(_ state: inout State, arguments: [String], isolation: BrowserIsolation) throws(RobotKitError) -> Live {
        let endpoint = try endpoint()
        let key = [endpoint.url] + arguments
        if let live = state.live, live.record.key == key, live.record.driverURL == endpoint.url {
            if live.verified && !live.session.isSuspect { return live }
            if Self.answers(live.session) {
                state.live?.verified = true
                return live
            }
        }
        if state.live != nil { discard(&state, reason: "the browser stopped answering") }
        if let recordURL = endpoint.recordURL, let attached = Self.attach(recordURL: recordURL, key: key, isolation: isolation) {
            state.live = attached
            return attached
        }
        state.profileCounter += 1
        let started = try start(endpoint: endpoint, key: key, arguments: arguments, profileNumber: state.profileCounter)
        state.live = started
        return started
    }

    private static func attach(recordURL: URL, key: [String], isolation: BrowserIsolation) -> Live? {
        guard let data = try? Data(contentsOf: recordURL),
            var record = try? JSONDecoder().decode(Record.self, from: data)
        else { return nil }
        guard record.key == key, let session = try? WebDriverSession.attach(driverURL: record.driverURL, id: record.sessionID),
            Self.answers(session), let devtools = try? Self.connect(debuggerAddress: record.debuggerAddress)
        else {
            Self.abandon(record: record)
            try? FileManager.default.removeItem(at: recordURL)
            return nil
        }
        // Contexts a crashed or killed test process left behind (normally they go with its
        // connection), and a kept page the run's isolation does not use.
        if isolation != .reset { record.kept = nil }
        if let contexts = try? devtools.call("Target.getBrowserContexts", timeout: 5)["browserContextIds"] as? [String] {
            for id in contexts where id != record.kept?.contextID {
                _ = try? devtools.call("Target.disposeBrowserContext", ["browserContextId": id], timeout: 5)
            }
        }
        return Live(record: record, session: session, devtools: devtools, verified: true)
    }

    private func start(endpoint: Endpoint, key: [String], arguments: [String], profileNumber: Int)
        throws(RobotKitError) -> Live
    {
        let profile = try Self.newProfile(in: endpoint.profiles, number: profileNumber)
        let capabilities: [String: Any] = [
            "browserName": "chrome",
            "pageLoadStrategy": "none",
            "timeouts": ["script": 600_000, "pageLoad": 60_000, "implicit": 0],
            "goog:loggingPrefs": ["browser": "ALL"],
            "goog:chromeOptions": [
                "binary": endpoint.launcher, "args": arguments + ["--user-data-dir=\(profile.path)"],
                // chromedriver's default --enable-logging makes Chromium log every INFO line.
                "excludeSwitches": ["enable-logging"],
            ],
        ]
        let session: WebDriverSession
        do {
            session = try WebDriverSession.create(driverURL: endpoint.url, capabilities: capabilities)
        } catch {
            try? FileManager.default.removeItem(at: profile)
            if error.webDriverCode == "session not created" {
                throw .driverStart("\(error.message)\nchromedriver log:\n\(driver.logTail())")
            }
            throw error
        }
        guard let address = session.debuggerAddress else {
            try? session.delete(timeout: 5)
            throw .driverStart("chromedriver did not say where the browser's DevTools endpoint is (goog:chromeOptions.debuggerAddress)")
        }
        let record = Record(
            driverURL: endpoint.url, sessionID: session.id, debuggerAddress: address, browserPID: session.browserProcessID,
            key: key, profile: profile.path)
        let devtools: DevToolsSocket
        do {
            devtools = try Self.connect(debuggerAddress: address)
        } catch {
            Self.abandon(record: record)
            throw error
        }
        Self.save(record, to: endpoint.recordURL)
        return Live(record: record, session: session, devtools: devtools, verified: true)
    }

    /// Ends the current browser: asks chromedriver to close it; one that does not answer
    /// (hung) or is half gone has its process killed.
    private func discard(_ state: inout State, reason: String) {
        guard let current = state.live else { return }
        state.live = nil
        state.keptInUse = false
        Self.abandon(record: current.record)
        if let recordURL = (try? endpoint())?.recordURL { try? FileManager.default.removeItem(at: recordURL) }
    }

    /// Writes `session.json` for the shard's next test process (nothing outside robotci).
    private static func save(_ record: Record, to url: URL?) {
        if let url, let data = try? JSONEncoder().encode(record) { try? data.write(to: url, options: .atomic) }
    }

    private static func abandon(record: Record) {
        if let pid = record.browserPID, pid > 0 { kill(pid, SIGKILL) }
        if let session = try? WebDriverSession.attach(driverURL: record.driverURL, id: record.sessionID) {
            try? session.delete(timeout: 5)
        }
        try? FileManager.default.removeItem(atPath: record.profile)
    }

    private static func answers(_ session: WebDriverSession) -> Bool {
        (try? session.windowHandles(timeout: 3)) != nil
    }

    /// Connects to the browser target's DevTools WebSocket at `localhost:PORT`.
    private static func connect(debuggerAddress: String) throws(RobotKitError) -> DevToolsSocket {
        let base = "http://\(debuggerAddress.replacingOccurrences(of: "localhost", with: "127.0.0.1"))"
        let version: [String: Any]
        do {
            let client = try HTTPClient(defaultTimeout: 5, connectTimeout: 2)
            let response = try client.send(HTTPRequest(url: "\(base)/json/version"))
            version = (try JSONSerialization.jsonObject(with: response.body)) as? [String: Any] ?? [:]
        } catch {
            throw .transport("devtools: \(base)/json/version: \(error)")
        }
        guard let url = version["webSocketDebuggerUrl"] as? String else {
            throw .transport("devtools: \(base)/json/version names no webSocketDebuggerUrl")
        }
        return try DevToolsSocket(url: url)
    }

    private static func newProfile(in folder: URL, number: Int) throws(RobotKitError) -> URL {
        let url = folder.appendingPathComponent("profile-\(getpid())-\(number)", isDirectory: true)
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        } catch {
            throw .driverStart("could not create chromium profile \(url.path): \(error)")
        }
        return url
    }

    // MARK: - Where the driver is

    struct Endpoint {
        var url: String
        var launcher: String
        /// Where profiles go.
        var profiles: URL
        /// `session.json` when the browser outlives this process (robotci's shard), else nil.
        var recordURL: URL?
    }

    /// robotci's chromedriver for this shard while it runs, else this process's own.
    func endpoint(environment: WorkerEnvironment = WorkerEnvironment()) throws(RobotKitError) -> Endpoint {
        if let url = environment.webDriverURL, let directory = environment.browserDirectory,
            environment.webDriverPID.map(ProcessTable.isRunning) ?? true
        {
            let launcher = try ChromeDriverService.chromiumLauncher(in: directory)
            return Endpoint(
                url: url, launcher: launcher, profiles: directory, recordURL: directory.appendingPathComponent("session.json"))
        }
        let own = try driver.endpoint()
        return Endpoint(url: own.baseURL, launcher: own.chromiumLauncher, profiles: own.scratch, recordURL: nil)
    }

    /// When `url` belongs to a chromedriver that has died, a sentence that says so.
    func deathNotice(for url: String) -> String? {
        let environment = WorkerEnvironment()
        if let slotURL = environment.webDriverURL, url.hasPrefix(slotURL + "/"), let pid = environment.webDriverPID,
            !ProcessTable.isRunning(pid)
        {
            return "the shard's chromedriver (pid \(pid), \(slotURL)) is no longer running: it exited or was killed "
                + "while the test used it; the browser went with it, and the next launch() starts a new chromedriver"
        }
        return driver.deathNotice(for: url)
    }
}
