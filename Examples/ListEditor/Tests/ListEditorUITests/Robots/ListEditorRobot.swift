import RobotKit
import XCTest

/// The list: the new-item field, the items (check, edit, delete), toggle all, the error banner.
struct ListEditorRobot: RobotContract {
    let app: WebApp
}

// MARK: - Actions

extension ListEditorRobot {
    /// Types `title` into the new-item field and presses Enter.
    @discardableResult
    func addItem(_ title: String, file: StaticString = #filePath, line: UInt = #line) -> Self {
        typeNewItem(title, file: file, line: line)
        return pressEnterInNewItem(file: file, line: line)
    }

    @discardableResult
    func typeNewItem(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> Self {
        let field = app.textFields[AccessibilityIdentifier.newItemField]
        XCTAssertTrue(field.waitForExistence(timeout: 5), file: file, line: line)
        field.tap()
        field.typeText(text)
        return self
    }

    @discardableResult
    func pressEnterInNewItem(file: StaticString = #filePath, line: UInt = #line) -> Self {
        app.textFields[AccessibilityIdentifier.newItemField].typeKey(.enter, modifierFlags: [])
        return self
    }

    /// Double taps the item's title, which turns it into an edit field.
    @discardableResult
    func doubleTapItem(id: Int, file: StaticString = #filePath, line: UInt = #line) -> Self {
        let title = app.staticTexts[AccessibilityIdentifier.title(id: id)]
        XCTAssertTrue(title.waitForExistence(timeout: 5), "no item \(id)", file: file, line: line)
        title.doubleTap()
        return self
    }

    /// Replaces the text of the item's edit field (open it with `doubleTapItem` first).
    @discardableResult
    func replaceEditText(id: Int, with text: String, file: StaticString = #filePath, line: UInt = #line) -> Self {
        let field = app.textFields[AccessibilityIdentifier.editField(id: id)]
        XCTAssertTrue(field.waitForExistence(timeout: 5), "item \(id) is not being edited", file: file, line: line)
        field.clearText()
        if !text.isEmpty { field.typeText(text) }
        return self
    }

    /// Types `text` at the end of the item's edit field.
    @discardableResult
    func appendEditText(id: Int, _ text: String, file: StaticString = #filePath, line: UInt = #line) -> Self {
        let field = app.textFields[AccessibilityIdentifier.editField(id: id)]
        XCTAssertTrue(field.waitForExistence(timeout: 5), "item \(id) is not being edited", file: file, line: line)
        field.typeText(text)
        return self
    }

    /// Presses `key` (`.enter` saves, `.escape` cancels) in the item's edit field.
    @discardableResult
    func pressKeyInEditField(id: Int, _ key: XCUIKeyboardKey, file: StaticString = #filePath, line: UInt = #line)
        -> Self
    {
        let field = app.textFields[AccessibilityIdentifier.editField(id: id)]
        XCTAssertTrue(field.waitForExistence(timeout: 5), "item \(id) is not being edited", file: file, line: line)
        field.typeKey(key, modifierFlags: [])
        return self
    }

    @discardableResult
    func toggleItem(id: Int, file: StaticString = #filePath, line: UInt = #line) -> Self {
        let checkbox = app.switches[AccessibilityIdentifier.toggle(id: id)]
        XCTAssertTrue(checkbox.waitForExistence(timeout: 5), "no item \(id)", file: file, line: line)
        checkbox.tap()
        return self
    }

    /// Taps the item's delete button, which shows when the pointer is over its row.
    @discardableResult
    func deleteItem(id: Int, file: StaticString = #filePath, line: UInt = #line) -> Self {
        let button = app.buttons[AccessibilityIdentifier.delete(id: id)]
        XCTAssertTrue(button.waitForExistence(timeout: 5), "no item \(id)", file: file, line: line)
        button.tap()
        return self
    }

    @discardableResult
    func tapToggleAll(file: StaticString = #filePath, line: UInt = #line) -> Self {
        let checkbox = app.switches[AccessibilityIdentifier.toggleAll]
        XCTAssertTrue(checkbox.waitForExistence(timeout: 5), file: file, line: line)
        checkbox.tap()
        return self
    }

    @discardableResult
    func tapRetry(file: StaticString = #filePath, line: UInt = #line) -> Self {
        let button = app.buttons[AccessibilityIdentifier.retryButton]
        XCTAssertTrue(button.waitForExistence(timeout: 5), file: file, line: line)
        button.tap()
        return self
    }

    /// Reloads the page, as the browser's reload button does.
    @discardableResult
    func reload(file: StaticString = #filePath, line: UInt = #line) -> Self {
        app.reload()
        return self
    }
}

// MARK: - Verifications

extension ListEditorRobot {
    /// The list has loaded: the loading line is gone and no error shows.
    @discardableResult
    func verifyIsLoaded(file: StaticString = #filePath, line: UInt = #line) -> Self {
        XCTAssertTrue(app.staticTexts[AccessibilityIdentifier.loading].waitForNonExistence(timeout: 5), file: file, line: line)
        XCTAssertFalse(app.staticTexts[AccessibilityIdentifier.error].exists, "an error shows", file: file, line: line)
        return self
    }

    @discardableResult
    func verifyItem(id: Int, title: String, file: StaticString = #filePath, line: UInt = #line) -> Self {
        let label = app.staticTexts[AccessibilityIdentifier.title(id: id)]
        XCTAssertTrue(label.waitForExistence(timeout: 5), "no item \(id)", file: file, line: line)
        // The wait's trace step records what it last saw: the message reads nothing more.
        XCTAssertTrue(label.wait(for: \.label, toEqual: title, timeout: 5),
                      "item \(id) is not \"\(title)\"", file: file, line: line)
        return self
    }

    @discardableResult
    func verifyItemIsAbsent(id: Int, file: StaticString = #filePath, line: UInt = #line) -> Self {
        let row = app.cells[AccessibilityIdentifier.item(id: id)]
        XCTAssertTrue(row.waitForNonExistence(timeout: 5), "item \(id) is still listed", file: file, line: line)
        return self
    }

    /// The list shows exactly `count` items (under the current filter).
    @discardableResult
    func verifyItemCount(_ count: Int, file: StaticString = #filePath, line: UInt = #line) -> Self {
        let rows = app.otherElements[AccessibilityIdentifier.list].cells
        XCTAssertTrue(rows.wait(for: \.count, toEqual: count, timeout: 5),
                      "the list does not show \(count) items", file: file, line: line)
        return self
    }

    /// No list at all: TodoMVC hides the list, toggle all and the footer when nothing is in it.
    @discardableResult
    func verifyListIsEmpty(file: StaticString = #filePath, line: UInt = #line) -> Self {
        XCTAssertTrue(app.otherElements[AccessibilityIdentifier.list].waitForNonExistence(timeout: 5), file: file, line: line)
        XCTAssertFalse(app.switches[AccessibilityIdentifier.toggleAll].exists, file: file, line: line)
        return self
    }

    @discardableResult
    func verifyItemIsCompleted(id: Int, _ completed: Bool, file: StaticString = #filePath, line: UInt = #line) -> Self {
        let checkbox = app.switches[AccessibilityIdentifier.toggle(id: id)]
        XCTAssertTrue(checkbox.waitForExistence(timeout: 5), "no item \(id)", file: file, line: line)
        XCTAssertTrue(checkbox.wait(for: \.isSelected, toEqual: completed, timeout: 5),
                      "item \(id) is \(completed ? "open" : "done")", file: file, line: line)
        return self
    }

    @discardableResult
    func verifyToggleAllIsChecked(_ checked: Bool, file: StaticString = #filePath, line: UInt = #line) -> Self {
        let checkbox = app.switches[AccessibilityIdentifier.toggleAll]
        XCTAssertTrue(checkbox.waitForExistence(timeout: 5), file: file, line: line)
        XCTAssertTrue(checkbox.wait(for: \.isSelected, toEqual: checked, timeout: 5), file: file, line: line)
        return self
    }

    /// The item is being edited: its edit field shows `text` and has the keyboard focus.
    @discardableResult
    func verifyEditField(id: Int, shows text: String, file: StaticString = #filePath, line: UInt = #line) -> Self {
        let field = app.textFields[AccessibilityIdentifier.editField(id: id)]
        XCTAssertTrue(field.waitForExistence(timeout: 5), "item \(id) is not being edited", file: file, line: line)
        XCTAssertEqual(field.value as? String, text, file: file, line: line)
        XCTAssertTrue(field.hasFocus, "the edit field of item \(id) has no focus", file: file, line: line)
        return self
    }

    @discardableResult
    func verifyIsNotEditing(id: Int, file: StaticString = #filePath, line: UInt = #line) -> Self {
        let field = app.textFields[AccessibilityIdentifier.editField(id: id)]
        XCTAssertTrue(field.waitForNonExistence(timeout: 5), "item \(id) is still being edited", file: file, line: line)
        return self
    }

    @discardableResult
    func verifyNewItemField(shows text: String, file: StaticString = #filePath, line: UInt = #line) -> Self {
        let field = app.textFields[AccessibilityIdentifier.newItemField]
        XCTAssertTrue(field.waitForExistence(timeout: 5), file: file, line: line)
        XCTAssertEqual(field.value as? String, text, file: file, line: line)
        return self
    }

    @discardableResult
    func verifyError(_ message: String, canRetry: Bool, file: StaticString = #filePath, line: UInt = #line) -> Self {
        let text = app.staticTexts[AccessibilityIdentifier.errorText]
        XCTAssertTrue(text.waitForExistence(timeout: 5), "no error shows", file: file, line: line)
        XCTAssertTrue(text.wait(for: \.label, toEqual: message, timeout: 5),
                      "the error does not say \"\(message)\"", file: file, line: line)
        XCTAssertEqual(app.buttons[AccessibilityIdentifier.retryButton].exists, canRetry, "Retry", file: file, line: line)
        return self
    }

    @discardableResult
    func verifyNoError(file: StaticString = #filePath, line: UInt = #line) -> Self {
        let banner = app.staticTexts[AccessibilityIdentifier.error]
        XCTAssertTrue(banner.waitForNonExistence(timeout: 5), "an error still shows", file: file, line: line)
        return self
    }
}

// MARK: - AccessibilityIdentifiers

private enum AccessibilityIdentifier {
    static let newItemField = "listEditor.newItemField"
    static let list = "listEditor.list"
    static let toggleAll = "listEditor.toggleAll"
    static let loading = "listEditor.loading"
    static let error = "listEditor.error"
    static let errorText = "listEditor.errorText"
    static let retryButton = "listEditor.retryButton"

    static func item(id: Int) -> String {
        "listEditor.item.\(id)"
    }

    static func title(id: Int) -> String {
        "\(item(id: id)).title"
    }

    static func toggle(id: Int) -> String {
        "\(item(id: id)).toggle"
    }

    static func editField(id: Int) -> String {
        "\(item(id: id)).editField"
    }

    static func delete(id: Int) -> String {
        "\(item(id: id)).delete"
    }
}
