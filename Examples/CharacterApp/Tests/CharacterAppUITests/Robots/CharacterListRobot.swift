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
        let button = app.buttons[AccessibilityIdentifier.retryButton]
        XCTAssertTrue(button.waitForExistence(timeout: 5), file: file, line: line)
        button.tap()
        return self
    }

    @discardableResult
    func scrollDown(file: StaticString = #filePath, line: UInt = #line) -> Self {
        let scrollView = app.scrollViews[AccessibilityIdentifier.scrollView]
        XCTAssertTrue(scrollView.waitForExistence(timeout: 5), file: file, line: line)
        scrollView.swipeUp()
        return self
    }

    @discardableResult
    func tapLoadMore(file: StaticString = #filePath, line: UInt = #line) -> Self {
        let button = app.buttons[AccessibilityIdentifier.loadMoreButton]
        XCTAssertTrue(button.waitForExistence(timeout: 5), file: file, line: line)
        button.tap()
        return self
    }

    @discardableResult
    func search(for text: String, file: StaticString = #filePath, line: UInt = #line) -> Self {
        let field = app.textFields[AccessibilityIdentifier.searchField]
        XCTAssertTrue(field.waitForExistence(timeout: 5), file: file, line: line)
        field.tap()
        field.typeText(text)
        return self
    }

    @discardableResult
    func clearSearch(file: StaticString = #filePath, line: UInt = #line) -> Self {
        let field = app.textFields[AccessibilityIdentifier.searchField]
        XCTAssertTrue(field.waitForExistence(timeout: 5), file: file, line: line)
        field.clearText()
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
        let title = app.links[AccessibilityIdentifier.rowTitle(id: id)]
        XCTAssertTrue(title.waitForExistence(timeout: 5), "no row for character \(id)", file: file, line: line)
        XCTAssertEqual(title.label, name, file: file, line: line)
        return self
    }

    /// The row shows the propagated image, title and status of its character.
    @discardableResult
    func verifyRow(id: Int, name: String, status: String, file: StaticString = #filePath, line: UInt = #line)
        -> Self
    {
        let row = app.cells[AccessibilityIdentifier.row(id: id)]
        XCTAssertTrue(row.waitForExistence(timeout: 5), "no row for character \(id)", file: file, line: line)
        XCTAssertEqual(row.images[AccessibilityIdentifier.rowImage(id: id)].label, name, file: file, line: line)
        XCTAssertEqual(row.links[AccessibilityIdentifier.rowTitle(id: id)].label, name, file: file, line: line)
        XCTAssertEqual(row.staticTexts[AccessibilityIdentifier.rowStatus(id: id)].label, status, file: file, line: line)
        return self
    }

    @discardableResult
    func verifyRowCount(_ expected: Int, file: StaticString = #filePath, line: UInt = #line) -> Self {
        let rows = app.scrollViews[AccessibilityIdentifier.scrollView].cells
        app.wait(until: { rows.count == expected }, timeout: 5)
        XCTAssertEqual(rows.count, expected, "rows in the character list", file: file, line: line)
        return self
    }

    @discardableResult
    func verifyLoadMoreIsVisible(file: StaticString = #filePath, line: UInt = #line) -> Self {
        let button = app.buttons[AccessibilityIdentifier.loadMoreButton]
        XCTAssertTrue(button.waitForExistence(timeout: 5), file: file, line: line)
        return self
    }

    @discardableResult
    func verifyLoadMoreIsHidden(file: StaticString = #filePath, line: UInt = #line) -> Self {
        let button = app.buttons[AccessibilityIdentifier.loadMoreButton]
        XCTAssertTrue(button.waitForNonExistence(timeout: 5), file: file, line: line)
        return self
    }

    @discardableResult
    func verifyEmptyStateIsVisible(file: StaticString = #filePath, line: UInt = #line) -> Self {
        let label = app.staticTexts[AccessibilityIdentifier.emptyState]
        XCTAssertTrue(label.waitForExistence(timeout: 5), file: file, line: line)
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
    static let scrollView = "characterList.scrollView"
    static let searchField = "characterList.searchField"
    static let loadMoreButton = "characterList.loadMoreButton"
    static let emptyState = "characterList.emptyState"
    static let errorLabel = "characterList.errorLabel"
    static let retryButton = "characterList.retryButton"

    static func row(id: Int) -> String {
        "characterList.row.\(id)"
    }

    static func rowImage(id: Int) -> String {
        "\(row(id: id)).image"
    }

    static func rowTitle(id: Int) -> String {
        "\(row(id: id)).title"
    }

    static func rowStatus(id: Int) -> String {
        "\(row(id: id)).status"
    }
}
