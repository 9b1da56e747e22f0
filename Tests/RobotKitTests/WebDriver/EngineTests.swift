import Foundation
@testable import RobotKit
import XCTest

/// The page commands both engines give RobotKit, on the default engine (Chromium over DevTools).
final class PageDriverTests: ElementsPageTestCase {
    func testScriptsScreenshotSourceAndLogs() throws {
        XCTAssertEqual(try app.evaluate("return arguments[0] + 1", [41]) as? Int, 42)
        XCTAssertEqual(try app.evaluate("return Promise.resolve(7)") as? Int, 7, "a returned promise is awaited")
        let png = try app.screenshot()
        XCTAssertEqual(Array(png.prefix(8)), [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        XCTAssertTrue(try app.pageSource().contains("data-testid=\"elements.view\""))
        let log = try app.consoleLog()
        XCTAssertTrue(log.contains { $0.message.contains("fixture loaded") }, "\(log)")
        XCTAssertTrue(log.contains { $0.level == "WARNING" }, "\(log)")
        XCTAssertThrowsError(try app.evaluate("throw new Error('boom')")) { error in
            XCTAssertEqual((error as? RobotKitError)?.webDriverCode, "javascript error")
        }
    }

    /// Lines the last launch's page logged that nobody read are not this launch's console.
    func testTheConsoleOfALaunchHoldsNoLineOfTheLaunchBefore() throws {
        try app.evaluate("console.log('from the launch before'); return 1")
        usleep(50_000)
        app.launch()
        let log = try app.consoleLog()
        XCTAssertFalse(log.contains { $0.message.contains("from the launch before") }, "\(log)")
        XCTAssertTrue(log.contains { $0.message.contains("fixture loaded") }, "this launch's own lines are kept: \(log)")
    }

    func testTerminateEndsTheSession() throws {
        app.terminate()
        XCTAssertEqual(app.state, .notRunning)
        XCTAssertThrowsError(try app.screenshot()) { error in
            XCTAssertTrue("\(error)".contains("call launch() first"))
        }
        app.launch()
        XCTAssertTrue(app.buttons["counter.button"].exists, "a second launch starts a fresh session")
    }

    /// Typing sends real key events: the page sees keydown, keypress/input and keyup with the
    /// key's name and code, Return and WebDriver's key codes included.
    func testTypingSendsRealKeyEvents() throws {
        try app.evaluate("""
            window.__keys = [];
            const field = document.getElementById('name');
            field.addEventListener('keydown', (e) => window.__keys.push(e.key + ':' + e.keyCode));
            return 1
            """)
        app.textFields["form.name"].typeText("aB1\n\u{E00C}")
        XCTAssertEqual(app.textFields["form.name"].value as? String, "aB1")
        XCTAssertEqual(try app.evaluate("return window.__keys") as? [String], ["a:65", "B:66", "1:49", "Enter:13", "Escape:27"])
        app.textFields["form.name"].clearText()
        XCTAssertEqual(app.textFields["form.name"].value as? String, "")
    }
}

/// The same robot API over the W3C WebDriver engine (libcurl), against a chromedriver this
/// process starts: the query library, taps, typing, clearing and evidence are the engines'
/// shared code, so what passes on one must pass on the other.
final class WebDriverEngineTests: XCTestCase {
    func testTheRobotAPIRunsOverWebDriver() throws {
        let app = WebApp(url: Fixture.url("elements.html"))
        app.browser = WebDriverBrowser(driver: RobotKitProcess.current.driver)
        app.implicitWaitTimeout = 2
        try app.launchOrThrow()
        defer { app.terminate() }
        XCTAssertTrue(try XCTUnwrap(app.currentPage).driver is WebDriverPage)
        app.buttons["counter.button"].tap()
        XCTAssertEqual(app.staticTexts["counter.label"].label, "Count: 1")
        app.buttons["counter.button"].doubleTap()
        XCTAssertEqual(app.staticTexts["counter.label"].label, "Count: 3")
        app.textFields["form.name"].typeText("abc\u{E00C}")
        XCTAssertEqual(app.textFields["form.name"].value as? String, "abc")
        app.textFields["form.name"].clearText()
        XCTAssertEqual(app.textFields["form.name"].value as? String, "")
        XCTAssertEqual(try app.evaluate("return arguments[0] * 2", [21]) as? Int, 42)
        XCTAssertEqual(Array(try app.screenshot().prefix(4)), [0x89, 0x50, 0x4E, 0x47])
        XCTAssertTrue(try app.pageSource().contains("data-testid=\"elements.view\""))
        XCTAssertTrue(app.accessibilityTree.contains("counter.button"), app.accessibilityTree)
    }
}
