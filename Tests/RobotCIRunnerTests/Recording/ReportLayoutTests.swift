import Foundation
import RobotCICore
@testable import RobotCIRunner
import XCTest

final class ReportLayoutTests: XCTestCase {
    /// The readable part of a slug (without the `-<hash>` suffix).
    private func readable(_ id: String) -> String {
        let slug = ReportLayout.slug(id)
        return String(slug[..<slug.lastIndex(of: "-")!])
    }

    func testSlugKeepsSafeCharacters() {
        XCTAssertEqual(readable("MyModule.LoginTests/testLogin_2-b"), "MyModule.LoginTests_testLogin_2-b")
        XCTAssertEqual(readable("a b:c*d?e\"f<g>h|i\\j"), "a_b_c_d_e_f_g_h_i_j")
        XCTAssertEqual(readable(""), "")
    }

    func testSlugKeepsLettersOfAnyScriptAndReplacesEachOtherScalar() {
        XCTAssertEqual(readable("Ünïcødé/tëst"), "Ünïcødé_tëst")
        XCTAssertEqual(readable("a😀b"), "a_b")
        XCTAssertEqual(readable("a\u{1F44D}\u{1F3FD}b"), "a__b", "one underscore per unicode scalar")
        XCTAssertEqual(readable("a\nb\tc\u{0}d"), "a_b_c_d")
    }

    /// Before: 160 characters of readable part, 480 bytes for a CJK name, over the 255-byte
    /// limit of a file name: the attempt folder could not be made and its artifacts were lost.
    func testSlugOfALongCJKNameFitsAFileName() throws {
        let id = "LoginTests/" + String(repeating: "测试名称很长", count: 40)
        let slug = ReportLayout.slug(id)
        XCTAssertLessThanOrEqual(slug.utf8.count, 255)
        XCTAssertTrue(slug.hasPrefix("LoginTests_测试名称很长"), slug)
        XCTAssertNotEqual(slug, ReportLayout.slug(id + "x"), "the hash of the whole id keeps them apart")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("robotci-slug-\(UUID().uuidString)/\(slug)")
        defer { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) }
        XCTAssertNoThrow(try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true))
        XCTAssertEqual(BoundedFileName.bounded("short"), "short")
        XCTAssertLessThanOrEqual(BoundedFileName.bounded(String(repeating: "é", count: 300)).utf8.count, BoundedFileName.readableBytes)
    }

    func testSlugsOfDifferentIdsNeverCollide() {
        XCTAssertNotEqual(ReportLayout.slug("M.A_test/testX"), ReportLayout.slug("M.A/test_testX"))
        let long = "M.C/test" + String(repeating: "x", count: 300)
        XCTAssertNotEqual(ReportLayout.slug(long + "1"), ReportLayout.slug(long + "2"))
        XCTAssertEqual(ReportLayout.slug(long), ReportLayout.slug(long), "stable")
    }

    func testSlugReadablePartIsCappedAt160Bytes() {
        let long = "M.C/test" + String(repeating: "x", count: 300)
        XCTAssertEqual(readable(long), String(("M.C_test" + String(repeating: "x", count: 300)).prefix(160)))
    }

    func testPaths() {
        let layout = ReportLayout(directory: URL(fileURLWithPath: "/r"))
        XCTAssertEqual(layout.attemptDirectory(TestID("M.C/testA"), attempt: 2, redactor: SecretRedactor(environment: [:])), "attachments/\(ReportLayout.slug("M.C/testA"))/2")
        XCTAssertTrue(layout.attemptDirectory(TestID("M.C/testA"), attempt: 2, redactor: SecretRedactor(environment: [:])).hasPrefix("attachments/M.C_testA-"))
        XCTAssertEqual(layout.batchLogPath(7), "attachments/batches/batch-7.log")
        XCTAssertEqual(layout.journal.path, "/r/results.jsonl")
        XCTAssertEqual(layout.workDirectory.path, "/r/.robotci-work")
    }

    func testArtifactKinds() {
        let cases: [(String, String)] = [
            ("steps.json", "steps"), ("mock-requests.json", "mock"), ("accessibility.txt", "accessibility"),
            ("console.log", "console"), ("screenshot.png", "screenshot"), ("failure-2.jpg", "screenshot"),
            ("page.html", "html"), ("server.log", "log"), ("data.json", "other"), ("notes.txt", "other"),
            ("png", "other"), ("", "other"), ("x.png.txt", "other"), ("Shot.PNG", "screenshot"), ("a.jpeg", "screenshot"),
        ]
        for (name, kind) in cases { XCTAssertEqual(ArtifactKind(fileName: name).rawValue, kind, name) }
    }
}
