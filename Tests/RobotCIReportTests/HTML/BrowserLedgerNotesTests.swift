import Foundation
import RobotCICore
import RobotCIReport
import XCTest

/// The flake ledger's notes in the page, in headless Chromium: a likely flaky failure is marked
/// in the list and explained in its detail; a quarantine entry's owner shows, its text escaped.
final class BrowserLedgerNotesTests: XCTestCase {
    func testLikelyFlakyAndQuarantineOwnerShowAndStayText() throws {
        try XCTSkipUnless(HeadlessChromium.isAvailable, "needs \(HeadlessChromium.path)")
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("robotci-notes-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        var run = ReportFixtures.mixedRun()
        let refund = try XCTUnwrap(run.tests.firstIndex { $0.id == ReportFixtures.refund })
        run.tests[refund].likelyFlaky = LikelyFlaky(commit: "1a2b3c4d5e6f7a8b", runID: "run-1", startedAt: 1)
        let quarantined = try XCTUnwrap(run.tests.firstIndex { $0.outcome == .quarantined })
        run.tests[quarantined].quarantineEntry = try QuarantineEntry(
            number: 1, fields: ["test": run.tests[quarantined].id.test, "owner": "@pay", "reason": ReportFixtures.imgPayload, "expires": "2099-01-01"],
            source: "robotci.yml:3 key 'quarantine'")
        try HTMLReport.write(run, to: dir)

        let list = try HeadlessChromium.dumpDOM(dir.appendingPathComponent("index.html"))
        XCTAssertNil(HeadlessChromium.attribute("data-error", in: list), "the page's script failed")
        XCTAssertEqual(list.components(separatedBy: "class=\"mark likely-flaky\"").count - 1, 1, "one row is marked likely flaky")

        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        func detail(_ id: TestID) throws -> String {
            var components = URLComponents(url: dir.appendingPathComponent("index.html"), resolvingAgainstBaseURL: false)
            components?.percentEncodedFragment = "test=" + (id.description.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")
            return try HeadlessChromium.dumpDOM(try XCTUnwrap(components?.url))
        }
        let likely = try detail(ReportFixtures.refund)
        XCTAssertTrue(likely.contains("data-note=\"likely-flaky\">likely flaky: passed at commit 1a2b3c4d5e6f before (run run-1)</p>"), likely)
        let owner = try detail(run.tests[quarantined].id)
        XCTAssertTrue(owner.contains("data-note=\"quarantine\">quarantined: owner @pay, until 2099-01-01: &lt;img src=x"), owner)
        XCTAssertFalse(owner.contains("\(ReportFixtures.xssMark)=\""), "the reason ran as markup")
    }
}
