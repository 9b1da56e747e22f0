import RobotCICore
import XCTest

/// `--browsers`: what each entry means, what a test id carries for it, and the errors that
/// name a bad entry with the forms robotci accepts.
final class BrowserTargetTests: XCTestCase {
    func testTheAcceptedForms() throws {
        XCTAssertEqual(try BrowserTarget.list(parsing: ["chromium"]), [.chromium])
        XCTAssertEqual(try BrowserTarget.list(parsing: ["WebKit"]), [.webkit])
        XCTAssertEqual(try BrowserTarget.list(parsing: ["chromium, webkit"]), [.chromium, .webkit])
        XCTAssertEqual(try BrowserTarget.list(parsing: ["webkit", "chromium"]), [.webkit, .chromium], "a YAML list, in its order")
        XCTAssertEqual(try BrowserTarget.list(parsing: ["webdriver=http://grid:4444/wd/hub"]), [.webDriver(url: "http://grid:4444/wd/hub")])
        XCTAssertEqual(try BrowserTarget(parsing: "webdriver=https://hub.example/wd").description, "webdriver=https://hub.example/wd")
    }

    /// The default engine keeps the test's own id, even named alone; every other is named in it.
    func testWhatAnIdCarries() {
        XCTAssertNil(BrowserTarget.chromium.idName)
        XCTAssertEqual(BrowserTarget.webkit.idName, "webkit")
        XCTAssertEqual(BrowserTarget.webDriver(url: "http://g:4444").idName, "webdriver")
        XCTAssertEqual(BrowserTarget.chromium.name, "chromium")
        let targets: [BrowserTarget] = [.chromium, .webkit]
        XCTAssertEqual(BrowserTarget.target(named: nil, in: targets), .chromium)
        XCTAssertEqual(BrowserTarget.target(named: "webkit", in: targets), .webkit)
        XCTAssertNil(BrowserTarget.target(named: "webdriver", in: targets))
    }

    func testABadEntryIsNamedWithTheAcceptedForms() {
        func message(_ entries: [String]) -> String {
            do {
                _ = try BrowserTarget.list(parsing: entries)
                return "accepted"
            } catch {
                return "\(error)"
            }
        }
        let firefox = message(["chromium,firefox"])
        XCTAssertTrue(firefox.contains("'firefox'") && firefox.contains("`webdriver=URL`"), firefox)
        XCTAssertTrue(message(["webdriver"]).contains("needs its URL"), message(["webdriver"]))
        XCTAssertTrue(message(["webdriver=ftp://x"]).contains("not an http(s) URL"))
        XCTAssertTrue(message(["webdriver=http://"]).contains("not an http(s) URL"))
        XCTAssertTrue(message(["webkit,webkit"]).contains("listed twice"))
        XCTAssertTrue(message(["webdriver=http://a:1,webdriver=http://b:2"]).contains("one WebDriver endpoint per run"))
        XCTAssertTrue(message(["chromium,,webkit"]).contains("empty entry"))
        XCTAssertTrue(message([""]).contains("at least one browser"))
        XCTAssertTrue(message([]).contains("at least one browser"))
    }

    /// Network isolation follows `--browsers webkit` unless given: WebKit's WebDriver server
    /// starts a browser for whoever connects.
    func testWebKitTurnsNetworkIsolationToAutoUnlessGiven() {
        var c = RunConfiguration(shards: 1)
        XCTAssertEqual(c.effectiveNetworkIsolation, .off)
        c.browsers = [.chromium, .webkit]
        XCTAssertEqual(c.effectiveNetworkIsolation, .auto)
        c.networkIsolation = .off
        XCTAssertEqual(c.effectiveNetworkIsolation, .off)
        c.networkIsolation = nil
        c.browsers = [.webDriver(url: "http://g:4444")]
        XCTAssertEqual(c.effectiveNetworkIsolation, .off)
    }

    /// A plan goes browser by browser, each longest-first: a process runs one engine, and
    /// interleaved engines would cut every batch down to one test.
    func testAPlanGoesBrowserByBrowser() {
        let tests = ["M.C/a", "M.C/b", "M.C/c"]
        let ids = tests.map { TestID($0) } + tests.map { TestID($0, repetition: nil, browser: "webkit") }
        let timings = Timings(tests: ["M.C/a": 1, "M.C/b": 3, "M.C/c": 2], browsers: ["webkit": ["M.C/a": 5, "M.C/b": 0.5, "M.C/c": 4]])
        XCTAssertEqual(Planner.order(ids, timings: timings).map(\.id.description),
                       ["M.C/b", "M.C/c", "M.C/a", "M.C/a [webkit]", "M.C/c [webkit]", "M.C/b [webkit]"])
    }

    /// One engine's times are no deadline for another's.
    func testLearntDeadlinesArePerBrowser() throws {
        let rules = TestRules(retries: 0, testTimeout: 300)
            .learningDeadlines(from: ["M.C/a": Array(repeating: 0.1, count: 10)], browsers: ["webkit": ["M.C/b": Array(repeating: 0.2, count: 10)]])
        XCTAssertLessThan(rules.deadline(for: TestID("M.C/a")).seconds, 300)
        XCTAssertEqual(rules.deadline(for: TestID("M.C/a", repetition: nil, browser: "webkit")).seconds, 300, "Chromium's times do not bound WebKit's run")
        XCTAssertLessThan(rules.deadline(for: TestID("M.C/b", repetition: nil, browser: "webkit")).seconds, 300)
        XCTAssertEqual(rules.deadline(for: TestID("M.C/b")).seconds, 300)
    }
}
