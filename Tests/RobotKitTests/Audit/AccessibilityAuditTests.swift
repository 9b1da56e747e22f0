import Foundation
import RobotKit
import XCTest

/// `performAccessibilityAudit` in Chromium, written as an XCUITest suite writes it: this file
/// imports Foundation, XCTest and RobotKit (not `@testable`), so every name it uses is one a
/// test author gets.
final class AccessibilityAuditTests: XCTestCase {
    private var app: XCUIApplication!
    private var failures: [(message: String, line: Int)] = []
    private var capturesFailures = false

    override func recordFailure(withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool) {
        guard capturesFailures else {
            return super.recordFailure(withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
        }
        failures.append((description, lineNumber))
    }

    override func tearDown() async throws {
        app?.terminate()
        app = nil
        try await super.tearDown()
    }

    private func launch(_ page: String) {
        app = XCUIApplication(url: Fixture.url(page))
        app.launch()
    }

    func testACleanPagePassesEveryAuditType() throws {
        launch("audit-clean.html")
        try app.performAccessibilityAudit()
        try app.performAccessibilityAudit(for: .all) { issue in
            XCTFail("unexpected issue: \(issue)")
            return false
        }
    }

    func testEachIssueIsOnItsElementWithItsType() throws {
        launch("audit-issues.html")
        var issues: [XCUIAccessibilityAuditIssue] = []
        try app.performAccessibilityAudit { issue in
            issues.append(issue)
            return true
        }
        let found = Set(issues.map { "\($0.auditType) \($0.element?.identifier ?? "")" })
        for expected in [
            "contrast issues.faint", "hitRegion issues.tiny", "sufficientElementDescription issues.icon",
            "textClipped issues.clipped", "trait issues.clicky", "action issues.clicky", "parentChild issues.stray",
            "dynamicType issues.fixed",
        ] {
            XCTAssertTrue(found.contains(expected), "\(expected) not in \(found.sorted())")
        }
        // The 48×48 button, the hidden, aria-hidden and disabled elements raise nothing.
        XCTAssertFalse(issues.contains { $0.element?.identifier == "issues.roomy" }, "\(found.sorted())")
        XCTAssertFalse(issues.contains { ($0.element?.label ?? "").contains("Hidden") || $0.element?.label == "Off" }, "\(found.sorted())")
        // Of the five faint texts only the two shown and enabled are judged.
        XCTAssertEqual(issues.filter { $0.auditType == .contrast }.count, 2, "\(found.sorted())")
        XCTAssertFalse(issues.contains { $0.auditType == .hitRegion && $0.element?.identifier == "issues.icon" })
        // An element without an identifier is still found: by the mark the audit left on it.
        let anonymous = try XCTUnwrap(issues.first { $0.auditType == .contrast && $0.element?.identifier == "" })
        XCTAssertEqual(anonymous.element?.label, "Faint text without an identifier")
        XCTAssertEqual(anonymous.element?.exists, true)
        // One hidden from the tree too (that is its issue): the mark still finds it.
        let unseen = try XCTUnwrap(issues.first { $0.auditType == .elementDetection })
        XCTAssertEqual(unseen.element?.identifier, "issues.unseen")
        XCTAssertEqual(unseen.element?.exists, true)
        let faint = try XCTUnwrap(issues.first { $0.element?.identifier == "issues.faint" })
        XCTAssertEqual(faint.compactDescription, "Contrast failed")
        XCTAssertTrue(faint.detailedDescription.contains("#aaaaaa on #ffffff: 2.32:1, below the 4.5:1"), faint.detailedDescription)
    }

    func testIssuesLeftFailTheTestAtTheCallersLineAndThrow() {
        launch("audit-issues.html")
        capturesFailures = true
        var thrown: Error?
        let line = #line + 1
        do { try app.performAccessibilityAudit(for: [.hitRegion, .contrast]) } catch { thrown = error }
        capturesFailures = false
        let error = thrown as? AccessibilityAuditError
        XCTAssertEqual(error?.issues.map(\.auditType).contains(.hitRegion), true, "\(String(describing: thrown))")
        XCTAssertEqual(failures.count, 1, "\(failures)")
        XCTAssertEqual(failures.first?.line, line)
        XCTAssertTrue(failures.first?.message.contains("Hit region is too small: Button \"issues.tiny\"") == true, "\(failures)")
        XCTAssertTrue(failures.first?.message.contains("Contrast failed: StaticText \"issues.faint\"") == true, "\(failures)")
    }

    func testAHandlerReturningTrueForAllLetsTheTestPass() throws {
        launch("audit-issues.html")
        var count = 0
        try app.performAccessibilityAudit { _ in
            count += 1
            return true
        }
        XCTAssertGreaterThan(count, 8)
    }

    func testAuditTypesNarrowTheAudit() throws {
        launch("audit-issues.html")
        var issues: [XCUIAccessibilityAuditIssue] = []
        try app.performAccessibilityAudit(for: [.hitRegion]) { issue in
            issues.append(issue)
            return true
        }
        XCTAssertEqual(issues.map(\.auditType), [.hitRegion], "\(issues)")
        XCTAssertEqual(issues.first?.element?.identifier, "issues.tiny")
        // Only the tiny button: the 48×48 ones are large enough.
        try app.performAccessibilityAudit(for: .textClipped) { issue in
            XCTAssertEqual(issue.auditType, .textClipped)
            return issue.element?.identifier == "issues.clipped"
        }
    }
}
