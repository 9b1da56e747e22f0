import Foundation
import RobotCICore
import RobotCIReport
import XCTest

/// Opens generated reports from `file://` in headless Chromium and reads back what the
/// page's script wrote into the DOM (counts, visible rows, detail view, timings).
final class BrowserReportTests: XCTestCase {
    private var dir: URL!

    override func setUpWithError() throws {
        try XCTSkipUnless(HeadlessChromium.isAvailable, "needs \(HeadlessChromium.path)")
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("robotci-browser-\(UUID().uuidString)/report")
        try ReportFixtures.writeArtifacts(into: dir)
        try HTMLReport.write(ReportFixtures.mixedRun(), to: dir)
        // ROBOTCI_KEEP_REPORT=/some/dir keeps a copy of the fixture report to look at.
        if let keep = ProcessInfo.processInfo.environment["ROBOTCI_KEEP_REPORT"] {
            let target = URL(fileURLWithPath: keep)
            try? FileManager.default.removeItem(at: target)
            try FileManager.default.copyItem(at: dir, to: target)
        }
    }

    override func tearDownWithError() throws {
        if let dir { try? FileManager.default.removeItem(at: dir.deletingLastPathComponent()) }
    }

    private func open(_ fragment: String = "", in directory: URL? = nil) throws -> String {
        var components = URLComponents(url: (directory ?? dir).appendingPathComponent("index.html"), resolvingAgainstBaseURL: false)
        components?.percentEncodedFragment = fragment.isEmpty ? nil : fragment
        let url = try XCTUnwrap(components?.url)
        let dom = try HeadlessChromium.dumpDOM(url)
        XCTAssertNil(HeadlessChromium.attribute("data-error", in: dom), "the page's script failed")
        XCTAssertEqual(HeadlessChromium.attribute("data-ready", in: dom), "true", "the page's script ran to the end")
        return dom
    }

    private func fragment(test: TestID) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return "test=" + (test.description.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")
    }

    func testSummaryShowsTheRightCounts() throws {
        let dom = try open()
        let c = ReportFixtures.mixedRun().counts
        let expected = ["total": c.total, "passed": c.passed, "failed": c.failed, "flaky": c.flaky, "skipped": c.skipped,
                        "timedout": c.timedOut, "crashed": c.crashed, "quarantined": c.quarantined]
        for (name, value) in expected {
            XCTAssertEqual(HeadlessChromium.attribute("data-count-\(name)", in: dom), String(value), name)
        }
        XCTAssertEqual(HeadlessChromium.attribute("data-visible-count", in: dom), String(c.total))
        XCTAssertTrue(dom.contains("2 tests failing") || dom.contains("\(c.failing) tests failing"), "verdict shown")
        XCTAssertTrue(dom.contains("run run-1234"))
    }

    func testStatusAndTextFiltersComeFromTheHash() throws {
        let failed = try open("status=failed")
        XCTAssertEqual(HeadlessChromium.attribute("data-visible-count", in: failed), "2")
        XCTAssertTrue(failed.contains("aria-pressed=\"true\""))
        let text = try open("q=checkout")
        XCTAssertEqual(HeadlessChromium.attribute("data-visible-count", in: text), "3")
        // Free text also finds a test by its error message.
        let byError = try open("q=refund%20status")
        XCTAssertEqual(HeadlessChromium.attribute("data-visible-count", in: byError), "1")
    }

    func testEachFailingTestShowsItsError() throws {
        let run = ReportFixtures.mixedRun()
        for test in run.tests where test.outcome.failsBuild || test.outcome == .flaky {
            let dom = try open(fragment(test: test.id))
            XCTAssertEqual(HeadlessChromium.attribute("data-attempts", in: dom), String(test.attempts.count), test.id.description)
            let message = try XCTUnwrap(test.attempts.flatMap(\.failures).first?.message)
            let escaped = message.prefix(30).replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
                .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
            XCTAssertTrue(dom.contains(escaped) || dom.contains(String(message.prefix(30))), "\(test.id): error shown")
        }
    }

    func testFlakyDetailShowsTheFailedAttemptFirstWithItsArtifacts() throws {
        let dom = try open(fragment(test: ReportFixtures.coupon))
        let articles = dom.components(separatedBy: "<article class=\"attempt").dropFirst()
        XCTAssertEqual(articles.count, 2)
        XCTAssertTrue(articles.first?.contains("data-outcome=\"failed\"") == true, "failed attempt first")
        XCTAssertTrue(dom.contains(ReportFixtures.couponMessage))
        XCTAssertTrue(dom.contains("ShopTests.swift:77") || dom.contains("CheckoutTests.swift:77"), "file:line")
        XCTAssertTrue(dom.contains("src=\"attachments/ShopTests.CheckoutTests.testCoupon/1/screenshot.png\""))
        XCTAssertTrue(dom.contains("tapCoupon") && dom.contains("typeCoupon"), "robot steps")
        XCTAssertTrue(dom.contains("/api/coupon") && dom.contains("no route matched"), "mock requests")
        XCTAssertTrue(dom.contains("button 'Pay'"), "accessibility tree")
        XCTAssertTrue(dom.contains("the end of coupon output") && dom.contains("Full log"), "output tail and log link")
    }

    func testHostileStringsRunNoScript() throws {
        for fragment in ["", fragment(test: ReportFixtures.hostileID), "q=onerror", "view=timeline", "view=slowest"] {
            let dom = try open(fragment)
            XCTAssertFalse(dom.contains("\(ReportFixtures.xssMark)=\""), "a payload ran (\(fragment))")
            XCTAssertFalse(dom.contains("<img src=\"x\""), "payload became an element (\(fragment))")
            XCTAssertFalse(dom.contains("href=\"javascript:"), "a javascript: link was made (\(fragment))")
        }
        let detail = try open(fragment(test: ReportFixtures.hostileID))
        XCTAssertTrue(detail.contains("&lt;img src=x onerror="), "the payload is shown as text")
        XCTAssertTrue(detail.contains("]]&gt;"))
    }

    func testTimelineHasALanePerWorker() throws {
        let dom = try open("view=timeline")
        XCTAssertEqual(HeadlessChromium.attribute("data-lanes", in: dom), "3")
        XCTAssertEqual(dom.components(separatedBy: "class=\"tl-batch").count - 1, ReportFixtures.mixedRun().batches.count)
        XCTAssertTrue(dom.contains("title=\"ShopTests.CheckoutTests/testRefund — 1.50 s · attempt 1 failed\""))
    }

    func testNoChromiumSurvivesATimeout() throws {
        let start = Date()
        XCTAssertThrowsError(try HeadlessChromium.dumpDOM(dir.appendingPathComponent("index.html"), timeout: 0.3))
        XCTAssertLessThan(Date().timeIntervalSince(start), 10)
        let ps = Process()
        ps.executableURL = URL(fileURLWithPath: "/usr/bin/pgrep")
        ps.arguments = ["-f", dir.deletingLastPathComponent().path]
        ps.standardOutput = FileHandle.nullDevice
        try ps.run()
        ps.waitUntilExit()
        XCTAssertEqual(ps.terminationStatus, 1, "a chromium for this test is still running")
    }

    func testTenThousandTestsRenderFirstScreenUnderOneSecond() throws {
        let big = dir.deletingLastPathComponent().appendingPathComponent("big")
        let run = ReportFixtures.largeRun(count: 10_000)
        let start = Date()
        try HTMLReport.write(run, to: big)
        let writeSeconds = Date().timeIntervalSince(start)
        let size = try FileManager.default.attributesOfItem(atPath: big.appendingPathComponent("index.html").path)[.size] as? Int ?? 0
        var renders: [Double] = []
        for _ in 0..<3 {
            let dom = try open(in: big)
            XCTAssertEqual(HeadlessChromium.attribute("data-count-total", in: dom), "10000")
            renders.append(Double(HeadlessChromium.attribute("data-render-ms", in: dom) ?? "") ?? .infinity)
            XCTAssertLessThan(dom.components(separatedBy: "role=\"option\"").count, 200, "the list is virtualised")
        }
        let best = renders.min() ?? .infinity
        print("10,000 tests: index.html \(size) bytes, written in \(String(format: "%.2f", writeSeconds)) s (debug build), "
              + "first render \(renders.map { String(format: "%.0f ms", $0) }.joined(separator: ", ")) in Chromium")
        XCTAssertLessThan(size, 5_000_000)
        XCTAssertLessThan(best, 1000)
    }
}
