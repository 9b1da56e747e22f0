import Foundation
import RobotKit
import XCTest

/// Predicate queries in a real page, written as XCUITest suites write them: this file imports
/// Foundation, XCTest and RobotKit (not `@testable`), so `NSPredicate(format:)` here is the
/// one a test author gets, RobotKit's, over corelibs' unavailable one.
final class PredicateQueryTests: ElementsPageTestCase {
    private var failures: [String] = []
    private var capturesFailures = false

    override func recordFailure(withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool) {
        guard capturesFailures else {
            return super.recordFailure(withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
        }
        failures.append(description)
    }

    func testMatchingAndContainingWithNSPredicateFormats() {
        let total = app.staticTexts.matching(NSPredicate(format: "label BEGINSWITH %@", "Count"))
        XCTAssertEqual(total.element.identifier, "counter.label")
        XCTAssertEqual(app.cells.matching(NSPredicate(format: "identifier BEGINSWITH 'row.' AND NOT identifier ENDSWITH '1'")).count, 5)
        XCTAssertEqual(app.cells.containing(NSPredicate(format: "identifier LIKE 'row.*.delete'")).count, 3)
        XCTAssertEqual(app.cells.containing(.button, identifier: nil).containing(NSPredicate(format: "identifier == 'row.2.delete'")).count, 1)
        XCTAssertEqual(app.switches.matching(NSPredicate(format: "value == true")).element.identifier, "form.wifi")
        XCTAssertEqual(app.buttons.element(matching: NSPredicate(format: "label ==[c] %@", "increment")).identifier, "counter.button")
        let rows = app.descendants(matching: .any).matching(NSPredicate(format: "elementType == 'cell' AND identifier MATCHES 'row\\\\.[4-6]'"))
        XCTAssertEqual(rows.count, 3)
    }

    func testSwiftSpelling() {
        XCTAssertEqual(app.textFields.matching(.placeholderValue(.beginsWith("Your"))).element.identifier, "form.name")
        XCTAssertEqual(app.cells.matching(.identifier(.like("row.?")) && !.identifier(.equals("row.6"))).count, 5)
        let view = app.otherElements.matching(.identifier(.equals("elements.view")))
        XCTAssertEqual(view.containing(.label(.equals("Star")) || .label(.equals("Nothing"))).count, 1)
        XCTAssertEqual(view.containing(.label(.equals("Nothing"))).count, 0)
    }

    func testARefusedFormatFailsWhereTheQueryIsUsedNamingThePart() {
        capturesFailures = true
        let count = app.staticTexts.matching(NSPredicate(format: "label < 3")).count
        capturesFailures = false
        XCTAssertEqual(count, 0)
        XCTAssertEqual(failures.count, 1, "\(failures)")
        XCTAssertTrue(failures.first?.contains("unsupported operator '<' at column 7 of \"label < 3\"") == true, "\(failures)")
    }
}
