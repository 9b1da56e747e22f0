import Foundation
import RobotKit
import XCTest

/// The suite's base class: RobotKit's `UITestCase` (a `MockServer` per test on the
/// worker's port, `launch()`, steps and failure artifacts) pointed at the example app.
///
/// (Not named `UITestCase` itself: a class shadowing its superclass's name makes
/// SwiftPM 6.3's test discovery on Linux crash with a segmentation fault.)
class CharacterAppUITestCase: UITestCase {
    /// `Examples/CharacterApp/app/index.html`, found from this file so the suite runs from any folder.
    static let appPage = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // Robots
        .deletingLastPathComponent()  // CharacterAppUITests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()  // CharacterApp
        .appendingPathComponent("app/index.html")

    override var appURL: URL? { Self.appPage }

    /// Launches the app straight on `route` (`/character/2`), as a deep link does.
    @discardableResult
    func launch(deepLink route: String, file: StaticString = #filePath, line: UInt = #line) -> WebApp {
        var components = URLComponents(url: Self.appPage, resolvingAgainstBaseURL: false)
        components?.fragment = route
        return launch(url: components?.url ?? Self.appPage, file: file, line: line)
    }
}

// MARK: - Robot DSL

extension UITestCase {
    func home(actions: (HomeRobot) -> Void) {
        actions(HomeRobot(app: app))
    }

    func characterList(actions: (CharacterListRobot) -> Void) {
        actions(CharacterListRobot(app: app))
    }

    func characterDetail(actions: (CharacterDetailRobot) -> Void) {
        actions(CharacterDetailRobot(app: app))
    }

    func notFound(actions: (NotFoundRobot) -> Void) {
        actions(NotFoundRobot(app: app))
    }
}

// MARK: - Accessibility

extension RobotContract {
    /// Audits the screen the robot stands for (call it once the screen shows: after
    /// `verifyIsVisible()`), as XCUITest's `performAccessibilityAudit` does: every issue fails
    /// the test at the caller's line, its element outlined on the report's screenshot.
    /// `ignoring` returns true for an issue the team has accepted.
    @discardableResult
    func verifyNoAccessibilityIssues(
        for types: XCUIAccessibilityAuditType = .all,
        ignoring accepted: @escaping (XCUIAccessibilityAuditIssue) -> Bool = { _ in false },
        file: StaticString = #filePath, line: UInt = #line
    ) -> Self {
        // The audit records the failure at `line` itself; what it throws says the same again.
        try? app.performAccessibilityAudit(for: types, accepted, file: file, line: line)
        return self
    }
}
