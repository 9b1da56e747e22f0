import Foundation
@testable import RobotKit
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

    /// A wait that starts on one page and ends on the next: the navigation ends the page's
    /// evaluation ("aborted by navigation"), and the wait goes on in the new document, where
    /// the query library is installed again.
    func testAWaitRidesOutANavigationAndQueriesWorkOnTheNewPage() throws {
        _ = try app.evaluate("setTimeout(() => { location.href = 'page2.html'; }, 300)")
        let start = Date()
        XCTAssertTrue(app.staticTexts["page2.title"].waitForExistence(timeout: 10))
        XCTAssertLessThan(Date().timeIntervalSince(start), 5)
        XCTAssertEqual(app.staticTexts["page2.title"].label, "This is page two")
        XCTAssertTrue(app.links["Back"].exists)
        app.links["Back"].tap()
        XCTAssertTrue(app.buttons["counter.button"].waitForExistence(timeout: 10))
        XCTAssertTrue(app.links["Next page"].exists, "queries on the first page again")
    }

    /// The library installs itself once per document, under a name of its own, read-only
    /// and hidden from enumeration; the page's own globals are left alone.
    func testTheQueryLibraryIsInstalledOnceWithoutTouchingThePagesGlobals() throws {
        _ = try app.evaluate("window.RK = 'the app'; window.__robotciSnapshot = 42;")
        XCTAssertTrue(app.buttons["counter.button"].exists)
        let name = QueryScript.installedName
        let probe = try app.evaluate("""
            const d = Object.getOwnPropertyDescriptor(window, '\(name)');
            return [typeof window['\(name)'], d ? d.writable : null, Object.keys(window).includes('\(name)'), window.RK, window.__robotciSnapshot];
            """) as? [Any]
        XCTAssertEqual(probe?[0] as? String, "object")
        XCTAssertEqual(probe?[1] as? Bool, false, "read-only")
        XCTAssertEqual(probe?[2] as? Bool, false, "not enumerable")
        XCTAssertEqual(probe?[3] as? String, "the app")
        XCTAssertEqual(probe?[4] as? Int, 42)
        _ = try app.evaluate("window['\(name)'] = null;")
        XCTAssertTrue(app.buttons["counter.button"].exists, "a page cannot overwrite it")
    }
}
