import Foundation
import MockServer
import RobotKit
import XCTest

/// Run *through* robotci by `RobotCIEndToEndTests.BrowserMatrixEndToEndTests` with
/// `--browsers chromium,webkit`, one shard, A before B in one process per engine: A writes a
/// cookie, both storages, IndexedDB, Cache Storage and a service worker on the shard's mock
/// origin; B, launched next on the same engine (Chromium: the shard's warm browser, a new
/// context; WebKit: the process's kept WebDriver session, reset), finds none of them. C fails
/// its first attempt on WebKit only. D hangs its browser; E, next, finds a working one. Only page script, so the same test runs on either engine;
/// each prints the engine it ran on. Outside that run they skip.
final class EngineIsolationUnderRobotCITests: UITestCase {
    override func setUp() async throws {
        guard ProcessInfo.processInfo.environment["ROBOTCI_MATRIX_E2E"] == "1" else {
            throw XCTSkip("runs only under robotci, from BrowserMatrixEndToEndTests")
        }
        try await super.setUp()
        try await StoragePage.serve(on: serverMock)
    }

    override var appURL: URL? { URL(string: serverBaseURL + StoragePage.path) }

    /// B names every leak, not only the first.
    override var stopsAtFirstFailure: Bool { false }

    private static let kinds = ["local", "session", "indexedDB", "caches", "workers"]

    func testA_WritesEveryKindOfStorage() throws {
        launch()
        reportEngine()
        try app.evaluate("return writeEverything()")
        let seen = try XCTUnwrap(app.evaluate("return readEverything()") as? [String: Any])
        XCTAssertEqual(seen["cookie"] as? String, "robot=1")
        for kind in Self.kinds {
            XCTAssertEqual((seen[kind] as? NSNumber)?.intValue, 1, "\(kind) was written: \(seen)")
        }
    }

    func testB_SeesNoneOfIt() throws {
        launch()
        reportEngine()
        let seen = try XCTUnwrap(app.evaluate("return readEverything()") as? [String: Any])
        XCTAssertEqual(seen["cookie"] as? String, "", "cookies leaked: \(seen)")
        for kind in Self.kinds {
            XCTAssertEqual((seen[kind] as? NSNumber)?.intValue, 0, "\(kind) leaked from the previous test: \(seen)")
        }
    }

    /// Fails its first attempt on WebKit only: the matrix run calls it flaky on WebKit, passed
    /// on Chromium (its retry runs on WebKit again).
    func testC_FlakyOnWebKitOnly() throws {
        launch()
        reportEngine()
        let agent = try XCTUnwrap(app.evaluate("return navigator.userAgent") as? String)
        let attempt = ProcessInfo.processInfo.environment["ROBOTCI_ATTEMPT"] ?? "1"
        XCTAssertFalse(!agent.contains("Chrome/") && attempt == "1", "WebKit's first attempt fails on purpose")
    }

    /// The page's main thread spins forever: the next command never answers, and robotci's
    /// deadline (a rule in the end-to-end test) kills the process and replaces the shard's
    /// browser (on WebKit: its WPEWebDriver, and with it cog).
    func testD_BrowserHangs() throws {
        launch()
        reportEngine()
        try app.evaluate("setTimeout(() => { for (;;) {} }, 0); return 1")
        usleep(200_000)
        _ = app.staticTexts["storage.title"].exists
    }

    /// After the hang, the next launch on the same engine gets a working browser.
    func testE_AfterTheHang() {
        launch()
        reportEngine()
        XCTAssertTrue(app.staticTexts["storage.title"].waitForExistence(timeout: 10))
    }

    /// `matrix-engine: <user agent>`: which engine really ran the test.
    private func reportEngine() {
        print("matrix-engine: \((try? app.evaluate("return navigator.userAgent") as? String) ?? "unknown")")
    }
}
