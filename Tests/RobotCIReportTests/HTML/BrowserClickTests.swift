import Foundation
import RobotCICore
import RobotCIReport
import XCTest

/// The report as a person uses it, through WebDriver's real input (element click, keys,
/// ctrl-click actions), never a script's `element.click()`.
final class BrowserClickTests: XCTestCase {
    private var dir: URL!
    private var browser: WebDriverBrowser!
    private var flakyID = ""

    override func setUpWithError() throws {
        try XCTSkipUnless(WebDriverBrowser.isAvailable, "needs \(WebDriverBrowser.chromedriver) and \(HeadlessChromium.path)")
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("robotci-click-\(UUID().uuidString)/report")
        try ReportFixtures.writeArtifacts(into: dir)
        let run = ReportFixtures.mixedRun()
        flakyID = try XCTUnwrap(run.tests.first { $0.outcome == .flaky }).id.description
        // Five earlier runs in which the flaky test flaked every other time.
        var past = RunHistory(runs: (0..<5).map { RunHistory.Run(id: "past-\($0)", startedAt: Double(1_000 + $0), commit: "c\($0)") })
        past.tests[flakyID] = .init(o: "KPKPK", d: [900, 1000, 1100, 1200, 1300], a: [2, 1, 2, 1, 2])
        let history = past.recording(run)
        try HTMLReport.write(run, history: history, to: dir)
        browser = try WebDriverBrowser()
    }

    override func tearDownWithError() throws {
        browser?.close()
        if let dir { try? FileManager.default.removeItem(at: dir.deletingLastPathComponent()) }
    }

    private func open(_ fragment: String = "") throws {
        var c = URLComponents(url: dir.appendingPathComponent("index.html"), resolvingAgainstBaseURL: false)
        c?.percentEncodedFragment = fragment.isEmpty ? nil : fragment
        try browser.navigate(try XCTUnwrap(c?.url))
        try browser.waitUntil("document.body.getAttribute('data-ready') === 'true'")
        XCTAssertNil(try browser.script("return document.body.getAttribute('data-error');") as? String)
    }

    private var detailTest: String? {
        get throws { try browser.script("const d = document.getElementById('detail'); return d.hidden ? null : d.getAttribute('data-test');") as? String }
    }

    func testFirstRealClickOnARowOpensItsDetail() throws {
        try open()
        let rowTests = try XCTUnwrap(try browser.script("return [...document.querySelectorAll('#list-rows .row[data-test]')].map(e => e.getAttribute('data-test'));") as? [String])
        // The third row, so a click that lands on a redrawn list would open the wrong test or none.
        let target = rowTests[2]
        try browser.click(try browser.element("#row-\(try XCTUnwrap(try browser.script("return document.querySelector('#list-rows .row[data-test=\"\(target)\"]').getAttribute('data-k');") as? String))"))
        try browser.waitUntil("!document.getElementById('detail').hidden", timeout: 5)
        XCTAssertEqual(try detailTest, target, "the first click opens the clicked test")
        // A test's only attempt fills the row (its screenshot readable), not a third of it.
        let widths = try XCTUnwrap(try browser.script("""
            return [...document.querySelectorAll('#detail .attempts')].map(a => [a.querySelectorAll(':scope > .attempt').length,
              a.querySelector(':scope > .attempt').getBoundingClientRect().width / a.getBoundingClientRect().width]);
            """) as? [[NSNumber]])
        for pair in widths where pair[0].intValue == 1 {
            XCTAssertGreaterThan(pair[1].doubleValue, 0.95, "one attempt takes the whole row: \(widths)")
        }

        // Back, then Enter on the list opens the (keyboard-)active test.
        try browser.sendKeys(try browser.element("#detail-title"), "\u{E00C}")  // Escape
        try browser.waitUntil("document.getElementById('detail').hidden")
        try open()
        try browser.sendKeys(try browser.element("#list"), "\u{E007}")
        try browser.waitUntil("!document.getElementById('detail').hidden", timeout: 5)
        XCTAssertEqual(try detailTest, rowTests[0], "Enter opens the first test")

        // Ctrl-click opens the row's #test= link in a new tab and leaves this one on the list.
        try open()
        XCTAssertEqual(try browser.windowHandles().count, 1)
        let href = try XCTUnwrap(try browser.script("return document.getElementById('row-1').getAttribute('href');") as? String)
        XCTAssertTrue(href.contains("test="), href)
        try browser.ctrlClick(try browser.element("#row-1"))
        let deadline = Date().addingTimeInterval(5)
        while try browser.windowHandles().count < 2 && Date() < deadline { usleep(50_000) }
        XCTAssertEqual(try browser.windowHandles().count, 2, "ctrl-click opened a new tab")
        XCTAssertNil(try detailTest, "this tab stays on the list")
    }

    func testFailuresComeFirstAndTimelineBarsOpenByKeyboard() throws {
        try open()
        // [[class, [outcome…]], …] in the order shown: each class is one group.
        let groups = try XCTUnwrap(try browser.script("""
            const out = [];
            for (const row of document.querySelectorAll('#list-rows .row')) {
              if (row.classList.contains('group')) out.push([row.querySelector('.name').firstChild.textContent, []]);
              else if (row.hasAttribute('data-test')) out[out.length - 1][1].push([...row.querySelector('.status').classList].find(c => c.startsWith('o-')).slice(2));
            }
            return out;
            """) as? [[Any]])
        let rank: (String) -> Int = { ["failed": 0, "timedOut": 0, "crashed": 0, "flaky": 1][$0] ?? 2 }
        let names = groups.compactMap { $0.first as? String }
        XCTAssertEqual(names.count, Set(names).count, "each class is shown as one group: \(names)")
        let ranks = groups.map { (($0.last as? [String]) ?? []).map(rank) }
        XCTAssertEqual(ranks.map { $0.min() ?? 2 }, ranks.map { $0.min() ?? 2 }.sorted(), "classes with failures first, then flaky: \(groups)")
        for r in ranks { XCTAssertEqual(r, r.sorted(), "within a class, failing, then flaky, then the rest: \(groups)") }
        XCTAssertEqual(ranks.first?.first, 0)
        XCTAssertEqual(try browser.script("return document.getElementById('sort').value;") as? String, "status")
        // The chips still filter, and the URL keeps it.
        try browser.click(try browser.element("#chips [data-outcome=flaky]"))
        try browser.waitUntil("location.hash.includes('status=flaky')")
        XCTAssertEqual(try browser.script("return document.getElementById('list').getAttribute('data-visible-count');") as? String,
                       String(ReportFixtures.mixedRun().counts.flaky))

        // Timeline bars are focusable and Enter opens their test.
        try open("view=timeline")
        let bar = try browser.element(".tl-bar")
        let barTest = try XCTUnwrap(try browser.script("const b = document.querySelector('.tl-bar'); return window.__t = b.getAttribute('data-t');") as? String)
        XCTAssertFalse(barTest.isEmpty)
        try browser.sendKeys(bar, "\u{E007}")
        try browser.waitUntil("!document.getElementById('detail').hidden", timeout: 5)
        XCTAssertNotNil(try detailTest)
    }

    func testHistoryShowsStripFlakeRateAndQuarantineSuggestion() throws {
        try open()
        XCTAssertEqual(try browser.script("return document.body.getAttribute('data-history-runs');") as? String, "6")
        XCTAssertEqual(try browser.script("return document.getElementById('run-chart').getAttribute('data-runs');") as? String, "6")
        let row = try browser.element(".row[data-test=\"\(flakyID)\"]")
        XCTAssertEqual(try browser.script("return document.querySelector('.row[data-test=\"\(flakyID)\"] .strip').children.length;") as? Int, 6)
        XCTAssertEqual(try browser.script("return document.querySelector('.row[data-test=\"\(flakyID)\"] .rate').textContent;") as? String, "67%")
        try browser.click(row)
        try browser.waitUntil("!document.getElementById('detail').hidden", timeout: 5)
        XCTAssertEqual(try browser.script("return document.querySelector('#detail .history').getAttribute('data-history');") as? String, "KPKPKK")
        XCTAssertEqual(try browser.script("return document.querySelector('#detail .history').getAttribute('data-flake-rate');") as? String, "0.67")
        XCTAssertEqual(try browser.script("return !!document.querySelector('#detail .trend');") as? Bool, true)
        // The packed durations come back as they went in (900…1300 ms in the earlier runs).
        let titles = try browser.script("return [...document.querySelectorAll('#detail .trend i')].slice(0, 5).map((i) => i.title);") as? [String]
        XCTAssertEqual(titles, ["run past-0: 900 ms", "run past-1: 1.00 s", "run past-2: 1.10 s", "run past-3: 1.20 s", "run past-4: 1.30 s"])

        try open("view=flaky")
        let yaml = try XCTUnwrap(try browser.script("return document.querySelector('#quarantine pre').textContent;") as? String)
        XCTAssertTrue(yaml.hasPrefix("quarantine:\n  - '^"), yaml)
        XCTAssertTrue(yaml.contains(RunHistory.regexEscaped(flakyID)), yaml)
        XCTAssertEqual(try browser.script("return document.getElementById('quarantine').getAttribute('data-count');") as? String, "1")
    }

    /// The parts drawn from rows the other tests do not reach (the history's newly failing and
    /// fixed marks, the concurrency strip), read through the data's named columns.
    func testHistoryMarksAndConcurrencyStrip() throws {
        var run = ReportFixtures.mixedRun()
        run.metadata.concurrency = [ConcurrencySample(time: 0, running: 2), ConcurrencySample(time: 5, running: 3),
                                    ConcurrencySample(time: 10, running: 0)]
        let pay = "ShopTests.CheckoutTests/testPay", refund = ReportFixtures.refund.description
        var past = RunHistory(runs: (0..<2).map { RunHistory.Run(id: "past-\($0)", startedAt: Double(1_000 + $0), commit: nil) })
        past.tests[pay] = .init(o: "FF", d: [10, 20], a: [1, 1])
        past.tests[refund] = .init(o: "PS", d: [10, 20], a: [1, 1])
        try HTMLReport.write(run, history: past.recording(run), to: dir)
        try open()
        func mark(_ id: String) throws -> String? {
            try browser.script("const m = document.querySelector('.row[data-test=\"\(id)\"] .mark'); return m ? m.textContent : null;") as? String
        }
        XCTAssertEqual(try mark(pay), "fixed")
        XCTAssertEqual(try mark(refund), "newly failing", "the skipped run in between does not count")
        try open("view=timeline")
        XCTAssertEqual(try browser.script("return document.querySelector('[data-concurrency]').getAttribute('data-concurrency');") as? String,
                       "2.50")
    }
}
