import Foundation
import RobotKit
import XCTest

/// Launches `elements.html` for each test; `app` is closed in `tearDown`.
class ElementsPageTestCase: XCTestCase {
    var app: WebApp!

    override func setUp() async throws {
        try await super.setUp()
        app = WebApp(url: Fixture.url("elements.html"))
        app.implicitWaitTimeout = 1
        app.launch()
        XCTAssertEqual(app.state, .runningForeground)
    }

    override func tearDown() async throws {
        app?.terminate()
        app = nil
        try await super.tearDown()
    }
}
