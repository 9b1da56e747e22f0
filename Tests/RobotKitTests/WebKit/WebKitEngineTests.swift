import BrowserTools
import Foundation
import MockServer
@testable import RobotKit
import WorkerContract
import XCTest

/// The robot API on WebKit (WPE WebKit's cog through the WPEWebDriver RobotKit starts): the
/// same query library, input and waits as on Chromium, one session kept across launches and
/// reset between them. Skipped where the WebKit stack is not installed.
final class WebKitEngineTests: XCTestCase {
    /// One engine for the class, as `RobotKitProcess` keeps one for a process run with
    /// `ROBOTKIT_BROWSER=webkit`: its session is what the isolation test checks.
    private static let browser = WebKitBrowser(driver: RobotKitProcess.current.webKitDriver)

    private func launch(_ url: URL) throws -> WebApp {
        do {
            _ = try WebKitDriver.locate()
        } catch {
            throw XCTSkip("WebKit is not installed: \(error) (the package is wpewebkit-driver, with cog)")
        }
        let app = WebApp(url: url)
        app.browser = Self.browser
        app.implicitWaitTimeout = 2
        try app.launchOrThrow()
        addTeardownBlock { app.terminate() }
        return app
    }

    /// WebKit sees the Liberation fonts alone too (BrowserFonts, through WPEWebDriver's environment).
    func testWebKitDrawsWithLiberationWhateverTheMachineHas() throws {
        let app = try launch(Fixture.url("snapshot.html"))
        let widths = try XCTUnwrap(app.evaluate("""
            const c = document.createElement('canvas').getContext('2d');
            const w = (f) => { c.font = '20px ' + f; return c.measureText('Wafflé Quartz 0123 ijl').width; };
            return [w('sans-serif'), w('"Liberation Sans"'), w('"DejaVu Sans"'), w('"Some Font Nobody Has"'), w('monospace'), w('"Liberation Mono"')];
            """) as? [Double])
        XCTAssertEqual(widths[0], widths[1], "sans-serif is Liberation Sans: \(widths)")
        XCTAssertEqual(widths[2], widths[3], "DejaVu is not there: it falls back as an unknown family does: \(widths)")
        XCTAssertEqual(widths[4], widths[5], "monospace is Liberation Mono: \(widths)")
    }

    /// `verifySnapshot` on WebKit: the same still capture over WebDriver, a moving page matching
    /// its baseline on the next launches, a recoloured element caught.
    func testSnapshotsOfAMovingPage() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("webkit-snapshots-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        func check(_ app: WebApp, _ id: String?, _ update: SnapshotUpdate) -> Bool {
            app.verifySnapshot(id ?? "page", of: id.map { app.descendants(matching: .any)[$0] }, tolerance: nil,
                               settings: SnapshotSettings(update: update, root: root), at: Caller(function: #function, file: #filePath, line: #line))
        }
        var app = try launch(Fixture.url("snapshot.html"))
        XCTAssertTrue(check(app, nil, .missing))
        XCTAssertTrue(check(app, "profile", .missing))
        for _ in 0..<2 {
            app.terminate()
            app = try launch(Fixture.url("snapshot.html"))
            XCTAssertTrue(check(app, nil, .none), "the page matches on the next launch")
            XCTAssertTrue(check(app, "profile", .none))
        }
        app.terminate()
        var recoloured = Fixture.url("snapshot.html")
        recoloured = URL(string: recoloured.absoluteString + "?BADGE_COLOR=%23b71c1c") ?? recoloured
        app = try launch(recoloured)
        caught = []
        let matched = check(app, "profile", .none)
        let failures = caught ?? []
        caught = nil
        XCTAssertFalse(matched, "the recoloured badge is caught")
        XCTAssertEqual(failures.count, 1)
        XCTAssertTrue(failures.first?.contains("does not match its baseline") == true, "\(failures)")
        XCTAssertTrue(FileManager.default.fileExists(atPath: root.appendingPathComponent("chromium/WebKitEngineTests").path)
                      || FileManager.default.fileExists(atPath: root.appendingPathComponent("webkit/WebKitEngineTests").path))
    }

    /// Failures a test expects, caught instead of reported (Linux XCTest has no XCTExpectFailure).
    private var caught: [String]?

    override func recordFailure(withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool) {
        if caught != nil {
            caught?.append(description)
            return
        }
        super.recordFailure(withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
    }

    private func sessionID(of app: WebApp) throws -> String {
        try XCTUnwrap(app.currentPage?.driver as? WebDriverPage).session.id
    }

    func testQueriesTapTypingAndScreenshot() throws {
        let app = try launch(Fixture.url("elements.html"))
        let agent = try XCTUnwrap(app.evaluate("return navigator.userAgent") as? String)
        XCTAssertTrue(agent.contains("AppleWebKit") && !agent.contains("Chrome"), "WebKit, not Chromium: \(agent)")
        XCTAssertTrue(app.buttons["counter.button"].exists)
        XCTAssertFalse(app.buttons["never"].exists)
        app.buttons["counter.button"].tap()
        XCTAssertEqual(app.staticTexts["counter.label"].label, "Count: 1")
        app.buttons["counter.button"].doubleTap()
        XCTAssertEqual(app.staticTexts["counter.label"].label, "Count: 3")
        let field = app.textFields["form.name"]
        field.typeText("aB1")
        XCTAssertEqual(field.value as? String, "aB1")
        field.typeKey(.delete, modifierFlags: [])
        XCTAssertEqual(field.value as? String, "aB")
        field.clearText()
        XCTAssertEqual(field.value as? String, "")
        XCTAssertEqual(Array(try app.screenshot().prefix(4)), [0x89, 0x50, 0x4E, 0x47])
        XCTAssertTrue(try app.pageSource().contains("data-testid=\"elements.view\""))
        XCTAssertTrue(app.accessibilityTree.contains("counter.button"), app.accessibilityTree)
    }

    func testWaitsAndHistory() throws {
        let app = try launch(Fixture.url("elements.html"))
        let label = app.staticTexts["counter.label"]
        try app.evaluate("setTimeout(() => document.querySelector('[data-testid=\"counter.button\"]').click(), 300); return 1")
        XCTAssertTrue(label.wait(for: \.label, toEqual: "Count: 1", timeout: 5))
        XCTAssertFalse(label.wait(for: \.label, toEqual: "Count: 9", timeout: 0.3))
        XCTAssertTrue(app.buttons["never"].waitForNonExistence(timeout: 1))
        app.links["link.page2"].tap()
        XCTAssertTrue(app.wait(until: { app.currentURL?.lastPathComponent == "page2.html" }, timeout: 5))
        app.goBack()
        XCTAssertTrue(app.buttons["counter.button"].waitForExistence(timeout: 5), "back on the first page")
        app.goForward()
        XCTAssertTrue(app.wait(until: { app.currentURL?.lastPathComponent == "page2.html" }, timeout: 5))
        app.goBack()
        XCTAssertTrue(app.buttons["counter.button"].waitForExistence(timeout: 5))
        // No back-forward cache (as on Chromium): Back loaded the page afresh, at Count: 0.
        app.buttons["counter.button"].tap()
        XCTAssertTrue(label.wait(for: \.label, toEqual: "Count: 1", timeout: 5), label.label)
        app.reload()
        XCTAssertTrue(label.wait(for: \.label, toEqual: "Count: 0", timeout: 5), "a reload is a new document")
    }

    /// What one launch stores is gone for the next, in the same kept session (the same cog).
    func testNextLaunchSeesNoneOfThePreviousLaunchsStorage() async throws {
        let server = try await MockServer.create()
        try await StoragePage.serve(on: server)
        let base = await server.baseURL
        let url = try XCTUnwrap(URL(string: base + StoragePage.path))
        let first = try launch(url)
        let session = try sessionID(of: first)
        try first.evaluate("return writeEverything()")
        let written = try XCTUnwrap(first.evaluate("return readEverything()") as? [String: Any])
        XCTAssertEqual(written["cookie"] as? String, "robot=1")
        for kind in WebKitStorage.kinds {
            XCTAssertEqual((written[kind] as? NSNumber)?.intValue, 1, "\(kind): \(written)")
        }
        first.terminate()

        let second = try launch(url)
        XCTAssertEqual(try sessionID(of: second), session, "the kept session, reset")
        let seen = try XCTUnwrap(second.evaluate("return readEverything()") as? [String: Any])
        XCTAssertEqual(seen["cookie"] as? String, "", "\(seen)")
        for kind in WebKitStorage.kinds {
            XCTAssertEqual((seen[kind] as? NSNumber)?.intValue, 0, "\(kind) leaked: \(seen)")
        }
        second.terminate()
        await server.stop()
    }

    /// A launch that used a second origin cannot be cleared through WebDriver: its session is
    /// replaced, and the next launch is a new cog.
    func testALaunchOnTwoOriginsGetsANewSession() async throws {
        let server = try await MockServer.create()
        try await StoragePage.serve(on: server)
        let base = await server.baseURL
        let url = try XCTUnwrap(URL(string: base + StoragePage.path))
        let first = try launch(url)
        let session = try sessionID(of: first)
        try first.open(Fixture.url("elements.html"))
        first.terminate()
        let second = try launch(url)
        XCTAssertNotEqual(try sessionID(of: second), session)
        second.terminate()
        await server.stop()
    }

    func testWhatWebKitLacksIsAnErrorNamingIt() throws {
        let app = try launch(Fixture.url("elements.html"))
        XCTAssertThrowsError(try app.consoleLog()) { error in
            XCTAssertTrue((error as? RobotKitError)?.isUnsupported == true, "\(error)")
            XCTAssertTrue("\(error)".contains("WebKit's WebDriver (WPEWebDriver) has no console log"), "\(error)")
        }
        let resized = WebApp(url: Fixture.url("elements.html"))
        resized.browser = Self.browser
        resized.windowSize = (390, 844)
        XCTAssertThrowsError(try resized.launchOrThrow()) { error in
            XCTAssertTrue("\(error)".contains("fixed 800x600 window"), "\(error)")
        }
    }
}

/// Choosing WebKit, and what a machine without it is told; no browser needed.
final class WebKitChoiceTests: XCTestCase {
    func testTheRunnersVariableWinsOverRobotKitsOwn() {
        XCTAssertEqual(WorkerEnvironment(["ROBOTCI_BROWSER": "webkit", "ROBOTKIT_BROWSER": "chromium"]).browser, "webkit")
        XCTAssertEqual(WorkerEnvironment(["ROBOTKIT_BROWSER": "WebKit"]).browser, "webkit")
        XCTAssertEqual(WorkerEnvironment([:]).browser, "chromium")
    }

    func testAMissingStackNamesThePackage() {
        XCTAssertThrowsError(try WebKitDriver.locate(environment: ["PATH": "/nonexistent", "WPEWEBDRIVER": "/nonexistent/d", "COG_BIN": "/nonexistent/c"])) { error in
            XCTAssertTrue("\(error)".contains("apt-get install wpewebkit-driver cog"), "\(error)")
        }
    }

    func testAnUnknownBrowserFailsTheLaunchNamingTheChoices() {
        XCTAssertThrowsError(try UnknownBrowser(name: "firefox").openPage(arguments: [], url: "about:blank", isolation: .context)) {
            error in
            XCTAssertTrue("\(error)".contains("\"chromium\" or \"webkit\""), "\(error)")
        }
    }
}

/// The kinds of storage `StoragePage` writes and reads, besides its cookie.
private enum WebKitStorage {
    static let kinds = ["local", "session", "indexedDB", "caches", "workers"]
}

