import Foundation
import RobotKit
import XCTest

/// The footer: the "N items left" counter, the All / Active / Completed filters (hash routes,
/// so the browser's Back and Forward move between them) and "Clear completed".
///
/// None of these has an identifier, as in many apps: the counter and the button are found by
/// predicate, the filters by their accessible name, the way XCUITest users find them.
struct FooterRobot: RobotContract {
    let app: WebApp

    enum Filter: String {
        case all = "All"
        case active = "Active"
        case completed = "Completed"
    }
}

// MARK: - Actions

extension FooterRobot {
    @discardableResult
    func tapFilter(_ filter: Filter, file: StaticString = #filePath, line: UInt = #line) -> Self {
        let link = app.links[filter.rawValue]
        XCTAssertTrue(link.waitForExistence(timeout: 5), "no \(filter.rawValue) filter", file: file, line: line)
        link.tap()
        return self
    }

    @discardableResult
    func tapClearCompleted(file: StaticString = #filePath, line: UInt = #line) -> Self {
        let button = clearCompletedButton
        XCTAssertTrue(button.waitForExistence(timeout: 5), "no Clear completed button", file: file, line: line)
        button.tap()
        return self
    }

    /// The browser's Back button.
    @discardableResult
    func goBack(file: StaticString = #filePath, line: UInt = #line) -> Self {
        app.goBack()
        return self
    }

    /// The browser's Forward button.
    @discardableResult
    func goForward(file: StaticString = #filePath, line: UInt = #line) -> Self {
        app.goForward()
        return self
    }
}

// MARK: - Verifications

extension FooterRobot {
    /// The counter reads `text` ("2 items left", "1 item left").
    @discardableResult
    func verifyCounter(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> Self {
        let counter = self.counter
        XCTAssertTrue(counter.waitForExistence(timeout: 5), "no \"… left\" counter", file: file, line: line)
        // No read of the label in the message: the wait's trace step records what it last saw,
        // and a read after it would become the failing step instead of the wait.
        XCTAssertTrue(counter.wait(for: \.label, toEqual: text, timeout: 5),
                      "the counter does not read \"\(text)\"", file: file, line: line)
        return self
    }

    /// No footer: an empty list shows none.
    @discardableResult
    func verifyIsHidden(file: StaticString = #filePath, line: UInt = #line) -> Self {
        XCTAssertTrue(counter.waitForNonExistence(timeout: 5), "the counter shows", file: file, line: line)
        XCTAssertFalse(app.links[Filter.all.rawValue].exists, "the filters show", file: file, line: line)
        return self
    }

    /// `filter` is the selected one (`aria-current="page"`), and only it.
    @discardableResult
    func verifySelectedFilter(_ filter: Filter, file: StaticString = #filePath, line: UInt = #line) -> Self {
        let link = app.links[filter.rawValue]
        XCTAssertTrue(link.waitForExistence(timeout: 5), "no \(filter.rawValue) filter", file: file, line: line)
        XCTAssertTrue(link.wait(for: \.isSelected, toEqual: true, timeout: 5),
                      "\(filter.rawValue) is not the selected filter", file: file, line: line)
        for other in [Filter.all, .active, .completed] where other != filter {
            XCTAssertFalse(app.links[other.rawValue].isSelected, "\(other.rawValue) is selected too", file: file, line: line)
        }
        return self
    }

    @discardableResult
    func verifyClearCompletedIsVisible(file: StaticString = #filePath, line: UInt = #line) -> Self {
        XCTAssertTrue(clearCompletedButton.waitForExistence(timeout: 5), "no Clear completed button", file: file, line: line)
        return self
    }

    @discardableResult
    func verifyClearCompletedIsHidden(file: StaticString = #filePath, line: UInt = #line) -> Self {
        XCTAssertTrue(clearCompletedButton.waitForNonExistence(timeout: 5), "Clear completed shows", file: file, line: line)
        return self
    }
}

// MARK: - Elements without identifiers

extension FooterRobot {
    /// The only text ending in "left": the counter.
    private var counter: WebElement {
        app.staticTexts.matching(NSPredicate(format: "label ENDSWITH %@", "left")).firstMatch
    }

    private var clearCompletedButton: WebElement {
        app.buttons.matching(NSPredicate(format: "label BEGINSWITH[c] %@", "clear")).firstMatch
    }
}
