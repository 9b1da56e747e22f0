import Foundation
@testable import RobotKit
import XCTest

final class QueryTests: ElementsPageTestCase {
    func testEveryElementTypeQueryFindsItsElements() {
        XCTAssertTrue(app.buttons["counter.button"].exists)
        XCTAssertTrue(app.buttons["Send"].exists, "input[type=submit] by its value")
        XCTAssertTrue(app.buttons["Custom action"].exists, "role=button by aria-label")
        XCTAssertTrue(app.staticTexts["intro"].exists)
        XCTAssertTrue(app.staticTexts["Welcome to the fixture"].exists)
        XCTAssertTrue(app.textFields["form.name"].exists)
        XCTAssertTrue(app.textFields["Email"].exists, "wrapped <label> names the field")
        XCTAssertTrue(app.secureTextFields["form.password"].exists)
        XCTAssertTrue(app.textViews["form.notes"].exists)
        XCTAssertTrue(app.scrollViews["list.scroll"].exists)
        XCTAssertTrue(app.otherElements["elements.view"].exists)
        XCTAssertTrue(app.cells["row.1"].exists)
        XCTAssertTrue(app.images["Logo"].exists)
        XCTAssertTrue(app.images["Star"].exists, "svg named by <title>")
        XCTAssertTrue(app.switches["form.terms"].exists)
        XCTAssertTrue(app.switches["Wi-Fi"].exists, "role=switch")
        XCTAssertTrue(app.links["Next page"].exists)
        XCTAssertTrue(app.navigationBars["Elements"].exists, "a navigation bar is named by its heading")
        XCTAssertTrue(app.radioButtons["Large"].exists)
        XCTAssertTrue(app.sliders["Volume"].exists)
        XCTAssertTrue(app.pickers["form.color"].exists)
        XCTAssertFalse(app.buttons["intro"].exists, "an identifier only matches within the queried type")
    }

    func testIdentifierPrefersTestIDThenIDThenName() {
        XCTAssertEqual(app.buttons["priority"].label, "By testid", "data-testid beats id")
        XCTAssertEqual(app.buttons["other.testid"].label, "By id")
        XCTAssertEqual(app.buttons["disabled.button"].label, "Disabled", "id when no data-testid matches")
        XCTAssertEqual(app.buttons["Increment"].identifier, "counter.button", "accessible name last")
    }

    func testCountIndexFirstMatchAndAllElements() {
        XCTAssertEqual(app.cells.count, 6)
        XCTAssertEqual(app.cells.element(boundBy: 2).identifier, "row.3")
        XCTAssertFalse(app.cells.element(boundBy: 6).exists)
        XCTAssertEqual(app.buttons.matching(identifier: "dup").count, 2)
        XCTAssertEqual(app.buttons["dup"].firstMatch.label, "Dup")
        XCTAssertEqual(app.cells.firstMatch.identifier, "row.1")
        XCTAssertEqual(app.cells.allElementsBoundByIndex.map(\.identifier), (1...6).map { "row.\($0)" })
    }

    func testScopedQueries() {
        XCTAssertEqual(app.navigationBars.buttons.element(boundBy: 0).identifier, "nav.back")
        XCTAssertEqual(app.scrollViews["list.scroll"].buttons.count, 3)
        XCTAssertEqual(app.cells["row.2"].buttons.element.identifier, "row.2.delete")
        XCTAssertEqual(app.cells.containing(.button, identifier: nil).count, 3)
        XCTAssertEqual(app.descendants(matching: .any)["row.4"].elementType, .cell)
        XCTAssertEqual(app.otherElements["elements.view"].children(matching: .scrollView).count, 2)
        XCTAssertEqual(app.scrollViews["list.scroll"].children(matching: .cell).count, 6)
        XCTAssertEqual(app.descendants(matching: .any).matching(.button, identifier: "send").count, 1)
        XCTAssertEqual(app.find(id: "row.5")?.elementType, .cell)
        XCTAssertNil(app.find(id: "nope"))
        XCTAssertNotNil(app.otherElements["elements.view"].find(id: "logo"))
    }

    func testHiddenElementsDoNotExist() {
        XCTAssertFalse(app.buttons["Hidden"].exists, "inside display:none")
        XCTAssertFalse(app.buttons["hidden.aria"].exists, "inside aria-hidden")
        XCTAssertFalse(app.buttons["hidden.attr"].exists, "hidden attribute")
        XCTAssertFalse(app.staticTexts["Delete"].exists, "text inside a button is part of the button")
    }

    func testElementAttributes() {
        let name = app.textFields["form.name"]
        XCTAssertEqual(name.label, "Name")
        XCTAssertEqual(name.placeholderValue, "Your name")
        XCTAssertEqual(name.value as? String, "")
        XCTAssertEqual(app.textFields["email"].value as? String, "a@b.c")
        XCTAssertEqual(app.secureTextFields["form.password"].value as? String, "••••••")
        XCTAssertEqual(app.switches["form.terms"].value as? String, "0")
        XCTAssertEqual(app.switches["form.wifi"].value as? String, "1")
        XCTAssertTrue(app.switches["form.wifi"].isSelected)
        XCTAssertEqual(app.radioButtons["Small"].value as? String, "1")
        XCTAssertEqual(app.sliders["form.volume"].value as? String, "40")
        XCTAssertEqual(app.pickers["form.color"].value as? String, "Green")
        XCTAssertFalse(app.buttons["disabled.button"].isEnabled)
        XCTAssertTrue(app.buttons["counter.button"].isEnabled)
        XCTAssertEqual(app.buttons["counter.button"].elementType, .button)
        let frame = app.buttons["counter.button"].frame
        XCTAssertGreaterThan(frame.width, 10)
        XCTAssertGreaterThan(frame.height, 10)
        XCTAssertTrue(app.buttons["counter.button"].isHittable)
        XCTAssertFalse(app.buttons["covered"].isHittable, "covered by another element")
        XCTAssertTrue(app.buttons["covered"].exists)
        XCTAssertEqual(app.title, "Elements")
    }

    func testDebugDescriptionIsTheAccessibilityTree() {
        let tree = app.accessibilityTree
        XCTAssertEqual(app!.debugDescription, tree)
        XCTAssertTrue(tree.hasPrefix("Application, url: 'file://"), tree)
        XCTAssertTrue(tree.contains("\n    Button, {{"), tree)
        XCTAssertTrue(tree.contains("identifier: 'counter.button', label: 'Increment'"), tree)
        XCTAssertTrue(tree.contains("SecureTextField"), tree)
        XCTAssertTrue(tree.contains("Switch, "), tree)
        XCTAssertFalse(tree.contains("Aria hidden"), tree)
        let rowTree = app.cells["row.1"].debugDescription
        XCTAssertTrue(rowTree.hasPrefix("Cell, "), rowTree)
        XCTAssertTrue(rowTree.contains("  Button, "), rowTree)
        XCTAssertEqual(app.buttons["counter.button"].debugDescription.split(separator: "\n").count, 1)
    }

    func testQueryDescriptions() {
        XCTAssertEqual(app.navigationBars.buttons.debugDescription, "Buttons in NavigationBars")
        XCTAssertEqual(describe(app.cells.element(boundBy: 1).chain), "Cell at index 1")
        XCTAssertEqual(describe(app.buttons["save"].chain), "Button \"save\"")
    }

    func testAmbiguousAndMissingElementsAreReportedByTheEngine() throws {
        let engine = try Engine(page: app.requirePage())
        XCTAssertThrowsError(try engine.point(app.buttons["dup"].chain, timeout: 0.1)) { error in
            XCTAssertTrue("\(error)".contains("multiple matching elements"), "\(error)")
        }
        XCTAssertThrowsError(try engine.point(app.buttons["missing"].chain, timeout: 0.1)) { error in
            XCTAssertTrue("\(error)".contains("no matches found for Button \"missing\""), "\(error)")
        }
    }

    /// A dialog the page opens while a query waits is dismissed at once, and the query fails
    /// with `unexpected alert open` (WebDriver's "dismiss and notify"); the next query works.
    func testADialogDuringAWaitFailsThatQueryAndIsDismissed() throws {
        let engine = try Engine(page: app.requirePage())
        _ = try app.evaluate("setTimeout(() => alert('from the page'), 200)")
        XCTAssertThrowsError(try engine.wait(app.buttons["never"].chain, appear: true, timeout: 5, op: .count)) { error in
            XCTAssertEqual((error as? RobotKitError)?.webDriverCode, "unexpected alert open", "\(error)")
        }
        XCTAssertTrue(app.buttons["counter.button"].exists, "the dialog is gone")
    }
}
