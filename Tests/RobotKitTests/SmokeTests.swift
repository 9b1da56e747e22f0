import Foundation
import RobotKit
import XCTest

final class SmokeTests: XCTestCase {
    func testLaunchQueryTap() throws {
        let app = WebApp(url: Fixture.url("elements.html"))
        let start = Date()
        app.launch()
        print("launch took", Date().timeIntervalSince(start))
        XCTAssertTrue(app.buttons["counter.button"].exists)
        app.buttons["counter.button"].tap()
        XCTAssertEqual(app.staticTexts["counter.label"].label, "Count: 1")
        print(app.debugDescription)
        let t = Date()
        app.terminate()
        print("terminate took", Date().timeIntervalSince(t))
    }
}
