import Foundation
import BrowserTools
import LoopbackSockets
import ProcessToolkit
@testable import RobotKit
import XCTest

/// A real headless Chromium driven over WebDriver, so tests can click like a person: element
/// clicks and input actions go through the browser's input pipeline (mousedown, focus, mouseup,
/// click), unlike a script's `element.click()`.
///
/// Nothing of its own: chromedriver is found and started by ProcessToolkit (`BrowserInstallation`,
/// `ChromeDriver.start`, in a process group of its own) and driven by RobotKit's WebDriver client
/// (`WebDriverSession`). The browser is the full Chromium (`HeadlessChromium.path`), not the
/// headless shell RobotKit prefers: these tests download files through its preferences.
/// `close()` deletes the session and kills chromedriver's group, so no browser outlives the test.
final class WebDriverBrowser {
    static var isAvailable: Bool {
        BrowserInstallation.chromedriver() != nil && HeadlessChromium.isAvailable
    }

    /// What the skip message names.
    static var chromedriver: String { BrowserInstallation.chromedriver() ?? "chromedriver" }

    struct Failure: Error, CustomStringConvertible { let description: String }

    private let driver: ChromeDriver
    private var session: WebDriverSession?
    private let scratch: URL
    /// chromedriver's and Chromium's `TMPDIR`: short (a long one stops the full browser).
    private let temporary: URL?
    /// Where a download lands (Chromium's `download.default_directory`).
    var downloads: URL { scratch.appendingPathComponent("downloads") }

    init() throws {
        let executable = try XCTUnwrap(BrowserInstallation.chromedriver(), "no chromedriver")
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent("robotci-webdriver-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        let port = try XCTUnwrap(Loopback.freePort(), "no free loopback port")
        temporary = PrivateFolder.make(prefix: "robotci-wd-")
        driver = try ChromeDriver.start(
            DriverLaunch(executable: executable, port: port, logPath: scratch.appendingPathComponent("chromedriver.log").path, group: .own),
            temporaryDirectory: temporary?.path, timeout: 15)
        let capabilities: [String: Any] = [
            "browserName": "chrome",
            "goog:chromeOptions": [
                "binary": HeadlessChromium.path,
                "args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-dev-shm-usage",
                         "--window-size=1280,900", "--user-data-dir=\(scratch.appendingPathComponent("profile").path)"],
                "prefs": ["download.default_directory": downloads.path, "download.prompt_for_download": false],
            ] as [String: Any],
        ]
        do {
            session = try WebDriverSession.create(driverURL: driver.url, capabilities: capabilities)
        } catch {
            close()
            throw error
        }
    }

    func close() {
        try? session?.delete()
        session = nil
        driver.stop()
        try? FileManager.default.removeItem(at: scratch)
        if let temporary { try? FileManager.default.removeItem(at: temporary) }
    }

    deinit { close() }

    private func live() throws -> WebDriverSession {
        guard let session else { throw Failure(description: "the browser is closed") }
        return session
    }

    func navigate(_ url: URL) throws { try live().navigate(to: url.absoluteString) }

    /// Reads state through a script (never used to click).
    func script(_ body: String) throws -> Any? { try live().executeScript(body) }

    func waitUntil(_ condition: String, timeout: TimeInterval = 10) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while (try script("return !!(\(condition));")) as? Bool != true {
            guard Date() < deadline else { throw Failure(description: "timed out waiting for \(condition)") }
            usleep(50_000)
        }
    }

    func element(_ css: String) throws -> String { try live().findElement(css: css) }

    /// WebDriver Element Click: the browser scrolls the element into view and clicks its
    /// centre with the mouse (real mousedown / mouseup / click).
    func click(_ element: String) throws { try live().click(element) }

    /// Keys typed into an element (WebDriver focuses it first). "\u{E007}" is Enter.
    func sendKeys(_ element: String, _ text: String) throws { try live().sendKeys(text, to: element) }

    /// Ctrl + left click on an element through the Actions API.
    func ctrlClick(_ element: String) throws {
        let actions: [[String: Any]] = [
            ["type": "key", "id": "kb", "actions": [["type": "keyDown", "value": "\u{E009}"], ["type": "pause", "duration": 0],
                                                    ["type": "pause", "duration": 0], ["type": "keyUp", "value": "\u{E009}"]]],
            ["type": "pointer", "id": "mouse", "parameters": ["pointerType": "mouse"], "actions": [
                ["type": "pointerMove", "duration": 0, "origin": WebDriverSession.reference(element), "x": 0, "y": 0],
                ["type": "pointerDown", "button": 0], ["type": "pointerUp", "button": 0], ["type": "pause", "duration": 0]]],
        ]
        try live().perform(actions: actions)
    }

    func windowHandles() throws -> [String] { try live().windowHandles() }

    /// Sends the next commands into the frame `element` (an iframe), or back to the page (nil).
    func switchToFrame(_ element: String?) throws {
        if let element { try live().command("POST", "frame", ["id": WebDriverSession.reference(element)]) }
        else { try live().command("POST", "frame/parent") }
    }
}
