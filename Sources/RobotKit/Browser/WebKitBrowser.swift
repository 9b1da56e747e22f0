import BrowserTools
import Foundation
import ProcessToolkit
import WorkerContract

/// WebKit (WPE WebKit's cog, Safari's engine) through the WPEWebDriver this process starts
/// (`WebKitDriverService`), kept warm: one session serves every launch of the test process,
/// and `WebKitSessionReset` makes it look new at each launch's end. A launch whose session
/// cannot be reset (it used two origins, a command failed, the browser looked in trouble) ends
/// it instead, and the next launch starts a new one: a new cog, isolated by construction.
///
/// What WebKit's WebDriver lacks, RobotKit says: `consoleLog()` throws (no log endpoint), the
/// viewport is cog's fixed 800×600 (`setWindowRect: false`), so a `windowSize` other than the
/// default fails the launch. Alone, the session is per test process (it does not outlive the
/// driver this process starts); under robotci's `--browsers webkit` it is per shard: the
/// driver is robotci's, and a session reset clean is left for the shard's next process
/// (`KeptSessionFile`), which takes it over.
final class WebKitBrowser: BrowserEngine {
    private let driver: WebKitDriverService

    /// The kept session and its first window. A `WebDriverSession` is not `Sendable`; it is
    /// only used by the test that launched, one at a time, under this lock.
    private struct Kept {
        let session: WebDriverSession
        let window: String
    }

    private let kept = Locked<Kept?>(nil)

    /// What `consoleLog()` says on WebKit.
    static let noConsole = "WebKit's WebDriver (WPEWebDriver) has no console log: the browser log endpoint is a "
        + "chromedriver/Selenium extension; log to the page (a visible element) or run the test on Chromium to read it"

    init(driver: WebKitDriverService) {
        self.driver = driver
    }

    var browserProcessID: Int32? { driver.driverProcessID }

    func openPage(arguments: [String], url: String, isolation: BrowserIsolation) throws(RobotKitError) -> LaunchedPage {
        try Self.checkWindowSize(arguments)
        let current = try keptSession()
        // In use: until its reset, no other process may take it over.
        if let file = try? driver.endpoint().sessionFile { KeptSessionFile.write(file, id: current.session.id, window: current.window, clean: false) }
        let page = WebDriverPage(session: current.session, consoleUnavailable: Self.noConsole, endsScriptsOnUnload: true)
        do {
            try page.navigate(to: url)
        } catch {
            end(current.session)
            throw error
        }
        return LaunchedPage(driver: page)
    }

    func close(_ page: LaunchedPage) {
        guard let driver = page.driver as? WebDriverPage, let current = kept.current, current.session === driver.session else {
            return
        }
        do {
            if driver.isSuspect { throw RobotKitError.transport("the browser looked in trouble") }
            try WebKitSessionReset.reset(driver, window: current.window)
            if let file = try? self.driver.endpoint().sessionFile {
                KeptSessionFile.write(file, id: current.session.id, window: current.window, clean: true)
            }
        } catch {
            end(current.session)
        }
    }

    /// The kept session, or a new one when there is none or the last one looked in trouble.
    private func keptSession() throws(RobotKitError) -> Kept {
        if let current = kept.current {
            guard current.session.isSuspect else { return current }
            end(current.session)
        }
        let endpoint = try driver.endpoint()
        if let file = endpoint.sessionFile, let taken = Self.takeOver(file, driverURL: endpoint.baseURL) {
            kept.withLock { $0 = taken }
            return taken
        }
        var capabilities = WebKitDriver.capabilities(browser: endpoint.browserLauncher)
        // `normal`: a navigation answers once loaded. A script WebKit started in a document
        // that a navigation then replaced may never answer, so RobotKit never races one.
        capabilities["pageLoadStrategy"] = "normal"
        capabilities["timeouts"] = ["script": 600_000, "pageLoad": 60_000, "implicit": 0]
        // Like the DevTools engine: a dialog is dismissed as it opens, not left to fail the next command.
        capabilities["unhandledPromptBehavior"] = "dismiss"
        let session: WebDriverSession
        do {
            session = try WebDriverSession.create(driverURL: endpoint.baseURL, capabilities: capabilities)
        } catch {
            throw .driverStart("\(error.message)\nWPEWebDriver log:\n\(driver.logTail())")
        }
        guard let window = try session.windowHandles(timeout: 10).first else {
            try? session.delete(timeout: 5)
            throw .driverStart("WPEWebDriver's new session has no window")
        }
        let made = Kept(session: session, window: window)
        kept.withLock { $0 = made }
        return made
    }

    /// The shard's session the last process left: taken over when it was reset clean and still
    /// answers; deleted (its cog ends) when a process ended during a launch, before its reset.
    private static func takeOver(_ file: URL, driverURL: String) -> Kept? {
        guard let left = KeptSessionFile.read(file) else { return nil }
        KeptSessionFile.remove(file)
        guard let session = try? WebDriverSession.attach(driverURL: driverURL, id: left.id) else { return nil }
        guard left.clean, (try? session.windowHandles(timeout: 5))?.contains(left.window) == true else {
            try? session.delete(timeout: 10)
            return nil
        }
        return Kept(session: session, window: left.window)
    }

    /// Deletes `session` (its cog exits) and forgets it.
    private func end(_ session: WebDriverSession) {
        try? session.delete(timeout: 10)
        kept.withLock { if $0?.session === session { $0 = nil } }
        if let file = try? driver.endpoint().sessionFile, KeptSessionFile.read(file)?.id == session.id { KeptSessionFile.remove(file) }
    }

    /// cog's headless window is 800×600 and WPEWebDriver cannot resize it: a launch asking for
    /// another size than RobotKit's default fails, saying so, rather than run at the wrong one.
    static func checkWindowSize(_ arguments: [String]) throws(RobotKitError) {
        let prefix = "--window-size="
        guard let size = arguments.last(where: { $0.hasPrefix(prefix) })?.dropFirst(prefix.count),
            size != "1024,768", size != "800,600"
        else { return }
        throw .unsupported(
            "WebKit (WPE's cog, headless) has a fixed 800x600 window that WebDriver cannot resize (setWindowRect: false); "
                + "windowSize \(size.replacingOccurrences(of: ",", with: "x")) needs Chromium")
    }
}
