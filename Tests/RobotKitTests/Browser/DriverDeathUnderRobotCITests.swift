import Foundation
@testable import RobotKit
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// Run *through* robotci by `RobotCIEndToEndTests.ReliabilityTests` (both tests in one
/// process): the first test kills the shard's browser (which robotci keeps behind its relay)
/// mid-test and must fail with a message that says the browser went away; the second must get
/// a fresh browser (the relay starts one at the next hello) and pass. Outside that run (no
/// `ROBOTCI_DRIVER_DEATH_E2E`) they skip.
final class DriverDeathUnderRobotCITests: UITestCase {
    override var appURL: URL? { Fixture.url("elements.html") }

    override func setUp() async throws {
        guard ProcessInfo.processInfo.environment["ROBOTCI_DRIVER_DEATH_E2E"] == "1" else {
            throw XCTSkip("runs only under robotci, from ReliabilityTests")
        }
        try await super.setUp()
    }

    func testA_BrowserIsKilledMidTest() {
        launch()
        XCTAssertTrue(app.buttons.firstMatch.waitForExistence(timeout: 10))
        let browser = RobotKitProcess.current.browser.browserProcessID
        print("driver-death: killing browser \(browser.map(String.init) ?? "none") of process \(getpid())")
        XCTAssertNotNil(browser, "the shard's browser runs")
        if let browser { kill(browser, SIGKILL) }
        usleep(300_000)
        app.buttons.firstMatch.tap()  // fails: the browser is gone
    }

    func testB_NextTestGetsAFreshBrowser() {
        launch()
        XCTAssertTrue(app.buttons.firstMatch.waitForExistence(timeout: 10))
        print("driver-death: browser now \(RobotKitProcess.current.browser.browserProcessID.map(String.init) ?? "none") in process \(getpid())")
    }
}
