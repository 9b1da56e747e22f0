import RobotKit
import XCTest

struct NotFoundRobot: RobotContract {
    let app: WebApp
}

// MARK: - Actions

extension NotFoundRobot {
    @discardableResult
    func tapHomeButton(file: StaticString = #filePath, line: UInt = #line) -> Self {
        let button = app.buttons[AccessibilityIdentifier.homeButton]
        XCTAssertTrue(button.waitForExistence(timeout: 5), file: file, line: line)
        button.tap()
        return self
    }
}

// MARK: - Verifications

extension NotFoundRobot {
    @discardableResult
    func verifyIsVisible(file: StaticString = #filePath, line: UInt = #line) -> Self {
        let view = app.otherElements[AccessibilityIdentifier.view]
        XCTAssertTrue(view.waitForExistence(timeout: 5), file: file, line: line)
        return self
    }

    /// The message names the route that led nowhere.
    @discardableResult
    func verifyMessageMentions(_ route: String, file: StaticString = #filePath, line: UInt = #line) -> Self {
        let message = app.staticTexts[AccessibilityIdentifier.messageLabel]
        XCTAssertTrue(message.waitForExistence(timeout: 5), file: file, line: line)
        XCTAssertTrue(message.label.contains(route), "\"\(message.label)\" does not mention \(route)", file: file, line: line)
        return self
    }
}

// MARK: - AccessibilityIdentifiers

private enum AccessibilityIdentifier {
    static let view = "notFound.view"
    static let messageLabel = "notFound.messageLabel"
    static let homeButton = "notFound.homeButton"
}
