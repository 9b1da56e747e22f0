import RobotKit
import XCTest

struct CharacterListRobot: RobotContract {
    let app: XCUIApplication
}

// MARK: - Actions

extension CharacterListRobot {
    @discardableResult
    func tapCharacter(id: Int, file: StaticString = #filePath, line: UInt = #line) -> Self {
        let identifier = AccessibilityIdentifier.row(id: id)
        let row = app.descendants(matching: .any)[identifier].firstMatch
        XCTAssertTrue(row.waitForExistence(timeout: 10), file: file, line: line)
        row.tap()
        return self
    }

    @discardableResult
    func tapCharacter(identifier id: Int, file: StaticString = #filePath, line: UInt = #line) -> Self {
        tapCharacter(id: id, file: file, line: line)
    }

    @discardableResult
    func tapCell(id: Int, file: StaticString = #filePath, line: UInt = #line) -> Self {
        let cell = app.cells[AccessibilityIdentifier.row(id: id)]
        XCTAssertTrue(cell.waitForExistence(timeout: 10), file: file, line: line)
        cell.tap()
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
        let button = app.buttons[AccessibilityIdentifier.retryButton]
        XCTAssertTrue(button.waitForExistence(timeout: 5), file: file, line: line)
        button.tap()
        return self
    }

    @discardableResult
    func search(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> Self {
        let textField = app.textFields[AccessibilityIdentifier.searchField]
        XCTAssertTrue(textField.waitForExistence(timeout: 5), file: file, line: line)
        textField.tap()
        textField.typeText(text)
        return self
    }

    @discardableResult
    func swipeThroughList(file: StaticString = #filePath, line: UInt = #line) -> Self {
        app.swipeUp()
        app.swipeDown()
        return self
    }

    @discardableResult
    func pullToRefresh(file: StaticString = #filePath, line: UInt = #line) -> Self {
        let firstCell = app.cells.element(boundBy: 0)
        XCTAssertTrue(firstCell.waitForExistence(timeout: 10), file: file, line: line)
        let start = firstCell.coordinate(withNormalizedOffset: CGVector(dx: 0.5, dy: 0.5))
        let end = firstCell.coordinate(withNormalizedOffset: CGVector(dx: 0.5, dy: 5))
        start.press(forDuration: 0, thenDragTo: end)
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
    func verifyErrorIsVisible(file: StaticString = #filePath, line: UInt = #line) -> Self {
        let label = app.staticTexts[AccessibilityIdentifier.errorLabel]
        XCTAssertTrue(label.waitForExistence(timeout: 5), file: file, line: line)
        return self
    }

    @discardableResult
    func verifyCharacterExists(identifier id: Int, file: StaticString = #filePath, line: UInt = #line) -> Self {
        let row = app.descendants(matching: .any)[AccessibilityIdentifier.row(id: id)].firstMatch
        XCTAssertTrue(row.waitForExistence(timeout: 10), file: file, line: line)
        return self
    }

    @discardableResult
    func verifyEmptyStateIsVisible(file: StaticString = #filePath, line: UInt = #line) -> Self {
        let element = app.descendants(matching: .any)[AccessibilityIdentifier.emptyState].firstMatch
        XCTAssertTrue(element.waitForExistence(timeout: 10))
        return self
    }
}

// MARK: - AccessibilityIdentifiers

private enum AccessibilityIdentifier {
    static let scrollView = "characterList.scrollView"
    static let searchField = "characterList.searchField"
    static let emptyState = "characterList.emptyState"
    static let errorLabel = "characterList.errorLabel"
    static let retryButton = "characterList.retryButton"

    static func row(id: Int) -> String {
        "characterList.row.\(id)"
    }
}
