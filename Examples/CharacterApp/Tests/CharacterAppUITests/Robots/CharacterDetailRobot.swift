import RobotKit
import XCTest

struct CharacterDetailRobot: RobotContract {
    let app: WebApp
}

// MARK: - Actions

extension CharacterDetailRobot {
    @discardableResult
    func tapBack(file: StaticString = #filePath, line: UInt = #line) -> Self {
        let backButton = app.navigationBars.buttons.element(boundBy: 0)
        XCTAssertTrue(backButton.waitForExistence(timeout: 5), file: file, line: line)
        backButton.tap()
        return self
    }

    @discardableResult
    func tapRetry(file: StaticString = #filePath, line: UInt = #line) -> Self {
        let button = app.buttons[AccessibilityIdentifier.retryButton]
        XCTAssertTrue(button.waitForExistence(timeout: 5), file: file, line: line)
        button.tap()
        return self
    }
}

// MARK: - Verifications

extension CharacterDetailRobot {
    @discardableResult
    func verifyIsVisible(file: StaticString = #filePath, line: UInt = #line) -> Self {
        let view = app.scrollViews[AccessibilityIdentifier.scrollView]
        XCTAssertTrue(view.waitForExistence(timeout: 5), file: file, line: line)
        return self
    }

    @discardableResult
    func verifyCharacterName(_ name: String, file: StaticString = #filePath, line: UInt = #line) -> Self {
        let label = app.staticTexts[AccessibilityIdentifier.nameLabel]
        XCTAssertTrue(label.waitForExistence(timeout: 5), file: file, line: line)
        XCTAssertEqual(label.label, name, "character name", file: file, line: line)
        return self
    }

    @discardableResult
    func verifyStatus(_ status: String, file: StaticString = #filePath, line: UInt = #line) -> Self {
        let label = app.staticTexts[AccessibilityIdentifier.statusLabel]
        XCTAssertTrue(label.waitForExistence(timeout: 5), file: file, line: line)
        XCTAssertEqual(label.label, status, "character status", file: file, line: line)
        return self
    }

    @discardableResult
    func verifyErrorIsVisible(file: StaticString = #filePath, line: UInt = #line) -> Self {
        let label = app.staticTexts[AccessibilityIdentifier.errorLabel]
        XCTAssertTrue(label.waitForExistence(timeout: 5), file: file, line: line)
        XCTAssertTrue(app.buttons[AccessibilityIdentifier.retryButton].exists, file: file, line: line)
        return self
    }
}

// MARK: - AccessibilityIdentifiers

private enum AccessibilityIdentifier {
    static let scrollView = "characterDetail.scrollView"
    static let nameLabel = "characterDetail.nameLabel"
    static let statusLabel = "characterDetail.statusLabel"
    static let errorLabel = "characterDetail.errorLabel"
    static let retryButton = "characterDetail.retryButton"
}
