import Foundation
import XCTest

/// Failure evidence whatever the test's base class, through robotci: a plain `XCTestCase`
/// in reference 001's style and a Swift Testing `@Test` fail on purpose
/// (`RobotKitTests/Evidence/EvidenceUnderRobotCITests.swift`); each attempt in the report must hold
/// a screenshot, the accessibility tree naming the element the test looked at, the page,
/// the console and the mock journal, taken at the failure (before `tearDown` terminated the
/// app). A `UITestCase` counting one POST after a preflight passes, and the journal in its
/// attempt lists the preflight, marked.
final class FailureEvidenceEndToEndTests: XCTestCase {
    func testEvidenceOfEveryLiveAppIsInTheFailingAttempt() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/lib/chromium/chromium-headless-shell") else {
            throw XCTSkip("chromium-headless-shell is not installed (apt-get install chromium-headless-shell)")
        }
        let dir = E2E.temporaryDirectory("evidence")
        let r = try E2E.run(
            ["run", "--package", E2E.root.path, "--skip-build", "--shards", "2", "--retries", "0",
             "--filter", "RobotKitTests\\.(ReferenceStyleEvidenceTests|SwiftTestingEvidenceTests|SignInUITests)",
             "--report-dir", dir.path],
            env: ["ROBOTCI_EVIDENCE_E2E": "1"])
        XCTAssertEqual(r.status, 1, r.stdout + r.stderr)
        let tests = try E2E.reportedTests(in: dir)
        XCTAssertEqual(tests.count, 3, "\(tests.keys.sorted())")

        for id in ["RobotKitTests.ReferenceStyleEvidenceTests/testGreetingNamesTheUser",
                   "RobotKitTests.SwiftTestingEvidenceTests/greetingNamesTheUser()"] {
            let test = try XCTUnwrap(tests[id], "\(tests.keys.sorted())")
            XCTAssertEqual(test.outcome, "failed", id)
            let attempt = try XCTUnwrap(test.attempts.first, id)
            func file(_ name: String) throws -> Data {
                let artifact = try XCTUnwrap(attempt.artifacts.first { $0.path.hasSuffix("/" + name) }, "\(id): no \(name)")
                return try Data(contentsOf: dir.appendingPathComponent(artifact.path))
            }
            XCTAssertEqual(Array(try file("screenshot.png").prefix(4)), [0x89, 0x50, 0x4E, 0x47], id)
            let tree = String(decoding: try file("accessibility.txt"), as: UTF8.self)
            XCTAssertTrue(tree.contains("identifier: 'greeting', label: 'Hello, Alice'"), "\(id): \(tree)")
            XCTAssertTrue(String(decoding: try file("page.html"), as: UTF8.self).contains("data-testid=\"greeting\""), id)
            XCTAssertTrue(String(decoding: try file("console.log"), as: UTF8.self).contains("signin page loaded"), id)
            XCTAssertTrue(String(decoding: try file("mock-requests.json"), as: UTF8.self).contains("\"/me\""), id)
            XCTAssertTrue(attempt.artifacts.contains { $0.kind == "screenshot" }, id)
        }

        let signIn = try XCTUnwrap(tests["RobotKitTests.SignInUITests/testSignInPostsTheSessionOnce"])
        XCTAssertEqual(signIn.outcome, "passed")
        let journal = try XCTUnwrap(signIn.attempts.first?.artifacts.first { $0.kind == "mock" })
        let entries = try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(contentsOf: dir.appendingPathComponent(journal.path))) as? [[String: Any]])
        let session = entries.filter { $0["path"] as? String == "/session" }
        XCTAssertEqual(session.map { $0["method"] as? String }, ["OPTIONS", "POST"])
        XCTAssertEqual(session.map { $0["preflight"] as? Bool }, [true, false])
        // The report's page carries the journal and shows the mark.
        let html = try String(contentsOf: dir.appendingPathComponent("index.html"), encoding: .utf8)
        XCTAssertTrue(html.contains("CORS preflight"), "the report's template names the mark")
    }
}
