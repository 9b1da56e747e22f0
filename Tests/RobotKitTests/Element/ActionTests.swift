import Foundation
@testable import RobotKit
import XCTest

final class ActionTests: ElementsPageTestCase {
    func testTapDoubleTapAndPress() {
        app.buttons["counter.button"].tap()
        app.buttons["Increment"].tap()
        XCTAssertEqual(app.staticTexts["counter.label"].label, "Count: 2")
        app.buttons["double.target"].doubleTap()
        XCTAssertEqual(app.staticTexts["double.result"].label, "double")
        app.buttons["press.target"].press(forDuration: 0.5)
        XCTAssertEqual(app.staticTexts["press.result"].label, "long")
        app.switches["form.terms"].tap()
        XCTAssertEqual(app.switches["form.terms"].value as? String, "1")
    }

    func testTypeAndClearText() {
        let field = app.textFields["echo.input"]
        field.typeText("Hello")
        field.typeText(" world")
        XCTAssertEqual(field.value as? String, "Hello world")
        XCTAssertEqual(app.staticTexts["echo.output"].label, "Hello world", "the page saw input events")
        XCTAssertTrue(field.hasFocus)
        field.clearText()
        XCTAssertEqual(field.value as? String, "")
        XCTAssertFalse(app.staticTexts["echo.output"].exists, "an empty span is not a text")
        let notes = app.textViews["form.notes"]
        notes.clearText()
        notes.typeText("a\nb")
        XCTAssertEqual(notes.value as? String, "a\nb")
    }

    func testSwipesScrollTheContainerOrThePage() throws {
        let list = app.scrollViews["list.scroll"]
        func scrollTop() throws -> Int {
            try XCTUnwrap(app.evaluate("return document.getElementById('list').scrollTop") as? Int)
        }
        list.swipeUp()
        XCTAssertGreaterThan(try scrollTop(), 0)
        list.swipeDown()
        XCTAssertEqual(try scrollTop(), 0)
        let wide = app.scrollViews["wide.scroll"]
        wide.swipeLeft()
        XCTAssertGreaterThan(try XCTUnwrap(app.evaluate("return document.getElementById('wide').scrollLeft") as? Int), 0)
        wide.swipeRight()
        XCTAssertEqual(try XCTUnwrap(app.evaluate("return document.getElementById('wide').scrollLeft") as? Int), 0)
        app.swipeUp()
        XCTAssertGreaterThan(try XCTUnwrap(app.evaluate("return window.scrollY") as? Int), 0)
        app.swipeDown()
        XCTAssertEqual(try XCTUnwrap(app.evaluate("return window.scrollY") as? Int), 0)
        app.swipeLeft()
        app.swipeRight()
    }

    func testTapScrollsFarElementsIntoView() {
        app.buttons["bottom.button"].tap()
        XCTAssertTrue(app.buttons["bottom.button"].hasFocus)
    }

    func testTapFollowsLinksAndQueriesRideOutTheNavigation() {
        app.links["link.page2"].tap()
        XCTAssertTrue(app.staticTexts["page2.title"].waitForExistence(timeout: 5))
        XCTAssertEqual(app.title, "Page two")
        XCTAssertEqual(app.currentURL?.lastPathComponent, "page2.html")
        app.navigationBars.links["Back"].tap()
        XCTAssertTrue(app.buttons["counter.button"].waitForExistence(timeout: 5))
    }
}
