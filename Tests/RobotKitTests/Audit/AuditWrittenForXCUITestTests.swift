import Foundation
import RobotKit
import XCTest

/// An audit exactly as an iOS suite writes it against XCUITest (Xcode 15): the body of the test
/// compiles unchanged; the one RobotKit line is where the app is (`XCUIApplication.appURL`).
final class AuditWrittenForXCUITestTests: XCTestCase {
    private var app: XCUIApplication!

    override func setUp() {
        super.setUp()
        continueAfterFailure = false
        XCUIApplication.appURL = Fixture.url("audit-clean.html")
        app = XCUIApplication()
        app.launch()
    }

    override func tearDown() {
        app.terminate()
        XCUIApplication.appURL = nil
        super.tearDown()
    }

    func testScreenPassesTheAccessibilityAudit() throws {
        try app.performAccessibilityAudit()
        try app.performAccessibilityAudit(for: [.contrast, .hitRegion, .sufficientElementDescription])
        try app.performAccessibilityAudit(for: .all) { issue in
            // Accept what the design team signed off, as an iOS suite does.
            let accepted: XCUIAccessibilityAuditType = [.dynamicType, .textClipped]
            if accepted.contains(issue.auditType) { return true }
            print("\(issue.compactDescription) on \(issue.element?.identifier ?? "?"): \(issue.detailedDescription)")
            return false
        }
    }
}
