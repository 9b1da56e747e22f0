import Foundation
import HTTPClient
import XCTest

#if canImport(Glibc)
import Glibc
#endif

/// A real headless Chromium driven over WebDriver (chromedriver on 127.0.0.1), so tests can
/// click like a person: element clicks and input actions go through the browser's input
/// pipeline (mousedown, focus, mouseup, click), unlike a script's `element.click()`.
///
/// chromedriver runs in its own process group (Foundation's `Process` makes each child the
/// leader of a new group; `setsid` would then fork, leaving the real chromedriver outside
/// the group we kill); `close()` deletes the session and kills that group, so no browser
/// outlives the test.
final class WebDriverBrowser {
    static let chromedriver = "/usr/bin/chromedriver"
    static var isAvailable: Bool {
        FileManager.default.isExecutableFile(atPath: chromedriver) && HeadlessChromium.isAvailable
    }

    struct Failure: Error, CustomStringConvertible { let description: String }

    private let process = Process()
    private let base: String
    private let client: HTTPClient
    private var session = ""
    private let scratch: URL
    /// Where a download lands (Chromium's `download.default_directory`).
    var downloads: URL { scratch.appendingPathComponent("downloads") }

    init() throws {
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent("robotci-webdriver-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        let port = try Self.freePort()
        base = "http://127.0.0.1:\(port)"
        client = try HTTPClient(defaultTimeout: 30, connectTimeout: 2)
        process.executableURL = URL(fileURLWithPath: Self.chromedriver)
        process.arguments = ["--port=\(port)", "--allowed-ips=127.0.0.1"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(15)
        while (try? call("GET", "/status")) == nil {
            guard Date() < deadline, process.isRunning else { close(); throw Failure(description: "chromedriver did not start on port \(port)") }
            usleep(50_000)
        }
        let caps: [String: Any] = ["capabilities": ["alwaysMatch": [
            "browserName": "chrome",
            "goog:chromeOptions": [
                "binary": HeadlessChromium.path,
                "args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-dev-shm-usage",
                         "--window-size=1280,900", "--user-data-dir=\(scratch.appendingPathComponent("profile").path)"],
                "prefs": ["download.default_directory": scratch.appendingPathComponent("downloads").path,
                          "download.prompt_for_download": false],
            ],
        ]]]
        do {
            let value = try call("POST", "/session", caps)
            session = try XCTUnwrap((value as? [String: Any])?["sessionId"] as? String)
        } catch { close(); throw error }
    }

    func close() {
        if !session.isEmpty { _ = try? call("DELETE", "/session/\(session)"); session = "" }
        if process.isRunning || process.processIdentifier > 0 { HeadlessChromium.killGroup(process.processIdentifier) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }  // not a group leader after all
        if process.processIdentifier > 0 { process.waitUntilExit() }
        try? FileManager.default.removeItem(at: scratch)
    }

    deinit { close() }

    func navigate(_ url: URL) throws { _ = try call("POST", "/session/\(session)/url", ["url": url.absoluteString]) }

    /// Reads state through a script (never used to click).
    func script(_ body: String) throws -> Any? {
        try call("POST", "/session/\(session)/execute/sync", ["script": body, "args": []])
    }

    func waitUntil(_ condition: String, timeout: TimeInterval = 10) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while (try script("return !!(\(condition));")) as? Bool != true {
            guard Date() < deadline else { throw Failure(description: "timed out waiting for \(condition)") }
            usleep(50_000)
        }
    }

    func element(_ css: String) throws -> String {
        let v = try call("POST", "/session/\(session)/element", ["using": "css selector", "value": css])
        guard let ref = (v as? [String: Any])?["element-6066-11e4-a52e-4f735466cecf"] as? String else {
            throw Failure(description: "no element \(css): \(String(describing: v))")
        }
        return ref
    }

    /// WebDriver Element Click: the browser scrolls the element into view and clicks its
    /// centre with the mouse (real mousedown / mouseup / click).
    func click(_ element: String) throws { _ = try call("POST", "/session/\(session)/element/\(element)/click", [:]) }

    /// Keys typed into an element (WebDriver focuses it first). "\u{E007}" is Enter.
    func sendKeys(_ element: String, _ text: String) throws {
        _ = try call("POST", "/session/\(session)/element/\(element)/value", ["text": text])
    }

    /// Ctrl + left click on an element through the Actions API.
    func ctrlClick(_ element: String) throws {
        let origin: [String: Any] = ["element-6066-11e4-a52e-4f735466cecf": element]
        let actions: [[String: Any]] = [
            ["type": "key", "id": "kb", "actions": [["type": "keyDown", "value": "\u{E009}"], ["type": "pause", "duration": 0],
                                                    ["type": "pause", "duration": 0], ["type": "keyUp", "value": "\u{E009}"]]],
            ["type": "pointer", "id": "mouse", "parameters": ["pointerType": "mouse"], "actions": [
                ["type": "pointerMove", "duration": 0, "origin": origin, "x": 0, "y": 0],
                ["type": "pointerDown", "button": 0], ["type": "pointerUp", "button": 0], ["type": "pause", "duration": 0]]],
        ]
        _ = try call("POST", "/session/\(session)/actions", ["actions": actions])
        _ = try? call("DELETE", "/session/\(session)/actions")
    }

    func windowHandles() throws -> [String] {
        (try call("GET", "/session/\(session)/window/handles") as? [String]) ?? []
    }

    @discardableResult
    private func call(_ method: String, _ path: String, _ body: [String: Any]? = nil) throws -> Any? {
        let data = try body.map { try JSONSerialization.data(withJSONObject: $0) }
        let response = try client.send(HTTPRequest(method: method, url: base + path,
                                                   headers: [("Content-Type", "application/json")], body: data))
        let json = try JSONSerialization.jsonObject(with: response.body, options: [.fragmentsAllowed]) as? [String: Any]
        guard response.status == 200 else {
            throw Failure(description: "\(method) \(path): HTTP \(response.status) \(String(decoding: response.body.prefix(400), as: UTF8.self))")
        }
        return json?["value"] ?? nil
    }

    static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket() failed") }
        defer { Glibc.close(fd) }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        addr.sin_port = 0
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ok = withUnsafeMutablePointer(to: &addr) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, len) == 0 && getsockname(fd, $0, &len) == 0 }
        }
        guard ok else { throw Failure(description: "cannot find a free port") }
        return Int(UInt16(bigEndian: addr.sin_port))
    }
}
