import Foundation

/// What RobotKit needs of one browser page, whichever protocol reaches it: the DevTools
/// protocol for Chromium (`DevToolsPage`) or W3C WebDriver over libcurl for every other
/// browser and any remote endpoint (`WebDriverPage`). Everything above it (the query library,
/// the robot API, waits, traces, failure evidence) is written once against this, so the two
/// engines share them rather than copies of them.
///
/// Not `Sendable`: a page belongs to the test that launched it.
protocol PageDriver: AnyObject {
    /// Which engine, for messages ("chromium over devtools", "webdriver at …").
    var engineName: String { get }

    /// Evaluates a JavaScript expression in the page's document and returns its value as JSON
    /// (awaited when it is a promise and `awaitPromise`); an exception is a `javascript error`,
    /// a document that went away under it `no such execution context`.
    func evaluate(_ expression: String, awaitPromise: Bool, timeout: Double?) throws(RobotKitError) -> Any?

    /// A real pointer's gesture, in viewport CSS pixels.
    func pointer(_ actions: [PointerAction]) throws(RobotKitError)

    /// Key presses to the focused element, with `modifiers` held.
    func keys(_ strokes: [KeyStroke], modifiers: KeyModifiers) throws(RobotKitError)

    /// Starts loading `url` (returns before it has loaded).
    func navigate(to url: String) throws(RobotKitError)

    /// Back, forward or reload (returns before the page has loaded).
    func history(_ move: HistoryMove) throws(RobotKitError)

    /// The viewport as PNG, or as JPEG at `jpegQuality` (0…100) where the engine can.
    func screenshot(jpegQuality: Int?) throws(RobotKitError) -> Data

    /// Console messages logged since the last call (empty where the engine cannot see them).
    func console() throws(RobotKitError) -> [BrowserLogEntry]

    /// True after a command failed for a browser reason (no answer, crashed, gone): the
    /// browser is checked before the next launch uses it.
    var isSuspect: Bool { get }
}

/// One step of a pointer gesture.
enum PointerAction: Equatable {
    /// Moves to a viewport point, over `duration` seconds (0: at once).
    case move(x: Double, y: Double, duration: TimeInterval)
    /// Presses the primary button; `clickCount` 2 for the second press of a double click.
    case down(clickCount: Int)
    case up(clickCount: Int)
    /// Holds still.
    case pause(TimeInterval)

    /// A click at a point: move, press, release.
    static func click(x: Double, y: Double, count: Int = 1) -> [PointerAction] {
        [.move(x: x, y: y, duration: 0)] + (1...max(count, 1)).flatMap { [PointerAction.down(clickCount: $0), .up(clickCount: $0)] }
    }
}

/// Back, forward or reload.
enum HistoryMove: String, Sendable {
    case back, forward, reload
}

/// One browser console message.
public struct BrowserLogEntry: Sendable, Equatable {
    /// `SEVERE`, `WARNING`, `INFO`, `DEBUG`.
    public var level: String
    /// Milliseconds since 1970.
    public var timestamp: Double
    public var message: String
}

extension PageDriver {
    /// Runs `body`, a JavaScript function body (`return` gives its value), applied to
    /// `arguments` (JSON), as WebDriver's `execute` does: a returned promise is awaited.
    func execute(_ body: String, _ arguments: [Any] = [], timeout: Double? = nil) throws(RobotKitError) -> Any? {
        try evaluate("(function () {\n\(body)\n}).apply(null, \(PageScript.json(arguments)))", awaitPromise: true, timeout: timeout)
    }

    /// `document.title`.
    func title() throws(RobotKitError) -> String {
        try evaluate("document.title", awaitPromise: false, timeout: nil) as? String ?? ""
    }

    /// `location.href`.
    func currentURL() throws(RobotKitError) -> String {
        try evaluate("location.href", awaitPromise: false, timeout: nil) as? String ?? ""
    }

    /// The document serialized as HTML, its doctype first.
    func pageSource() throws(RobotKitError) -> String {
        let script = "(document.doctype ? new XMLSerializer().serializeToString(document.doctype) : '')"
            + " + (document.documentElement ? document.documentElement.outerHTML : '')"
        return try evaluate(script, awaitPromise: false, timeout: nil) as? String ?? ""
    }
}

/// JSON for scripts: arguments in, values out.
enum PageScript {
    /// `arguments` as a JSON array, which is also a JavaScript array literal.
    static func json(_ arguments: [Any]) throws(RobotKitError) -> String {
        do {
            return String(decoding: try JSONSerialization.data(withJSONObject: arguments, options: [.fragmentsAllowed]), as: UTF8.self)
        } catch {
            throw .webDriver(code: "invalid argument", "script arguments could not be encoded: \(error)")
        }
    }
}
