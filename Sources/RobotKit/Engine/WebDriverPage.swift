import Foundation
import HTTPClient

/// One page driven over W3C WebDriver (HTTP over libcurl): the engine for any browser that
/// speaks it (a WebDriver server RobotKit starts, a Selenium Grid, Appium). Only standard
/// commands: scripts through `execute/sync` (which awaits a returned promise), input through
/// `actions`, history through `back`/`forward`/`refresh`. The page is its session's current
/// window; each launch has a session of its own, except on WebKit, whose kept session
/// (`WebKitBrowser`) serves every launch of the process.
final class WebDriverPage: PageDriver {
    let session: WebDriverSession
    /// Why this server has no console log, when it is known to have none (WebKit): reading it
    /// is then an error saying so, not an empty log that looks like a quiet page.
    private let consoleUnavailable: String?
    /// The origins RobotKit sent the page to (`navigate(to:)`): what a kept session must clear.
    private(set) var navigatedOrigins: Set<String> = []

    /// Whether an awaited script must end itself when its document unloads. WPE WebKit 2.38
    /// never answers a script whose document a navigation replaced (chromedriver and WebKitGTK
    /// answer with an error), so RobotKit's waits would hang until their timeout after a tap
    /// that follows a link.
    private let endsScriptsOnUnload: Bool

    init(session: WebDriverSession, consoleUnavailable: String? = nil, endsScriptsOnUnload: Bool = false) {
        self.session = session
        self.consoleUnavailable = consoleUnavailable
        self.endsScriptsOnUnload = endsScriptsOnUnload
    }

    var engineName: String { "webdriver at \(session.driverURL)" }
    var isSuspect: Bool { session.isSuspect }

    func evaluate(_ expression: String, awaitPromise: Bool, timeout: Double?) throws(RobotKitError) -> Any? {
        // The text may be statements then an expression (the library's installer, then the
        // call): a global eval gives the last one's value. `execute/sync` awaits a returned
        // promise (W3C "execute script", its promise-calling step).
        let script = awaitPromise && endsScriptsOnUnload ? Self.unloadAwareScript : "return (0, eval)(arguments[0]);"
        return try session.executeScript(script, [expression], timeout: timeout.map { $0 + 5 })
    }

    /// The evaluation raced with its document's `pagehide`: the error names a navigation,
    /// which `Engine.isNavigationRace` retries on the new page.
    private static let unloadAwareScript = """
        const value = (0, eval)(arguments[0]);
        if (!value || typeof value.then !== "function") return value;
        return Promise.race([value, new Promise((_, reject) => window.addEventListener("pagehide",
            () => reject(new Error("the document unloaded: navigated away")), { once: true }))]);
        """

    func pointer(_ actions: [PointerAction]) throws(RobotKitError) {
        let steps: [[String: Any]] = actions.map { action in
            switch action {
            case .move(let x, let y, let duration):
                ["type": "pointerMove", "duration": Milliseconds.of(duration), "origin": "viewport", "x": Int(x), "y": Int(y)]
            case .down: ["type": "pointerDown", "button": 0]
            case .up: ["type": "pointerUp", "button": 0]
            case .pause(let seconds): ["type": "pause", "duration": Milliseconds.of(seconds)]
            }
        }
        try session.perform(actions: [
            ["type": "pointer", "id": "robotkit-finger", "parameters": ["pointerType": "mouse"], "actions": steps]
        ], release: false)
    }

    func keys(_ strokes: [KeyStroke], modifiers: KeyModifiers) throws(RobotKitError) {
        let held = modifiers.strokes.map(\.webDriverValue)
        var steps: [[String: Any]] = held.map { ["type": "keyDown", "value": $0] }
        for stroke in strokes {
            steps.append(["type": "keyDown", "value": stroke.webDriverValue])
            steps.append(["type": "keyUp", "value": stroke.webDriverValue])
        }
        steps += held.reversed().map { ["type": "keyUp", "value": $0] }
        try session.perform(actions: [["type": "key", "id": "robotkit-keyboard", "actions": steps]], release: true)
    }

    func navigate(to url: String) throws(RobotKitError) {
        if let origin = WebKitSessionReset.origin(of: url) { navigatedOrigins.insert(origin) }
        try session.navigate(to: url)
    }

    func history(_ move: HistoryMove) throws(RobotKitError) {
        let path = switch move {
        case .back: "back"
        case .forward: "forward"
        case .reload: "refresh"
        }
        try session.command("POST", path)
    }

    func screenshot(jpegQuality: Int?) throws(RobotKitError) -> Data {
        // WebDriver has PNG only; the trace takes what it is given.
        try session.screenshot()
    }

    func console() throws(RobotKitError) -> [BrowserLogEntry] {
        if let consoleUnavailable { throw .unsupported(consoleUnavailable) }
        // The log endpoint is a chromedriver and Selenium extension; a server without it has none to give.
        return (try? session.browserLog()) ?? []
    }
}
