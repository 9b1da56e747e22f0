import Foundation
import RobotKit
import XCTest

/// Browser tests meant to be run *through* robotci by the end-to-end tests
/// (`RobotCIEndToEndTests.BrowserCleanupEndToEndTests`): each opens a real browser;
/// one hangs with its browser open, to prove robotci's timeout kill reaches
/// chromedriver and Chromium. Outside that run (no `ROBOTCI_BROWSER_E2E`) they skip.
final class UnderRobotCITests: UITestCase {
    override var appURL: URL? { Fixture.url("elements.html") }

    override func setUp() async throws {
        guard ProcessInfo.processInfo.environment["ROBOTCI_BROWSER_E2E"] == "1" else {
            throw XCTSkip("runs only under robotci, from BrowserCleanupEndToEndTests")
        }
        try await super.setUp()
    }

    func testBrowserA() {
        launch()
        XCTAssertTrue(app.buttons.firstMatch.waitForExistence(timeout: 10))
    }

    func testBrowserB() {
        launch()
        XCTAssertTrue(app.buttons.firstMatch.waitForExistence(timeout: 10))
    }

    func testBrowserHangs() {
        launch()
        XCTAssertTrue(app.buttons.firstMatch.waitForExistence(timeout: 10))
        Thread.sleep(forTimeInterval: 3600)  // robotci's --test-timeout kills the group
    }

    func testBrowserFailsAndLeavesArtifacts() {
        launch()
        XCTAssertFalse(app.buttons.firstMatch.exists, "fails on purpose: a screenshot and tree are expected")
    }
}
