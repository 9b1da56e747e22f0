import Foundation
@testable import RobotKit
import XCTest

/// What a failed audit leaves for the report: when its failure is recorded, the app holds the
/// issues and the outlined screenshot, which the failure's evidence writes beside the others;
/// the outlines are gone from the page afterwards.
final class AuditEvidenceTests: XCTestCase {
    private var app: WebApp!
    private var directory: URL!
    private var problems: [String]?

    override func setUp() async throws {
        try await super.setUp()
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("robotkit-audit-\(UUID())")
        app = WebApp(url: Fixture.url("audit-issues.html"))
        app.launch()
    }

    override func tearDown() async throws {
        app?.terminate()
        app = nil
        try? FileManager.default.removeItem(at: directory)
        try await super.tearDown()
    }

    /// Writes the evidence as the first failure's capture does, instead of failing the test.
    override func recordFailure(withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool) {
        guard problems == nil, let app, app.auditEvidence != nil else {
            return super.recordFailure(withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
        }
        problems = FailureArtifacts.writeEvidence(of: app, suffix: "", to: directory)
    }

    func testAFailedAuditWritesItsIssuesAndAnOutlinedScreenshot() throws {
        XCTAssertThrowsError(try app.performAccessibilityAudit(for: [.hitRegion, .sufficientElementDescription]))
        XCTAssertEqual(problems, [])
        let data = try Data(contentsOf: directory.appendingPathComponent("accessibility-audit.json"))
        let issues = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
        XCTAssertEqual(issues.map { $0["auditType"] as? String }, ["hitRegion", "sufficientElementDescription"])
        let element = try XCTUnwrap(issues.first?["element"] as? [String: Any])
        XCTAssertEqual(element["identifier"] as? String, "issues.tiny")
        XCTAssertEqual(element["type"] as? String, "button")
        XCTAssertEqual((element["frame"] as? [Double])?.suffix(2), [18, 18])
        let png = try Data(contentsOf: directory.appendingPathComponent("accessibility-audit.png"))
        XCTAssertEqual(Array(png.prefix(4)), [0x89, 0x50, 0x4E, 0x47])
        // Drawn for the screenshot only.
        XCTAssertEqual(try app.evaluate("return document.querySelectorAll('[data-robotkit-outline]').length") as? Int, 0)
        XCTAssertNil(app.auditEvidence)
    }
}
