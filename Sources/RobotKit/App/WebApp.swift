import Foundation
import HTTPClient
import MockServer
import XCTest

/// The web app under test, like `XCUIApplication`: each `launch()` opens `url` in a fresh
/// browser context (own cookies, storage, cache) of the worker's warm headless Chromium.
///
/// Not `Sendable`: an app belongs to the test that launched it.
public final class WebApp: WebElementTypeQueryProvider, CustomDebugStringConvertible {
    /// Whether the browser session is up.
    public enum State: Sendable, Equatable {
        case notRunning
        case runningForeground
    }

    /// The page `launch()` opens.
    public var url: URL
    /// Passed to the page as query items `KEY=value` (read them with `URLSearchParams`).
    public var launchEnvironment: [String: String] = [:]
    /// Passed to the page as value-less query items, in order (`?--uitesting`).
    public var launchArguments: [String] = []
    /// The browser window (viewport) size in CSS pixels.
    public var windowSize: (width: Int, height: Int) = (1024, 768)
    /// How long actions (`tap()`, `typeText(_:)`, …) wait for their element to appear.
    public var implicitWaitTimeout: TimeInterval = 2
    /// Extra Chromium command-line switches.
    public var browserArguments: [String] = []
    /// Where actions and waits are recorded; `UITestCase` shares its own.
    public var recorder: StepRecorder

    /// Where launches get their pages: the process's engine (RobotKit's tests set another).
    var browser: BrowserEngine = RobotKitProcess.current.browser

    /// `.runningForeground` between `launch()` and `terminate()`.
    public private(set) var state: State = .notRunning

    /// Console entries the trace read (the browser hands each out once), until `consoleLog()` takes them.
    private var consoleBuffer: [BrowserLogEntry] = []
    /// When the running launch began (ms since 1970): console lines stamped before it belong
    /// to the page's last document (the kept page's previous test), not to this launch.
    private var launchedAt: Double = 0

    /// A failed accessibility audit's issues and outlined screenshot, while its failure is recorded.
    var auditEvidence: AuditEvidence?

    /// The launched page (its own browser context) while running.
    private(set) var page: LaunchedPage?
    /// The launched page's engine.
    private var driver: PageDriver? { page?.driver }
    /// The launched page, for RobotKit's own tests.
    var currentPage: LaunchedPage? { page }

    /// An app at `url` (`file://`, `http://`, …); nothing starts before `launch()`.
    public init(url: URL, recorder: StepRecorder = StepRecorder()) {
        self.url = url
        self.recorder = recorder
    }

    deinit {
        shutDown()
    }

    /// `url` with the launch environment and arguments appended as query items.
    public var launchURL: URL {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return url }
        var items = components.queryItems ?? []
        items += launchEnvironment.sorted { $0.key < $1.key }.map { URLQueryItem(name: $0.key, value: $0.value) }
        items += launchArguments.map { URLQueryItem(name: $0, value: nil) }
        components.queryItems = items.isEmpty ? nil : items
        return components.url ?? url
    }

    /// Opens `launchURL` in a fresh browser context of the worker's warm browser (terminating
    /// a running launch first): no cookie, storage, cache or service worker of an earlier
    /// launch is visible. With `--isolation reset`, in the shard's kept page, cleared first
    /// (docs/isolation.md). A failure to start is reported as a test failure at the caller's line.
    public func launch(file: StaticString = #filePath, line: UInt = #line) {
        let started = Date()
        do {
            try launchOrThrow()
            traceStep(.init("launch", launchURL.absoluteString, at: CallSite(file: "\(file)", line: line), started: started, error: nil))
        } catch {
            let message = "failed to launch \(url.absoluteString): \(error)"
            traceStep(.init("launch", launchURL.absoluteString, at: CallSite(file: "\(file)", line: line), started: started, error: message))
            recorder.begin(function: "launch()", file: "\(file)", line: line, robot: "WebApp")
            XCTFail(message, file: file, line: line)
            recorder.end()
        }
    }

    /// `launch()` that throws instead of failing the test.
    public func launchOrThrow() throws(RobotKitError) {
        shutDown()
        launchedAt = (Date().timeIntervalSince1970 * 1000).rounded(.down)
        // The app may read this process's mock servers, even from file:// (`Origin: file://`
        // under --allow-file-access-from-files, below).
        MockServer.allowOrigin(ofLaunchedPage: url)
        let target = launchURL.absoluteString
        let opened = try browser.openPage(
            arguments: chromiumArguments(), url: target, isolation: WorkerEnvironment().isolation)
        page = opened
        do throws(RobotKitError) {
            try Self.waitForLoad(opened.driver, of: target)
            state = .runningForeground
            RobotKitProcess.current.evidence.launched(self)
        } catch {
            shutDown()
            throw error
        }
    }

    /// Waits until the page shows a loaded document (its load event has fired) that is not
    /// the blank one a new page starts with. The session's page load strategy is `none`, so
    /// WebDriver never waits on its own; a script that started in the blank document is cut
    /// off when the app's document replaces it, and runs again there.
    static func waitForLoad(_ driver: PageDriver, of url: String) throws(RobotKitError) {
        let deadline = Date().addingTimeInterval(60)
        while true {
            let remaining = max(deadline.timeIntervalSinceNow, 0.1)
            let scriptDeadline = Date().addingTimeInterval(remaining)
            do throws(RobotKitError) {
                let loaded = try driver.evaluate(
                    "(\(loadScript))(...\(PageScript.json([url, Milliseconds.of(remaining)])))", awaitPromise: true,
                    timeout: remaining + 10)
                if loaded as? Bool == true { return }
                throw RobotKitError.webDriver(code: "timeout", "\(url) did not finish loading within 60 s")
            } catch where Engine.pageChanged(error, scriptDeadline: scriptDeadline) && deadline.timeIntervalSinceNow > 0 {
                // The script began in the blank document the new page starts with, and the
                // app's document replaced it (seen as an early `script timeout` with 8 shards
                // on 2 cores): wait again in the new document.
                continue
            }
        }
    }

    /// `(url, limit)`: a promise of true once `readyState` is `complete` in a new document: not
    /// the initial blank one (unless blank is what was asked for), not one `open(_:)` marked as
    /// left; or in the same document when only the URL's fragment changed. False after `limit` ms.
    private static let loadScript = """
        (url, limit) => new Promise((done) => {
            const ready = () => document.readyState === "complete"
                && (location.href === url || (!window.__robotkitLeft && (url === "about:blank" || location.href !== "about:blank")));
            if (ready()) return done(true);
            const end = Date.now() + limit;
            const check = () => {
                if (ready()) { clearInterval(timer); done(true); }
                else if (Date.now() > end) { clearInterval(timer); done(false); }
            };
            const timer = setInterval(check, 10);
            window.addEventListener("load", check, { once: true });
        })
        """

    /// Closes the app: disposes its browser context (pages, cookies, storage, cache, workers).
    public func terminate(file: StaticString = #filePath, line: UInt = #line) {
        let started = Date()
        let wasRunning = state == .runningForeground
        // The console lines no step fetched yet go to the steps they were logged in.
        if wasRunning, RobotKitProcess.current.trace.wantsConsole, let driver, let fresh = try? console(of: driver) {
            consoleBuffer += fresh
            RobotKitProcess.current.trace.attachConsole(fresh)
        }
        shutDown()
        if wasRunning {
            traceStep(.init("terminate", "", at: CallSite(file: "\(file)", line: line), started: started, error: nil), capture: false)
        }
    }

    /// Waits until the app is in `state`; `.runningForeground` also waits for the page to finish loading.
    public func wait(for state: State, timeout: TimeInterval) -> Bool {
        wait(until: {
            guard self.state == state else { return false }
            guard state == .runningForeground, let driver = self.driver else { return true }
            return (try? driver.evaluate("document.readyState", awaitPromise: false, timeout: nil)) as? String == "complete"
        }, timeout: timeout)
    }

    // MARK: - Queries

    public func descendants(matching type: WebElement.ElementType) -> WebElementQuery {
        WebElementQuery(app: self, chain: [QueryStep(type: type, identifier: nil)])
    }

    public func children(matching type: WebElement.ElementType) -> WebElementQuery {
        WebElementQuery(app: self, chain: [QueryStep(type: type, identifier: nil, scope: .children)])
    }

    /// The first element of any type with `identifier`, or `nil` (Axt's `find(id:)`).
    public func find(id identifier: String) -> WebElement? {
        let element = descendants(matching: .any)[identifier].firstMatch
        return element.exists ? element : nil
    }

    /// Polls `condition` until it holds or `timeout` passes (Axt's `waitForCondition`). Each
    /// poll is a round trip from Swift: prefer `element.wait(for:toEqual:timeout:)`, which
    /// waits in the page. The whole wait is one trace step at the caller's line; the reads
    /// of its polls are not steps of their own.
    @discardableResult
    public func wait(
        until condition: () -> Bool, timeout: TimeInterval, pollInterval: TimeInterval = 0.05,
        file: StaticString = #filePath, line: UInt = #line
    ) -> Bool {
        let started = Date()
        let deadline = started.addingTimeInterval(timeout)
        var polls = 0
        let held = RobotKitProcess.current.trace.muting { () -> Bool in
            while true {
                polls += 1
                if condition() { return true }
                if Date() >= deadline || recorder.isHalted { return false }
                Thread.sleep(forTimeInterval: pollInterval)
            }
        }
        let took = String(format: "%.2f s", Date().timeIntervalSince(started))
        traceStep(.init("wait until a condition holds", "", arguments: [held ? "held after \(took)" : "timed out after \(took)", "\(polls) polls"],
                        at: CallSite(file: "\(file)", line: line), started: started, error: nil))
        return held
    }

    // MARK: - History

    /// The browser's Back button: the page before this one in the tab's history (nothing
    /// when there is none). Like a tap that navigates, it returns once the browser has the
    /// command; the next query rides out the navigation.
    public func goBack(function: String = #function, file: StaticString = #filePath, line: UInt = #line) {
        move(.back, function: function, file: file, line: line)
    }

    /// The browser's Forward button.
    public func goForward(function: String = #function, file: StaticString = #filePath, line: UInt = #line) {
        move(.forward, function: function, file: file, line: line)
    }

    /// Reloads the page (a new document: the query library is installed again).
    public func reload(function: String = #function, file: StaticString = #filePath, line: UInt = #line) {
        move(.reload, function: function, file: file, line: line)
    }

    private func move(_ move: HistoryMove, function: String, file: StaticString, line: UInt) {
        let verb = move == .reload ? "reload" : "go \(move.rawValue)"
        operation(verb, "", defaultValue: (), at: Caller(function: function, file: file, line: line)) { engine throws(RobotKitError) in
            try engine.driver.history(move)
        }
    }

    // MARK: - Whole-page gestures

    /// Scrolls the page down by most of a screen, like a finger moving up.
    public func swipeUp(function: String = #function, file: StaticString = #filePath, line: UInt = #line) {
        root.swipeUp(function: function, file: file, line: line)
    }

    /// Scrolls the page up by most of a screen.
    public func swipeDown(function: String = #function, file: StaticString = #filePath, line: UInt = #line) {
        root.swipeDown(function: function, file: file, line: line)
    }

    /// Scrolls the page right by most of a screen.
    public func swipeLeft(function: String = #function, file: StaticString = #filePath, line: UInt = #line) {
        root.swipeLeft(function: function, file: file, line: line)
    }

    /// Scrolls the page left by most of a screen.
    public func swipeRight(function: String = #function, file: StaticString = #filePath, line: UInt = #line) {
        root.swipeRight(function: function, file: file, line: line)
    }

    // MARK: - Page state

    /// The page's accessibility tree as indented text (role, identifier, label, value, frame),
    /// like XCUITest's `debugDescription` and Axt's `watchHierarchy`.
    public var debugDescription: String { accessibilityTree }

    /// The same tree as `debugDescription`; use this name through an implicitly
    /// unwrapped `app` (`UITestCase.app`), where `debugDescription` would be `Optional`'s.
    public var accessibilityTree: String {
        guard let page else { return "Application (not running), url: '\(url.absoluteString)'" }
        do {
            return try Engine(page: page).run([], op: .tree).tree
        } catch {
            return "Application, accessibility tree unavailable: \(error)"
        }
    }

    /// The current page's title.
    public var title: String { (try? driver?.title()) ?? "" }

    /// The URL currently shown.
    public var currentURL: URL? { (try? driver?.currentURL()).flatMap { URL(string: $0) } }

    /// A PNG of the viewport.
    public func screenshot() throws(RobotKitError) -> Data {
        try requireDriver().screenshot(jpegQuality: nil)
    }

    /// The current DOM serialized as HTML.
    public func pageSource() throws(RobotKitError) -> String {
        try requireDriver().pageSource()
    }

    /// Console messages logged since the last call.
    public func consoleLog() throws(RobotKitError) -> [BrowserLogEntry] {
        let fresh = try console(of: requireDriver())
        RobotKitProcess.current.trace.attachConsole(fresh)
        defer { consoleBuffer = [] }
        return consoleBuffer + fresh
    }

    /// The session's console lines since the last read, without those logged before this
    /// launch (entries with no timestamp are kept).
    private func console(of driver: PageDriver) throws(RobotKitError) -> [BrowserLogEntry] {
        try driver.console().filter { $0.timestamp == 0 || $0.timestamp >= launchedAt }
    }

    /// Opens another URL in the running session and waits for it to load.
    public func open(_ url: URL) throws(RobotKitError) {
        let driver = try requireDriver()
        MockServer.allowOrigin(ofLaunchedPage: url)
        // Marks the current document, so the wait below cannot mistake it for the new one.
        _ = try driver.evaluate("window.__robotkitLeft = true", awaitPromise: false, timeout: nil)
        try driver.navigate(to: url.absoluteString)
        try Self.waitForLoad(driver, of: url.absoluteString)
    }

    /// Runs JavaScript (a function body; use `return`) with `arguments` and returns its JSON result.
    @discardableResult
    public func evaluate(_ script: String, _ arguments: [Any] = []) throws(RobotKitError) -> Any? {
        try requireDriver().execute(script, arguments)
    }

    // MARK: - Internals

    /// The app as an element (the document), for page-level gestures.
    var root: WebElement { WebElement(app: self, chain: []) }

    func requirePage() throws(RobotKitError) -> LaunchedPage {
        guard let page else {
            throw .noSession("the app is not running: call launch() first")
        }
        return page
    }

    func requireDriver() throws(RobotKitError) -> PageDriver {
        try requirePage().driver
    }

    /// Runs one page operation: skipped once the test has halted, recorded as a step of the
    /// robot that called it, failures reported at the caller's line.
    /// `arguments` says what the step's trace shows beside its name, once the body has run.
    func operation<T>(
        _ verb: String, _ target: String, defaultValue: T, at caller: Caller, arguments: () -> [String] = { [] },
        _ body: (Engine) throws(RobotKitError) -> T
    ) -> T {
        if recorder.isHalted { return defaultValue }
        recorder.begin(function: caller.function, file: "\(caller.file)", line: caller.line)
        defer { recorder.end() }
        let started = Date()
        do {
            let value = try body(Engine(page: requirePage()))
            traceStep(.init(verb, target, arguments: arguments(), at: caller.site, started: started, error: nil))
            return value
        } catch {
            let message = "failed to \(verb) \(target): \(error.message)"
            traceStep(.init(verb, target, arguments: arguments(), at: caller.site, started: started, error: message))
            XCTFail(message, file: caller.file, line: caller.line)
            return defaultValue
        }
    }

    /// A read (a property: `label`, `exists`, `value`…): a trace step at the caller's line,
    /// which the stack names (`CallSite`), resolved when the trace is kept. A failure is
    /// reported at RobotKit's line (XCTest takes a caller's line only as a literal).
    func read<T>(_ verb: String, _ target: String, defaultValue: T, _ body: (Engine) throws(RobotKitError) -> T) -> T {
        if recorder.isHalted { return defaultValue }
        let site = RobotKitProcess.current.trace.mode == .off ? nil : CallSite.capture()
        let started = Date()
        do {
            let value = try body(Engine(page: requirePage()))
            var step = TraceRecorder.StepDraft(verb, target, at: CallSite(file: "\(#filePath)", line: #line), started: started, error: nil)
            step.site = site
            traceStep(step)
            return value
        } catch {
            let message = "failed to \(verb) \(target): \(error.message)"
            var step = TraceRecorder.StepDraft(verb, target, at: CallSite(file: "\(#filePath)", line: #line), started: started, error: message)
            step.site = site
            traceStep(step)
            XCTFail(message)
            return defaultValue
        }
    }

    /// Steps that only read the page: their state is taken with them (a query brings it along).
    private static func readsOnly(_ name: String) -> Bool {
        name.hasPrefix("read ") || name.hasPrefix("wait for") || ["query", "describe", "count"].contains(name)
    }

    /// Adds a step to the test's trace, with the page's state after it (`capture`).
    func traceStep(_ draft: TraceRecorder.StepDraft, capture: Bool = true) {
        let tracer = RobotKitProcess.current.trace
        guard tracer.mode != .off else { return }
        var draft = draft
        // An action that went through (tap, typing, a swipe) changes the page after the fact:
        // its page state is what the next step finds (one round trip fewer per action; the
        // next query brings it along). `always` still captures right away, with its screenshot.
        let failed = draft.error != nil
        let deferred = !failed && tracer.mode != .always && !Self.readsOnly(draft.action.name)
        if capture && !deferred && page != nil {
            draft.page = { self.pageState(screenshot: failed || tracer.mode == .always, failed: failed) }
        }
        draft.awaitsNextPage = capture && deferred
        tracer.record(draft)
    }

    /// The page after a step: the DOM without scripts and the visible text (or `unchanged`
    /// when nothing in the document changed since the last snapshot), and (`screenshot`) a
    /// JPEG of the viewport. What cannot be read is left out. One round trip per step: a
    /// screenshot costs the most (the browser draws and encodes a frame), so `on-failure`
    /// takes one at a failing step only; console lines are fetched at a failure and at
    /// `terminate`, and go to their steps by their timestamps.
    private func pageState(screenshot: Bool, failed: Bool) -> TraceRecorder.PageState {
        var state = TraceRecorder.PageState(console: [])
        guard let page else { return state }
        // A query in this step may have brought the snapshot along (no page command since).
        let result = page.takeTraceSnapshot() ?? (try? Engine(page: page).snapshot(known: RobotKitProcess.current.trace.hasSnapshot))
        if let parts = result as? [Any], parts.count == 2 {
            state.snapshot = parts[0] as? String
            state.text = parts[1] as? String
        } else if result is NSNull || result as? String == TraceSnapshot.unchanged, RobotKitProcess.current.trace.hasSnapshot {
            state.unchanged = true
        }
        if screenshot { state.screenshot = try? page.driver.screenshot(jpegQuality: 40) }
        if failed, let fresh = try? console(of: page.driver) {
            consoleBuffer += fresh
            state.console = fresh
        }
        return state
    }

    private func chromiumArguments() -> [String] {
        [
            "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
            "--window-size=\(windowSize.width),\(windowSize.height)",
            "--force-device-scale-factor=1", "--disable-extensions", "--no-first-run",
            "--disable-component-update", "--mute-audio", "--allow-file-access-from-files",
            // Background work a test never needs, and throttling that would slow a page the
            // browser thinks is hidden (every context's page is a separate headless window).
            "--disable-features=Translate,MediaRouter,OptimizationHints,AcceptCHFrame,AutofillServerCommunication,"
                + "CertificateTransparencyComponentUpdater,DestroyProfileOnBrowserClose,GlobalMediaControls,"
                + "HttpsUpgrades,LensOverlay,BackForwardCache,InterestFeedContentSuggestions,CalculateNativeWinOcclusion",
            "--disable-field-trial-config", "--disable-breakpad", "--disable-ipc-flooding-protection",
            "--disable-renderer-backgrounding", "--disable-backgrounding-occluded-windows",
            "--disable-background-timer-throttling", "--disable-search-engine-choice-screen",
            "--metrics-recording-only", "--no-default-browser-check",
        ] + browserArguments
    }

    private func shutDown() {
        if state == .runningForeground { RobotKitProcess.current.evidence.terminated(self) }
        if let page { browser.close(page) }
        page = nil
        state = .notRunning
    }
}
