import Foundation
import HTTPClient

/// One W3C WebDriver session, driven over HTTP (libcurl): the WebDriver engine's transport
/// (`WebDriverPage`), for any server that speaks the protocol.
///
/// Commands are blocking and go through one `HTTPClient`, so they share one
/// keep-alive connection. Not `Sendable`: a session belongs to one test.
final class WebDriverSession {
    /// The key W3C uses for element references in JSON.
    static let elementKey = "element-6066-11e4-a52e-4f735466cecf"

    let driverURL: String
    let id: String
    /// The capabilities the server answered `new session` with (empty for an attached session).
    let capabilities: [String: Any]
    private let client: HTTPClient
    /// Set when a command could not reach the driver or the driver said the browser is gone;
    /// a shared browser checks such a session before the next test uses it.
    private(set) var isSuspect = false

    private init(driverURL: String, id: String, client: HTTPClient, capabilities: [String: Any] = [:]) {
        self.driverURL = driverURL
        self.id = id
        self.client = client
        self.capabilities = capabilities
    }

    /// A session another process created (a shard's shared browser), by its id.
    static func attach(driverURL: String, id: String) throws(RobotKitError) -> WebDriverSession {
        do {
            return WebDriverSession(driverURL: driverURL, id: id, client: try HTTPClient(defaultTimeout: 60, connectTimeout: 5))
        } catch {
            throw .transport("\(error)")
        }
    }

    /// `goog:processID`: the browser process chromedriver started for this session.
    var browserProcessID: Int32? {
        (capabilities["goog:processID"] as? NSNumber)?.int32Value
    }

    /// POST /session with `capabilities` (the `alwaysMatch` object).
    static func create(driverURL: String, capabilities: [String: Any]) throws(RobotKitError) -> WebDriverSession {
        let client: HTTPClient
        do {
            client = try HTTPClient(defaultTimeout: 60, connectTimeout: 5)
        } catch {
            throw .transport("\(error)")
        }
        let value = try send(
            client, "POST", "\(driverURL)/session", ["capabilities": ["alwaysMatch": capabilities]],
            timeout: 60, command: "new session")
        guard let object = value as? [String: Any], let id = object["sessionId"] as? String else {
            throw .webDriver(code: "unknown error", "new session: the WebDriver server returned no session id")
        }
        return WebDriverSession(
            driverURL: driverURL, id: id, client: client, capabilities: object["capabilities"] as? [String: Any] ?? [:])
    }

    /// Sends one command to `/session/{id}/path` and returns its `value`.
    @discardableResult
    func command(_ method: String, _ path: String, _ body: [String: Any]? = nil, timeout: Double? = nil)
        throws(RobotKitError) -> Any?
    {
        let url = path.isEmpty ? "\(driverURL)/session/\(id)" : "\(driverURL)/session/\(id)/\(path)"
        do {
            return try Self.send(
                client, method, url, body ?? (method == "POST" ? [:] : nil), timeout: timeout,
                command: "\(method) \(path.isEmpty ? "session" : path)")
        } catch {
            if Self.meansBrowserTrouble(error) { isSuspect = true }
            throw error
        }
    }

    /// Errors after which the browser may be gone, crashed or hung (not a test's own mistake).
    static func meansBrowserTrouble(_ error: RobotKitError) -> Bool {
        guard let code = error.webDriverCode else { return true }  // transport: no answer, refused, timed out
        let message = error.message.lowercased()
        return code == "invalid session id" || code == "session not created" || code == "unknown error"
            && (message.contains("not reachable") || message.contains("disconnected") || message.contains("crash")
                || message.contains("timeout"))
            || code == "timeout" && message.contains("renderer")
    }

    private static func send(
        _ client: HTTPClient, _ method: String, _ url: String, _ body: [String: Any]?, timeout: Double?,
        command: String
    ) throws(RobotKitError) -> Any? {
        var request = HTTPRequest(method: method, url: url, timeout: timeout)
        if let body {
            do {
                request.body = try JSONSerialization.data(withJSONObject: body)
            } catch {
                throw .webDriver(code: "invalid argument", "\(command): could not encode the request: \(error)")
            }
            request.headers = [("Content-Type", "application/json; charset=utf-8")]
        }
        let response: HTTPResponse
        let started = CommandTrace.start()
        defer { CommandTrace.end(started, "webdriver \(command)") }
        do {
            response = try client.send(request)
        } catch {
            // Connection refused usually means the driver is gone: say so rather than curl's words alone.
            let notice = RobotKitProcess.current.driver.deathNotice(for: url).map { "\($0); " } ?? ""
            throw .transport("\(notice)webdriver \(command): \(error)")
        }
        let json = try? JSONSerialization.jsonObject(with: response.body, options: [.fragmentsAllowed])
        let value = (json as? [String: Any])?["value"]
        guard (200..<300).contains(response.status) else {
            let details = value as? [String: Any]
            let code = details?["error"] as? String ?? "http \(response.status)"
            let message = (details?["message"] as? String) ?? String(decoding: response.body.prefix(500), as: UTF8.self)
            throw .webDriver(code: code, "webdriver \(command) failed (\(code)): \(message)")
        }
        return value is NSNull ? nil : value
    }

    // MARK: - Commands

    /// DELETE /session/{id}: closes the browser.
    func delete(timeout: Double = 20) throws(RobotKitError) {
        try command("DELETE", "", timeout: timeout)
    }

    /// GET /window/handles: every tab of the browser; a cheap sign of life.
    func windowHandles(timeout: Double? = nil) throws(RobotKitError) -> [String] {
        try command("GET", "window/handles", timeout: timeout) as? [String] ?? []
    }

    /// POST /window: makes `handle` the tab commands go to.
    func switchToWindow(_ handle: String) throws(RobotKitError) {
        try command("POST", "window", ["handle": handle])
    }

    func navigate(to url: String) throws(RobotKitError) {
        try command("POST", "url", ["url": url])
    }

    func currentURL() throws(RobotKitError) -> String {
        try command("GET", "url") as? String ?? ""
    }

    func title() throws(RobotKitError) -> String {
        try command("GET", "title") as? String ?? ""
    }

    /// Runs `script` (a function body) with `arguments`; element references come back as `["element-…": id]`.
    func executeScript(_ script: String, _ arguments: [Any] = [], timeout: Double? = nil) throws(RobotKitError) -> Any? {
        try command("POST", "execute/sync", ["script": script, "args": arguments], timeout: timeout)
    }

    /// Runs an asynchronous script; its last argument is the callback that ends it.
    func executeAsyncScript(_ script: String, _ arguments: [Any] = [], timeout: Double? = nil) throws(RobotKitError)
        -> Any?
    {
        try command("POST", "execute/async", ["script": script, "args": arguments], timeout: timeout)
    }

    /// Element ids for a CSS selector (W3C "find elements").
    func findElements(css selector: String) throws(RobotKitError) -> [String] {
        let value = try command("POST", "elements", ["using": "css selector", "value": selector])
        return (value as? [[String: Any]] ?? []).compactMap(Self.elementID(in:))
    }

    /// The element id for a CSS selector, or a `no such element` error.
    func findElement(css selector: String) throws(RobotKitError) -> String {
        let value = try command("POST", "element", ["using": "css selector", "value": selector])
        guard let id = Self.elementID(in: value) else {
            throw .webDriver(code: "no such element", "no element matches \(selector)")
        }
        return id
    }

    func click(_ element: String) throws(RobotKitError) {
        try command("POST", "element/\(element)/click")
    }

    func sendKeys(_ text: String, to element: String) throws(RobotKitError) {
        try command("POST", "element/\(element)/value", ["text": text])
    }

    func clear(_ element: String) throws(RobotKitError) {
        try command("POST", "element/\(element)/clear")
    }

    func text(of element: String) throws(RobotKitError) -> String {
        try command("GET", "element/\(element)/text") as? String ?? ""
    }

    func attribute(_ name: String, of element: String) throws(RobotKitError) -> String? {
        try command("GET", "element/\(element)/attribute/\(name)") as? String
    }

    func property(_ name: String, of element: String) throws(RobotKitError) -> Any? {
        try command("GET", "element/\(element)/property/\(name)")
    }

    func rect(of element: String) throws(RobotKitError) -> CGRect {
        let value = try command("GET", "element/\(element)/rect") as? [String: Any] ?? [:]
        func number(_ key: String) -> Double { (value[key] as? NSNumber)?.doubleValue ?? 0 }
        return CGRect(x: number("x"), y: number("y"), width: number("width"), height: number("height"))
    }

    func isDisplayed(_ element: String) throws(RobotKitError) -> Bool {
        try command("GET", "element/\(element)/displayed") as? Bool ?? false
    }

    /// W3C actions (pointer, key, wheel sequences), then releases every input.
    /// POST /actions, then (when `release`) DELETE /actions so no key or button stays down.
    func perform(actions: [[String: Any]], release: Bool = true) throws(RobotKitError) {
        try command("POST", "actions", ["actions": actions])
        if release { try command("DELETE", "actions") }
    }

    /// A PNG of the viewport.
    func screenshot() throws(RobotKitError) -> Data {
        guard let base64 = try command("GET", "screenshot", timeout: 30) as? String,
            let data = Data(base64Encoded: base64)
        else {
            throw .webDriver(code: "unknown error", "screenshot: the WebDriver server returned no image")
        }
        return data
    }

    func pageSource() throws(RobotKitError) -> String {
        try command("GET", "source") as? String ?? ""
    }

    /// Browser console entries since the last call (chromedriver's `goog:loggingPrefs` log).
    func browserLog() throws(RobotKitError) -> [BrowserLogEntry] {
        let value = try command("POST", "se/log", ["type": "browser"]) as? [[String: Any]] ?? []
        return value.map { entry in
            BrowserLogEntry(
                level: entry["level"] as? String ?? "INFO",
                timestamp: (entry["timestamp"] as? NSNumber)?.doubleValue ?? 0,
                message: entry["message"] as? String ?? "")
        }
    }

    /// The JSON form of an element reference, for script arguments and action origins.
    static func reference(_ element: String) -> [String: Any] { [elementKey: element] }

    static func elementID(in value: Any?) -> String? {
        (value as? [String: Any])?[elementKey] as? String
    }
}
