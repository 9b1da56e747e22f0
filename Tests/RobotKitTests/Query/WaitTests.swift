import Foundation
import RobotKit
import XCTest

final class WaitTests: ElementsPageTestCase {
    func testWaitForExistenceSeesElementsAddedLater() {
        let late = app.buttons["late.button"]
        XCTAssertFalse(late.exists)
        app.buttons["appear.trigger"].tap()
        let start = Date()
        XCTAssertTrue(late.waitForExistence(timeout: 5))
        XCTAssertLessThan(Date().timeIntervalSince(start), 2, "resolves on the DOM change, not at the timeout")
    }

    func testWaitForNonExistence() {
        let vanishing = app.staticTexts["vanishing"]
        XCTAssertTrue(vanishing.exists)
        app.buttons["disappear.trigger"].tap()
        XCTAssertTrue(vanishing.waitForNonExistence(timeout: 5))
        XCTAssertFalse(vanishing.exists)
    }

    func testWaitsTimeOut() {
        let start = Date()
        XCTAssertFalse(app.buttons["never"].waitForExistence(timeout: 0.3))
        XCTAssertFalse(app.buttons["counter.button"].waitForNonExistence(timeout: 0.3))
        let elapsed = Date().timeIntervalSince(start)
        XCTAssertGreaterThanOrEqual(elapsed, 0.6)
        XCTAssertLessThan(elapsed, 2)
    }

    func testWaitUntilAndWaitForState() {
        XCTAssertTrue(app.wait(for: .runningForeground, timeout: 5))
        app.buttons["counter.button"].tap()
        XCTAssertTrue(app.wait(until: { self.app.staticTexts["counter.label"].label == "Count: 1" }, timeout: 2))
        XCTAssertFalse(app.wait(until: { false }, timeout: 0.2))
    }
}
