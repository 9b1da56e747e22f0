import Foundation
import RobotKit
import XCTest

/// The suite's base class: RobotKit's `UITestCase` (a `MockServer` per test on the worker's
/// port, `launch()`, steps and failure artifacts), with the app served by that same mock
/// server, so the page and its API share one origin, as they would in production.
///
/// (Not named `UITestCase` itself: a class shadowing its superclass's name makes
/// SwiftPM 6.3's test discovery on Linux crash with a segmentation fault.)
class ListEditorUITestCase: UITestCase {
    /// `Examples/ListEditor/app`, found from this file so the suite runs from any folder.
    static let appFolder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // Robots
        .deletingLastPathComponent()  // ListEditorUITests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()  // ListEditor
        .appendingPathComponent("app", isDirectory: true)

    /// Where the served folder appears on the mock server.
    static let appPath = "/app/"

    override var appURL: URL? { serverBaseURL.flatMap { URL(string: $0 + Self.appPath) } }

    override func setUp() async throws {
        try await super.setUp()
        // Under /app/, not /: a folder wins over a catch-all, so at / it would answer
        // GET /todos (404, no such file) before the scenarios' catch-all could. The filters
        // are hash routes, which never reach the server: no SPA fallback needed.
        try await serverMock.serveFolder(Self.appFolder, at: Self.appPath)
    }

    /// Launches the app straight on `route` (`/completed`), as a bookmarked filter does.
    @discardableResult
    func launch(route: String, file: StaticString = #filePath, line: UInt = #line) -> WebApp {
        var components = appURL.flatMap { URLComponents(url: $0, resolvingAgainstBaseURL: false) }
        components?.fragment = route
        guard let url = components?.url else {
            XCTFail("no app URL to add #\(route) to", file: file, line: line)
            return launch(file: file, line: line)
        }
        return launch(url: url, file: file, line: line)
    }
}

// MARK: - Robot DSL

extension ListEditorUITestCase {
    func listEditor(actions: (ListEditorRobot) -> Void) {
        actions(ListEditorRobot(app: app))
    }

    func footer(actions: (FooterRobot) -> Void) {
        actions(FooterRobot(app: app))
    }
}
