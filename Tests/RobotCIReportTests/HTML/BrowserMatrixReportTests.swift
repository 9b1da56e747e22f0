import Foundation
import RobotCICore
import RobotCIReport
import XCTest

/// A `--browsers chromium,webkit` run's report, opened in headless Chromium: the browser
/// filter comes from the URL hash, and a test's row shows every engine's verdict of it (a test
/// flaky on WebKit only says so on its WebKit row and beside its Chromium one).
final class BrowserMatrixReportTests: XCTestCase {
    private var dir: URL!

    override func setUpWithError() throws {
        try XCTSkipUnless(HeadlessChromium.isAvailable, "needs \(HeadlessChromium.path)")
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("robotci-matrix-\(UUID().uuidString)/report")
        func attempts(_ outcomes: [AttemptOutcome]) -> [Attempt] {
            outcomes.enumerated().map { n, o in Attempt(number: n + 1, outcome: o, duration: 1, start: Double(n),
                                                        placement: .init(shard: 0, batch: n)) }
        }
        let tests = [
            TestRecord(id: TestID("Shop.Checkout/testPay"), attempts: attempts([.passed])),
            TestRecord(id: TestID("Shop.Checkout/testPay", repetition: nil, browser: "webkit"), attempts: attempts([.failed, .passed])),
            TestRecord(id: TestID("Shop.Checkout/testRefund"), attempts: attempts([.passed])),
            TestRecord(id: TestID("Shop.Checkout/testRefund", repetition: nil, browser: "webkit"), attempts: attempts([.passed])),
        ]
        let meta = RunMetadata(runID: "matrix-1", startedAt: 1000, wallTime: 4, shards: 1, retries: 1, robotciVersion: "t")
        try HTMLReport.write(RunResult(metadata: meta, tests: tests, batches: []), to: dir)
    }

    override func tearDownWithError() throws {
        if let dir { try? FileManager.default.removeItem(at: dir.deletingLastPathComponent()) }
    }

    private func open(_ fragment: String) throws -> String {
        var components = URLComponents(url: dir.appendingPathComponent("index.html"), resolvingAgainstBaseURL: false)
        components?.percentEncodedFragment = fragment
        let dom = try HeadlessChromium.dumpDOM(try XCTUnwrap(components?.url))
        XCTAssertNil(HeadlessChromium.attribute("data-error", in: dom), "the page's script failed")
        XCTAssertEqual(HeadlessChromium.attribute("data-ready", in: dom), "true", "the page's script ran to the end")
        return dom
    }

    func testTheBrowserFilterAndEachEnginesVerdict() throws {
        let all = try open("sort=name")
        XCTAssertEqual(HeadlessChromium.attribute("data-visible-count", in: all), "4")
        XCTAssertTrue(all.contains("<option value=\"webkit\">webkit</option>"), "the browser filter lists WebKit")
        // Every row lists both engines: the Chromium row of testPay says WebKit was flaky.
        XCTAssertEqual(all.components(separatedBy: "data-engine=\"webkit\" data-outcome=\"flaky\"").count - 1, 2, "both rows of testPay")
        XCTAssertEqual(all.components(separatedBy: "data-engine=\"chromium\" data-outcome=\"passed\"").count - 1, 4)

        let webkit = try open("browser=webkit&sort=name")
        XCTAssertEqual(HeadlessChromium.attribute("data-visible-count", in: webkit), "2")
        XCTAssertTrue(webkit.contains("testPay [webkit]") && !webkit.contains(">testPay</span>"), "only WebKit's runs are listed")
        let chromium = try open("browser=chromium&sort=name")
        XCTAssertEqual(HeadlessChromium.attribute("data-visible-count", in: chromium), "2")
        XCTAssertFalse(chromium.contains("testRefund [webkit]</span>"))
    }
}
