import Foundation
import RobotCICore
import XCTest

@testable import RobotCIReport

final class HTMLReportTests: XCTestCase {
    /// The text of the `<script type="application/json">` data block.
    static func dataBlock(_ html: String) throws -> String {
        let open = #"<script type="application/json" id="robotci-data">"#
        let start = try XCTUnwrap(html.range(of: open))
        let end = try XCTUnwrap(html.range(of: "</script>", range: start.upperBound..<html.endIndex))
        return String(html[start.upperBound..<end.lowerBound])
    }

    static func data(_ html: String) throws -> [String: Any] {
        let block = try dataBlock(html)
        return try XCTUnwrap(JSONSerialization.jsonObject(with: Data(block.utf8)) as? [String: Any])
    }

    struct EmbeddedArtifact {
        var kind: String
        var path: String
        var linkable: Bool
        var value: Any?
    }

    /// Decodes an attempt's artifact rows ([kind, folder, name, linkable, value?, cut?]).
    static func artifacts(_ attempt: [Any], in data: [String: Any]) throws -> [EmbeddedArtifact] {
        let kinds = try XCTUnwrap(data["kinds"] as? [String])
        let names = try XCTUnwrap(data["names"] as? [String])
        let dirs = try XCTUnwrap(data["dirs"] as? [[Any]])
        func folder(_ i: Int) -> String {
            i < 0 ? "" : folder(dirs[i][0] as? Int ?? -1) + (dirs[i][1] as? String ?? "") + "/"
        }
        let rows = attempt.count > 10 ? try XCTUnwrap(attempt[10] as? [[Any]]) : []
        return try rows.map { row in
            EmbeddedArtifact(
                kind: kinds[try XCTUnwrap(row[0] as? Int)],
                path: folder(try XCTUnwrap(row[1] as? Int)) + names[try XCTUnwrap(row[2] as? Int)],
                linkable: row[3] as? Int == 1, value: row.count > 4 ? row[4] : nil)
        }
    }

    func testHostileStringsCannotLeaveTheDataBlock() throws {
        let html = HTMLReport.render(ReportFixtures.mixedRun())
        let block = try Self.dataBlock(html)
        XCTAssertFalse(block.contains("<"), "no raw < in the data block")
        XCTAssertFalse(block.contains(">"))
        XCTAssertFalse(block.contains("&"))
        XCTAssertFalse(block.contains("]]>"))
        XCTAssertFalse(block.contains("\u{2028}") || block.contains("\u{2029}"))
        // Exactly the two script elements of the template close, nothing from the data.
        XCTAssertEqual(html.components(separatedBy: "</script>").count - 1, 2)
        XCTAssertEqual(html.lowercased().components(separatedBy: "<script").count - 1, 2)
        XCTAssertFalse(html.contains("onerror=\""), "the payload appears only escaped")
    }

    func testControlCharactersAreMadeVisibleOrDropped() throws {
        let html = HTMLReport.render(ReportFixtures.mixedRun())
        let bad = html.unicodeScalars.filter { ($0.value < 0x20 && $0 != "\n" && $0 != "\t") || (0x7F...0x9F).contains($0.value) }
        XCTAssertEqual(bad.count, 0, "no raw C0/C1 control characters in the page")
        let data = try Self.data(html)
        let tests = try XCTUnwrap(data["tests"] as? [[Any]])
        let hostile = try XCTUnwrap(tests.first { ($0[1] as? String)?.contains("onerror") == true })
        let attempt = try XCTUnwrap((hostile[4] as? [[Any]])?.first)
        let output = try XCTUnwrap(attempt[8] as? String)
        XCTAssertTrue(output.contains("bell\u{2407} nul\u{2400}"), output)
        XCTAssertTrue(output.contains("esc" + "red" + " cr\nline"), "ANSI colours dropped, CRLF is LF: \(output)")
        XCTAssertTrue(output.contains("del\u{2421}"))
        XCTAssertTrue(output.contains("line sep\u{2028}para"), "U+2028 round-trips through the escape")
        // The name survives intact once parsed: escaping is lossless.
        XCTAssertEqual(hostile[1] as? String, ReportFixtures.hostileID.name)
    }

    /// The page names tests as `class/name` unless the id is something else (a pytest node id, a
    /// Swift Testing free function): then the whole id travels with the test.
    func testIDsThatAreNotClassSlashNameTravelWhole() throws {
        let ids = ["Mod.Suite/testA", "tests/ui/test_a.py::TestX::test_y[1/2]", "Mod.freeFunction()", "Standalone"].map(TestID.init)
        let attempt = Attempt(number: 1, outcome: .passed, duration: 1, start: 0, placement: .init(shard: 0, batch: 0))
        let run = RunResult(metadata: ReportFixtures.metadata(wall: 1, shards: 1),
                            tests: ids.map { TestRecord(id: $0, attempts: [attempt]) }, batches: [])
        let data = try Self.data(HTMLReport.render(run))
        let classes = try XCTUnwrap(data["classes"] as? [String])
        var pageIDs: [String] = []
        for row in try XCTUnwrap(data["tests"] as? [[Any]]) {
            let cls = classes[try XCTUnwrap(row[0] as? Int)]
            let name = try XCTUnwrap(row[1] as? String)
            let flags = try XCTUnwrap(row[3] as? Int)
            pageIDs.append(flags & 2 != 0 ? try XCTUnwrap(row[5] as? String) : cls + "/" + name)  // as report.js reads it
        }
        XCTAssertEqual(Set(pageIDs), Set(ids.map(\.description)))
    }

    func testCountsAndSummaryAreInTheData() throws {
        let run = ReportFixtures.mixedRun()
        let data = try Self.data(HTMLReport.render(run))
        let meta = try XCTUnwrap(data["meta"] as? [String: Any])
        let counts = try XCTUnwrap(meta["counts"] as? [String: Int])
        let c = run.counts
        XCTAssertEqual(counts, ["total": c.total, "passed": c.passed, "failed": c.failed, "flaky": c.flaky,
                                "skipped": c.skipped, "timedOut": c.timedOut, "crashed": c.crashed, "quarantined": c.quarantined,
                                "notRun": c.notRun])
        XCTAssertEqual(c.failed, 2)
        XCTAssertEqual(c.flaky, 1)
        XCTAssertEqual(meta["wallTime"] as? Int, 10_000)
        XCTAssertEqual(meta["serialTime"] as? Int, Int((run.serialTime * 1000).rounded()))
        XCTAssertEqual(meta["gitBranch"] as? String, "main")
        XCTAssertEqual((data["tests"] as? [Any])?.count, run.tests.count)
        XCTAssertEqual((data["batches"] as? [Any])?.count, run.batches.count)
    }

    func testContentSecurityPolicyAllowsOnlyThePageItself() throws {
        let html = HTMLReport.render(ReportFixtures.mixedRun())
        let csp = HTMLReport.contentSecurityPolicy
        XCTAssertTrue(html.contains("content=\"\(csp)\""))
        XCTAssertTrue(csp.hasPrefix("default-src 'none';"))
        XCTAssertTrue(csp.contains("script-src 'sha256-"))
        XCTAssertFalse(csp.contains("script-src 'unsafe-inline'"))
        XCTAssertTrue(csp.contains("img-src 'self' data:"))
        // Nothing outside the data names a remote resource.
        let block = try Self.dataBlock(html)
        let page = html.replacingOccurrences(of: block, with: "")
        XCTAssertNil(page.range(of: "https?://", options: .regularExpression), "the template references no URL")
        XCTAssertNil(page.range(of: "//[a-z0-9.-]+\\.[a-z]{2,}/", options: .regularExpression))
    }

    func testLongOutputKeepsItsTailAndLinksTheLog() throws {
        let data = try Self.data(HTMLReport.render(ReportFixtures.mixedRun()))
        let tests = try XCTUnwrap(data["tests"] as? [[Any]])
        let coupon = try XCTUnwrap(tests.first { $0[1] as? String == "testCoupon" })
        let first = try XCTUnwrap((coupon[4] as? [[Any]])?.first)
        let output = try XCTUnwrap(first[8] as? String)
        XCTAssertLessThanOrEqual(output.utf8.count, 4096)
        XCTAssertTrue(output.hasSuffix("the end of coupon output\n"))
        XCTAssertGreaterThan(first[9] as? Int ?? 0, 15_000, "bytes cut are counted")
        let artifacts = try Self.artifacts(first, in: data)
        XCTAssertTrue(artifacts.contains { $0.kind == "log" && $0.linkable && $0.path == "attachments/ShopTests.CheckoutTests.testCoupon/1/output.log" })
    }

    func testArtifactsAreInlinedFromTheReportFolderOnly() throws {
        let tmp = try temporaryDirectory()
        let dir = tmp.appendingPathComponent("report")
        try ReportFixtures.writeArtifacts(into: dir)
        let html = HTMLReport.render(ReportFixtures.mixedRun(), reportDirectory: dir)
        XCTAssertFalse(try Self.dataBlock(html).contains("<"))
        let data = try Self.data(html)
        let tests = try XCTUnwrap(data["tests"] as? [[Any]])
        let coupon = try XCTUnwrap(tests.first { $0[1] as? String == "testCoupon" })
        let artifacts = try Self.artifacts(try XCTUnwrap((coupon[4] as? [[Any]])?.first), in: data)
        let steps = try XCTUnwrap(artifacts.first { $0.kind == "steps" })
        let stepList = try XCTUnwrap(steps.value as? [[String: Any]])
        XCTAssertEqual(stepList.count, 2)
        XCTAssertEqual(stepList[1]["message"] as? String, ReportFixtures.imgPayload)
        let mock = try XCTUnwrap(artifacts.first { $0.kind == "mock" })
        XCTAssertEqual((mock.value as? [[String: Any]])?.last?["body"] as? String, ReportFixtures.scriptPayload)
        let tree = try XCTUnwrap(artifacts.first { $0.kind == "accessibility" })
        XCTAssertTrue((tree.value as? String)?.contains("button 'Pay'") == true)
        let screenshot = try XCTUnwrap(artifacts.first { $0.kind == "screenshot" })
        XCTAssertNil(screenshot.value, "screenshots are linked, not inlined")
        XCTAssertEqual(screenshot.path, "attachments/ShopTests.CheckoutTests.testCoupon/1/screenshot.png")

        // A path that climbs out of the report folder is neither read nor linked, nor is a URL.
        XCTAssertFalse(html.contains("SECRET OUTSIDE"))
        let hostile = try XCTUnwrap(tests.first { ($0[1] as? String)?.contains("onerror") == true })
        let hostileArtifacts = try Self.artifacts(try XCTUnwrap((hostile[4] as? [[Any]])?.first), in: data)
        XCTAssertEqual(hostileArtifacts.count, 2)
        for artifact in hostileArtifacts {
            XCTAssertFalse(artifact.linkable, "unsafe path \(artifact.path) gets no link")
            XCTAssertNil(artifact.value)
        }
    }

    /// A journal not written by this MockServer (another tool, an older version) may hold
    /// credentials: they are masked as the journal is inlined into index.html.
    func testInlinedMockJournalHasItsCredentialsMasked() throws {
        let dir = try temporaryDirectory().appendingPathComponent("report")
        try ReportFixtures.writeArtifacts(into: dir)
        let html = HTMLReport.render(ReportFixtures.mixedRun(), reportDirectory: dir)
        XCTAssertFalse(html.contains("FIXTURE-TOKEN-9"))
        XCTAssertFalse(html.contains("FIXTURE-COOKIE"))
        let data = try Self.data(html)
        let tests = try XCTUnwrap(data["tests"] as? [[Any]])
        let coupon = try XCTUnwrap(tests.first { $0[1] as? String == "testCoupon" })
        let mock = try XCTUnwrap(try Self.artifacts(try XCTUnwrap((coupon[4] as? [[Any]])?.first), in: data).first { $0.kind == "mock" })
        let headers = try XCTUnwrap((mock.value as? [[String: Any]])?.first?["headers"] as? [String: String])
        XCTAssertEqual(headers, ["Accept": "application/json", "authorization": "Bearer ***", "Cookie": "sid=***"])
    }

    func testWriteReplacesIndexAtomically() throws {
        let dir = try temporaryDirectory().appendingPathComponent("out/report")
        try HTMLReport.write(ReportFixtures.mixedRun(), to: dir)
        try HTMLReport.write(ReportFixtures.mixedRun(), to: dir)
        let files = try FileManager.default.contentsOfDirectory(atPath: dir.path)
        XCTAssertEqual(files, ["index.html"], "no temporary file is left behind")
        let html = try String(contentsOf: dir.appendingPathComponent("index.html"), encoding: .utf8)
        XCTAssertTrue(html.hasPrefix("<!doctype html>"))
    }

    func testTenThousandTestsStayUnderFiveMegabytes() throws {
        for worstCase in [false, true] {
            let run = ReportFixtures.largeRun(count: 10_000, worstCase: worstCase)
            let attempts = run.tests.reduce(0) { $0 + $1.attempts.count }
            let start = Date()
            let html = HTMLReport.render(run)
            let seconds = Date().timeIntervalSince(start)
            let size = html.utf8.count
            print("render 10,000 tests / \(attempts) attempts (\(worstCase ? "worst case: all 3 attempts failing, 8 KB output each" : "typical")): "
                  + "\(size) bytes, \(String(format: "%.2f", seconds)) s (debug build)")
            XCTAssertLessThan(size, 5_000_000)
            let data = try Self.data(html)
            XCTAssertEqual((data["tests"] as? [Any])?.count, 10_000)
            XCTAssertEqual(data["lean"] as? Bool, false, "fits without dropping anything")
        }
    }

    func testTemplateMatchesWebReportSources() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let web = root.appendingPathComponent("web-report")
        let stale = "Sources/RobotCIReport/HTML/ReportTemplate.swift is out of date: run web-report/embed"
        XCTAssertEqual(ReportTemplate.html, try String(contentsOf: web.appendingPathComponent("index.html"), encoding: .utf8), stale)
        // The page's own script and style, then the failed-snapshot view both pages share.
        func joined(_ page: String, _ shared: String) throws -> String {
            try String(contentsOf: web.appendingPathComponent(page), encoding: .utf8) + "\n"
                + String(contentsOf: web.appendingPathComponent(shared), encoding: .utf8)
        }
        XCTAssertEqual(ReportTemplate.css, try joined("report.css", "snapshot-compare.css"), stale)
        XCTAssertEqual(ReportTemplate.js, try joined("report.js", "snapshot-compare.js"), stale)
        // The script's hash is checked by the embed script itself (and by the browser tests,
        // where a wrong hash means the script never runs).
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/openssl") else { return }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/bash")
        p.arguments = [web.appendingPathComponent("embed").path, "--check"]
        try p.run()
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 0, stale)
    }

    func testOnlyPlainRelativePathsAreLinkable() {
        for ok in ["attachments/a/1/screenshot.png", "a", "./a", "a/..b/c", "a/.../c", "a/b:c.png", ".hidden/x"] {
            XCTAssertTrue(ReportPaths.isSafeRelative(ok), ok)
        }
        for bad in ["", "/etc/passwd", "../x", "a/../../x", "a/..", "javascript:alert(1)", "file:///x", "a\\b", "C:/x", "//host/x"] {
            XCTAssertFalse(ReportPaths.isSafeRelative(bad), bad)
        }
    }

    func testTextBudgetSharesBytesFairly() {
        XCTAssertEqual(TextBudget.cap(for: [10, 20, 30], budget: 100), 30, "everything fits")
        XCTAssertEqual(TextBudget.cap(for: [10, 100, 100], budget: 110), 50)
        XCTAssertEqual(TextBudget.cap(for: [1000, 1000], budget: 0), 0)
        XCTAssertEqual(TextBudget.cap(for: [], budget: 10), 0)
        let (tail, cut) = "aé\nbc".utf8Tail(3)
        XCTAssertEqual(tail, "bc")
        XCTAssertEqual(cut, 4)
        XCTAssertEqual("éé".utf8Head(3).text, "é")
    }

    func temporaryDirectory() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("robotci-report-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: dir) }
        return dir
    }
}
