import RobotKit
import XCTest

struct CharacterListRobot: RobotContract {
    let app: WebApp
}

// MARK: - Actions

extension CharacterListRobot {
    @discardableResult
    func tapCharacter(id: Int, file: StaticString = #filePath, line: UInt = #line) -> Self {
        let row = app.descendants(matching: .any)[AccessibilityIdentifier.row(id: id)].firstMatch
        XCTAssertTrue(row.waitForExistence(timeout: 10), file: file, line: line)
        row.tap()
        return self
    }

    @discardableResult
    func tapBack(file: StaticString = #filePath, line: UInt = #line) -> Self {
        let backButton = app.navigationBars.buttons.element(boundBy: 0)
        XCTAssertTrue(backButton.waitForExistence(timeout: 5), file: file, line: line)
        backButton.tap()
        return self
    }

    @discardableResult
    func tapRetry(file: StaticString = #filePath, line: UInt = #line) -> Self {
        let retry = app.buttons[AccessibilityIdentifier.retry]
        XCTAssertTrue(retry.waitForExistence(timeout: 5), file: file, line: line)
        retry.tap()
        return self
    }
}

// MARK: - Verifications

extension CharacterListRobot {
    @discardableResult
    func verifyIsVisible(file: StaticString = #filePath, line: UInt = #line) -> Self {
        let scrollView = app.scrollViews[AccessibilityIdentifier.scrollView]
        XCTAssertTrue(scrollView.waitForExistence(timeout: 5), file: file, line: line)
        return self
    }

    @discardableResult
    func verifyCharacterExists(id: Int, name: String, file: StaticString = #filePath, line: UInt = #line) -> Self {
        let title = app.staticTexts[AccessibilityIdentifier.rowTitle(id: id)]
        XCTAssertTrue(title.waitForExistence(timeout: 5), file: file, line: line)
        XCTAssertEqual(title.label, name, file: file, line: line)
        return self
    }

    @discardableResult
    func verifyErrorIsVisible(file: StaticString = #filePath, line: UInt = #line) -> Self {
        let error = app.staticTexts[AccessibilityIdentifier.error]
        XCTAssertTrue(error.waitForExistence(timeout: 5), file: file, line: line)
        return self
    }
}

// MARK: - AccessibilityIdentifiers

private enum AccessibilityIdentifier {
    static let scrollView = "characterList.scrollView"
    static let error = "characterList.error"
    static let retry = "characterList.retry"

    static func row(id: Int) -> String { "characterList.row.\(id)" }
    static func rowTitle(id: Int) -> String { "characterList.row.\(id).title" }
}
