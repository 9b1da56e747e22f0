import Foundation
import RobotCICore
@testable import RobotCIRunner
import XCTest

final class ReportLayoutTests: XCTestCase {
    func testSlugKeepsSafeCharacters() {
        XCTAssertEqual(ReportLayout.slug("MyModule.LoginTests/testLogin_2-b"), "MyModule.LoginTests_testLogin_2-b")
        XCTAssertEqual(ReportLayout.slug("a b:c*d?e\"f<g>h|i\\j"), "a_b_c_d_e_f_g_h_i_j")
        XCTAssertEqual(ReportLayout.slug(""), "")
    }

    func testSlugKeepsLettersOfAnyScriptAndReplacesEachOtherScalar() {
        XCTAssertEqual(ReportLayout.slug("Ünïcødé/tëst"), "Ünïcødé_tëst")
        XCTAssertEqual(ReportLayout.slug("a😀b"), "a_b")
        XCTAssertEqual(ReportLayout.slug("a\u{1F44D}\u{1F3FD}b"), "a__b", "one underscore per unicode scalar")
        XCTAssertEqual(ReportLayout.slug("a\nb\tc\u{0}d"), "a_b_c_d")
    }

    func testSlugIsCappedAt180Characters() {
        let long = "M.C/test" + String(repeating: "x", count: 300)
        let slug = ReportLayout.slug(long)
        XCTAssertEqual(slug.count, 180)
        XCTAssertEqual(slug, String(("M.C_test" + String(repeating: "x", count: 300)).prefix(180)))
    }

    func testPaths() {
        let layout = ReportLayout(directory: URL(fileURLWithPath: "/r"))
        XCTAssertEqual(layout.attemptDirectory(TestID("M.C/testA"), attempt: 2), "attachments/M.C_testA/2")
        XCTAssertEqual(layout.batchLogPath(7), "attachments/batches/batch-7.log")
        XCTAssertEqual(layout.journal.path, "/r/results.jsonl")
        XCTAssertEqual(layout.workDirectory.path, "/r/.robotci-work")
    }

    func testArtifactKinds() {
        let cases: [(String, String)] = [
            ("steps.json", "steps"), ("mock-requests.json", "mock"), ("accessibility.txt", "accessibility"),
            ("console.log", "console"), ("screenshot.png", "screenshot"), ("failure-2.jpg", "screenshot"),
            ("page.html", "html"), ("server.log", "log"), ("data.json", "other"), ("notes.txt", "other"),
            ("png", "other"), ("", "other"), ("x.png.txt", "other"),
        ]
        for (name, kind) in cases { XCTAssertEqual(Artifact.kind(forFileName: name), kind, name) }
    }
}
