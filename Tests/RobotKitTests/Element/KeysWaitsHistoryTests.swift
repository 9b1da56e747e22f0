import Foundation
@testable import RobotKit
import XCTest

/// Issue 55's robot API on a real page: keys by XCUITest's names, waits for a value that run in
/// the page, the browser's history, and reads attributed to their caller's line.
final class KeysWaitsHistoryTests: ElementsPageTestCase {
    func testTypeKeyPressesNamedKeysWithModifiers() throws {
        try app.evaluate("""
            window.__keys = [];
            document.getElementById('name').addEventListener('keydown',
                (e) => window.__keys.push(e.key + (e.shiftKey ? '+shift' : '') + (e.ctrlKey ? '+ctrl' : '')));
            return 1
            """)
        let field = app.textFields["form.name"]
        field.typeText("ab")
        field.typeKey(.escape, modifierFlags: [])
        field.typeKey(XCUIKeyboardKey.leftArrow, modifierFlags: .shift)
        field.typeKey("a", modifierFlags: .control)
        field.typeKey(.delete, modifierFlags: [])
        XCTAssertEqual(try app.evaluate("return window.__keys") as? [String],
                       ["a", "b", "Escape", "Shift+shift", "ArrowLeft+shift", "Control+ctrl", "a+ctrl", "Backspace"])
        XCTAssertEqual(field.value as? String, "", "Ctrl+A selected the text and Backspace deleted it")
    }

    func testWaitsForAValueRunInThePage() throws {
        let label = app.staticTexts["counter.label"]
        try app.evaluate("setTimeout(() => document.querySelector('[data-testid=\"counter.button\"]').click(), 300); return 1")
        XCTAssertTrue(label.wait(for: \.label, toEqual: "Count: 1", timeout: 5))
        XCTAssertFalse(label.wait(for: \.label, toEqual: "Count: 9", timeout: 0.3), "a wait that runs out is false")
        let terms = app.switches["form.terms"]
        XCTAssertTrue(terms.wait(for: \.isSelected, toEqual: false, timeout: 1))
        terms.tap()
        XCTAssertTrue(terms.wait(for: \.isSelected, toEqual: true, timeout: 2))
        app.textFields["form.name"].typeText("Robo")
        XCTAssertTrue(app.textFields["form.name"].wait(for: \.value, toEqual: "Robo", timeout: 2))
        XCTAssertTrue(app.buttons["disabled.button"].wait(for: \.isEnabled, toEqual: false, timeout: 1))
        XCTAssertTrue(app.buttons["never"].wait(for: \.exists, toEqual: false, timeout: 1))
        let items = app.cells
        let count = items.count
        XCTAssertTrue(items.wait(for: \.count, toEqual: count, timeout: 1))
        XCTAssertFalse(items.wait(for: \.count, toEqual: count + 1, timeout: 0.2))
    }

    func testBackForwardAndReload() throws {
        app.links["link.page2"].tap()
        XCTAssertTrue(app.wait(until: { self.app.currentURL?.lastPathComponent == "page2.html" }, timeout: 5))
        app.goBack()
        XCTAssertTrue(app.buttons["counter.button"].waitForExistence(timeout: 5), "back on the first page")
        app.goForward()
        XCTAssertTrue(app.wait(until: { self.app.currentURL?.lastPathComponent == "page2.html" }, timeout: 5))
        app.goBack()
        app.buttons["counter.button"].tap()
        XCTAssertTrue(app.staticTexts["counter.label"].wait(for: \.label, toEqual: "Count: 1", timeout: 5))
        app.reload()
        XCTAssertTrue(app.staticTexts["counter.label"].wait(for: \.label, toEqual: "Count: 0", timeout: 5), "a reload is a new document")
    }

    /// A read names the line that read, not RobotKit's own.
    func testAReadFindsItsCallersLine() {
        let site = CallSite.outsideRobotKit()
        let line = UInt(#line - 1)
        XCTAssertEqual(site?.file, #filePath)
        XCTAssertEqual(site?.line, line)
        XCTAssertEqual(site?.function, "testAReadFindsItsCallersLine()")
        XCTAssertEqual(CallSite.function("M.Robot.verify(file: Swift.StaticString, line: Swift.UInt) -> M.Robot"), "verify(file:line:)")
        XCTAssertEqual(CallSite.function("closure #1 () -> Swift.Bool in M.Tests.testX()"), "testX()")
        XCTAssertEqual(CallSite.function("M.Robot.tap(_: Swift.String) -> ()"), "tap(_:)")
    }
}
