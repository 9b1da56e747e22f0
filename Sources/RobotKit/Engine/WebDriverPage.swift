import Foundation
import HTTPClient

/// One page driven over W3C WebDriver (HTTP over libcurl): the engine for any browser that
/// speaks it (a WebDriver server RobotKit starts, a Selenium Grid, Appium). Only standard
/// commands: scripts through `execute/sync` (which awaits a returned promise), input through
/// `actions`, history through `back`/`forward`/`refresh`. The page is its session's current
/// window; each launch has a session of its own.
final class WebDriverPage: PageDriver {
    let session: WebDriverSession

    init(session: WebDriverSession) {
        self.session = session
    }

    var engineName: String { "webdriver at \(session.driverURL)" }
    var isSuspect: Bool { session.isSuspect }

    func evaluate(_ expression: String, awaitPromise: Bool, timeout: Double?) throws(RobotKitError) -> Any? {
        // The text may be statements then an expression (the library's installer, then the
        // call): a global eval gives the last one's value. `execute/sync` awaits a returned
        // promise (W3C "execute script", its promise-calling step).
        try session.executeScript("return (0, eval)(arguments[0]);", [expression], timeout: timeout.map { $0 + 5 })
    }

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
        // The log endpoint is a chromedriver and Selenium extension; a server without it has none to give.
        (try? session.browserLog()) ?? []
    }
}
