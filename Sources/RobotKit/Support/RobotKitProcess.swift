import Foundation
import ProcessToolkit
import XCTest

/// What RobotKit keeps for the life of one test process, in one place with one owner: the
/// browser engine (a warm Chromium, or the WebDriver engine's chromedriver), the failure
/// evidence and step-trace recorders, the XCTest observer, and what the process's exit must
/// stop. Each piece is made here and handed the others it uses; nothing else in RobotKit is
/// process-wide, so a piece can be built alone in a test (`ChromiumBrowser(exit:)`,
/// `TraceRecorder(mode:)`).
///
/// It is process-wide because what it owns is: one browser serves every test of the process
/// (and, under robotci, of the shard), the observer is registered once with XCTest, and an
/// `atexit` handler can reach nothing else.
final class RobotKitProcess: Sendable {
    static let current = RobotKitProcess()

    let exit: ExitCleanup
    /// The chromedriver the WebDriver engine starts when it has no endpoint.
    let driver: ChromeDriverService
    /// The WPEWebDriver the WebKit engine starts (`ROBOTKIT_BROWSER=webkit`).
    let webKitDriver: WebKitDriverService
    /// Where launches get their pages: Chromium over DevTools, WebKit over the WPEWebDriver
    /// RobotKit starts (`ROBOTCI_BROWSER`/`ROBOTKIT_BROWSER=webkit`), or (`ROBOTKIT_ENGINE=webdriver`,
    /// `ROBOTCI_WEBDRIVER_URL`) a W3C WebDriver server.
    let browser: BrowserEngine
    let evidence: FailureEvidence
    let trace: TraceRecorder
    private let registeredObserver = Locked<RobotKitTestObserver?>(nil)

    private init(environment: WorkerEnvironment = WorkerEnvironment()) {
        exit = ExitCleanup()
        driver = ChromeDriverService(exit: exit)
        webKitDriver = WebKitDriverService(exit: exit)
        browser = Self.engine(environment: environment, driver: driver, webKitDriver: webKitDriver, exit: exit)
        evidence = FailureEvidence()
        trace = TraceRecorder(mode: environment.trace)
    }

    /// The engine the environment asks for. A grid's URL wins (the browser is the grid's);
    /// then the browser's name; then `ROBOTKIT_ENGINE=webdriver` (Chromium through chromedriver).
    private static func engine(
        environment: WorkerEnvironment, driver: ChromeDriverService, webKitDriver: WebKitDriverService, exit: ExitCleanup
    ) -> BrowserEngine {
        if environment.webDriverURL != nil { return WebDriverBrowser(driver: driver) }
        switch environment.browser {
        case "webkit": return WebKitBrowser(driver: webKitDriver)
        case "chromium":
            let engine = ProcessInfo.processInfo.environment["ROBOTKIT_ENGINE"]
            return engine == "webdriver" ? WebDriverBrowser(driver: driver) : ChromiumBrowser(exit: exit)
        default: return UnknownBrowser(name: environment.browser)
        }
    }

    /// The observer, registered with XCTest on first use (an app's launch, `XCUIApplication()`,
    /// a test setting `executionTimeAllowance`).
    var observer: RobotKitTestObserver {
        registeredObserver.withLock { registered in
            if let registered { return registered }
            let observer = RobotKitTestObserver(evidence: evidence, trace: trace)
            XCTestObservationCenter.shared.addTestObserver(observer)
            registered = observer
            return observer
        }
    }
}
