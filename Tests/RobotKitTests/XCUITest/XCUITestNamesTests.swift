import Foundation
@testable import RobotKit
import XCTest

/// XCUITest's spellings on Linux: `XCUIApplication()` located by `XCUIApplication.appURL`,
/// `XCUIElement`/`XCUIElementQuery`/`XCUIElement.ElementType`, coordinates and drags,
/// `executionTimeAllowance`, and apps that stop acting after the test's first failure.
final class XCUITestNamesTests: XCTestCase {
    private var app: XCUIApplication!

    override func setUp() async throws {
        try await super.setUp()
        continueAfterFailure = false
        executionTimeAllowance = 120
        XCUIApplication.appURL = Fixture.url("elements.html")
        app = XCUIApplication()
        app.launchArguments.append("--uitesting")
        app.launchEnvironment["API_BASE_URL"] = "http://127.0.0.1:1"
        app.launch()
        XCTAssertTrue(app.wait(for: .runningForeground, timeout: 10))
    }

    override func tearDown() async throws {
        app?.terminate()
        app = nil
        XCUIApplication.appURL = nil
        try await super.tearDown()
    }

    func testXCUIApplicationOpensAppURLWithItsLaunchArgumentsAndEnvironment() throws {
        XCTAssertEqual(app.url, Fixture.url("elements.html"))
        let search = try XCTUnwrap(app.evaluate("return location.search") as? String)
        XCTAssertTrue(search.contains("API_BASE_URL=http://127.0.0.1:1"), search)
        XCTAssertTrue(search.contains("--uitesting"), search)
        XCTAssertEqual(executionTimeAllowance, 120)
    }

    func testXCUITypesAndQueries() {
        let query: XCUIElementQuery = app.descendants(matching: .any)
        let button: XCUIElement = query["counter.button"].firstMatch
        let type: XCUIElement.ElementType = .button
        XCTAssertTrue(button.waitForExistence(timeout: 5))
        XCTAssertEqual(button.elementType, type)
        XCTAssertTrue(app.buttons.element(boundBy: 0).exists)
    }

    /// XCUITest users wait "for as long as it takes" with `.infinity` or
    /// `.greatestFiniteMagnitude`: the wait returns when the element is there, not a trap
    /// converting an infinite number of seconds to milliseconds.
    func testWaitsWithoutABoundReturnWhenTheElementIsThere() {
        XCTAssertTrue(app.buttons["counter.button"].waitForExistence(timeout: .infinity))
        XCTAssertTrue(app.buttons["counter.button"].waitForExistence(timeout: .greatestFiniteMagnitude))
        XCTAssertFalse(app.buttons["no.such.button"].waitForExistence(timeout: .nan), "NaN is no time at all")
    }

    func testCoordinateTapAndPressThenDrag() throws {
        let button = app.buttons["counter.button"]
        button.coordinate(withNormalizedOffset: CGVector(dx: 0.5, dy: 0.5)).tap()
        XCTAssertEqual(app.staticTexts["counter.label"].label, "Count: 1")

        _ = try app.evaluate("""
            window.__pointer = [];
            for (const kind of ['mousedown', 'mouseup']) {
                document.addEventListener(kind, e => window.__pointer.push([kind, e.clientX, e.clientY]), true);
            }
            return true
            """)
        let frame = button.frame
        let start = button.coordinate(withNormalizedOffset: CGVector(dx: 0.5, dy: 0.5))
        let end = button.coordinate(withNormalizedOffset: CGVector(dx: 0.5, dy: 3))
        start.press(forDuration: 0, thenDragTo: end)
        let events = try XCTUnwrap(app.evaluate("return window.__pointer") as? [[Any]])
        XCTAssertEqual(events.count, 2, "\(events)")
        XCTAssertEqual(events.first?.first as? String, "mousedown")
        XCTAssertEqual(events.last?.first as? String, "mouseup")
        let downY = try XCTUnwrap((events.first?[2] as? NSNumber)?.doubleValue)
        let upY = try XCTUnwrap((events.last?[2] as? NSNumber)?.doubleValue)
        XCTAssertEqual(downY, Double(frame.midY), accuracy: 1)
        XCTAssertEqual(upY, min(Double(frame.minY + frame.height * 3), Double(app.windowSize.height - 1)), accuracy: 1)
    }

    func testAnAppStopsActingAfterTheTestsFirstFailure() throws {
        // What XCTest tells its observers when an assertion fails (called directly here, so
        // this test itself does not fail): from then on the app's actions are skipped.
        RobotKitProcess.current.observer.testCase(self, didFailWithDescription: "simulated", inFile: nil, atLine: 0)
        app.buttons["counter.button"].tap()
        let label = try XCTUnwrap(app.evaluate(
            "return document.querySelector('[data-testid=\"counter.label\"]').textContent") as? String)
        XCTAssertEqual(label, "Count: 0", "the tap after the failure must not happen")
        let start = Date()
        XCTAssertTrue(app.buttons["no.such.button"].waitForExistence(timeout: 5), "a halted wait adds no failure")
        XCTAssertLessThan(Date().timeIntervalSince(start), 1, "and does not wait")
    }

    func testExecutionTimeAllowanceIsEnforcedInWholeMinutesAsOnDarwin() {
        XCTAssertEqual(RobotKitTestObserver.enforced(1), 60)
        XCTAssertEqual(RobotKitTestObserver.enforced(60), 60)
        XCTAssertEqual(RobotKitTestObserver.enforced(61), 120)
        XCTAssertEqual(RobotKitTestObserver.enforced(600), 600)
    }
}
