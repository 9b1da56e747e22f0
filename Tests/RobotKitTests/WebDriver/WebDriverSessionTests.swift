import Foundation
@testable import RobotKit
import XCTest

/// The W3C commands RobotKit's element API is built on.
final class WebDriverSessionTests: ElementsPageTestCase {
    func testElementCommands() throws {
        let session = try app.requireSession()
        XCTAssertEqual(try session.findElements(css: "li").count, 6)
        let button = try session.findElement(css: "[data-testid='counter.button']")
        XCTAssertEqual(try session.text(of: button), "Increment")
        XCTAssertEqual(try session.attribute("data-testid", of: button), "counter.button")
        XCTAssertEqual(try session.property("tagName", of: button) as? String, "BUTTON")
        XCTAssertTrue(try session.isDisplayed(button))
        XCTAssertGreaterThan(try session.rect(of: button).width, 10)
        try session.click(button)
        XCTAssertEqual(app.staticTexts["counter.label"].label, "Count: 1")

        let field = try session.findElement(css: "#name")
        try session.sendKeys("abc", to: field)
        XCTAssertEqual(try session.property("value", of: field) as? String, "abc")
        try session.clear(field)
        XCTAssertEqual(try session.property("value", of: field) as? String, "")
        XCTAssertThrowsError(try session.findElement(css: "#does-not-exist")) { error in
            XCTAssertEqual((error as? RobotKitError)?.webDriverCode, "no such element")
        }
    }

    func testScriptsScreenshotSourceAndLogs() throws {
        XCTAssertEqual(try app.evaluate("return arguments[0] + 1", [41]) as? Int, 42)
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

    /// Lines a page logged that nobody read (its test process crashed, or a launch replaced
    /// it) stay in chromedriver's buffer; the next launch's console does not show them.
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
}
