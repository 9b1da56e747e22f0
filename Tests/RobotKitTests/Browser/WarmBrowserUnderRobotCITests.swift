import Foundation
import MockServer
@testable import RobotKit
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// Run *through* robotci by `RobotCIEndToEndTests.WarmBrowserEndToEndTests` on one shard,
/// one process per test, in name order: the shard's browser is shared across test processes,
/// yet nothing a test stores is seen by the next (A writes cookies, both storages, IndexedDB,
/// Cache Storage, a service worker, a permission, `window.name`, a history, a second tab, a
/// window size, and both storages of a `file://` page that asks before it is left, and ends
/// with an alert open; B finds none of them, in the same page under `reset`), under either
/// `--isolation` (`context`: a fresh context each; `reset`: the same page, cleared); a browser killed mid-test
/// fails only that test (C) and the next gets a new one (D); a browser that hangs times out
/// only that test (E) and the next gets a new one (F). Each prints `warm-browser: pid N` so the
/// end-to-end test can tell which browser ran it. Outside that run they skip.
final class WarmBrowserUnderRobotCITests: UITestCase {
    override func setUp() async throws {
        guard ProcessInfo.processInfo.environment["ROBOTCI_WARM_E2E"] == "1" else {
            throw XCTSkip("runs only under robotci, from WarmBrowserEndToEndTests")
        }
        try await super.setUp()
        try await StoragePage.serve(on: serverMock)
    }

    override var appURL: URL? { URL(string: serverBaseURL + StoragePage.path) }

    /// B names every leak, not only the first.
    override var stopsAtFirstFailure: Bool { false }

    func testA_WritesEveryKindOfStorage() throws {
        launch()
        reportBrowser()
        try app.evaluate("return writeEverything()")
        let seen = try XCTUnwrap(app.evaluate("return readEverything()") as? [String: Any])
        XCTAssertEqual(seen["cookie"] as? String, "robot=1")
        for kind in ["local", "session", "indexedDB", "caches", "workers"] {
            XCTAssertEqual((seen[kind] as? NSNumber)?.intValue, 1, "\(kind) was written: \(seen)")
        }
        // A second tab and a history: five entries pushed, one tab opened (left open).
        XCTAssertEqual(try pagesOfThisLaunch(), 1, "this test's own tab")
        try app.evaluate("for (let i = 0; i < 5; i++) history.pushState({i}, '', '?step=' + i); window.open(location.href, 'robot-tab'); return 1")
        XCTAssertGreaterThanOrEqual((try app.evaluate("return history.length") as? NSNumber)?.intValue ?? 0, 6)
        XCTAssertEqual(try pagesOfThisLaunch(), 2, "the second tab is open")
        // A permission, the window's name and size.
        let context = try XCTUnwrap(app.page?.contextID)
        try browser().command("Browser.setPermission", [
            "permission": ["name": "geolocation"], "setting": "granted", "origin": try XCTUnwrap(serverBaseURL), "browserContextId": context])
        XCTAssertEqual(try app.evaluate("return navigator.permissions.query({name: 'geolocation'}).then(p => p.state)") as? String, "granted")
        try app.evaluate("window.name = 'robot'; return 1")
        let window = try browser().command("Browser.getWindowForTarget", ["targetId": try XCTUnwrap(app.page?.targetID)])
        try browser().command("Browser.setWindowBounds", ["windowId": try XCTUnwrap(window["windowId"]), "bounds": ["width": 600, "height": 500]])
        XCTAssertEqual((try app.evaluate("return window.innerWidth") as? NSNumber)?.intValue, 600)
        // Both storages of a file:// page.
        try app.open(StoragePage.fileURL())
        XCTAssertEqual(try app.evaluate("localStorage.setItem('robot', '1'); sessionStorage.setItem('robot', '1'); return localStorage.length + sessionStorage.length") as? NSNumber, 2)
        // A page that asks before it is left, armed by a real click (browsers ask only after
        // one): the next launch must neither wait on that question nor lose the page to it.
        try app.evaluate("addEventListener('beforeunload', (e) => { e.preventDefault(); e.returnValue = 'stay'; }); return 1")
        app.descendants(matching: .any)["file"].firstMatch.tap()
        // And, after the last command, a console line nobody reads and an alert the test never
        // answers: the next launch must neither show the one nor wait on the other.
        try app.evaluate("setTimeout(() => { console.log('late line of A'); alert('left open'); }, 0); return 1")
        usleep(200_000)
    }

    func testB_SeesNoneOfIt() throws {
        launch()
        reportBrowser()
        let seen = try XCTUnwrap(app.evaluate("return readEverything()") as? [String: Any])
        XCTAssertEqual(seen["cookie"] as? String, "", "cookies leaked: \(seen)")
        for kind in ["local", "session", "indexedDB", "caches", "workers"] {
            XCTAssertEqual((seen[kind] as? NSNumber)?.intValue, 0, "\(kind) leaked from the previous test: \(seen)")
        }
        // A fresh tab's history is its one page (two with the about:blank it started from).
        XCTAssertLessThanOrEqual((try app.evaluate("return history.length") as? NSNumber)?.intValue ?? 99, 2, "history leaked")
        XCTAssertEqual(try pagesOfThisLaunch(), 1, "only this test's tab: the previous test's second tab is gone")
        XCTAssertEqual(try app.evaluate("return navigator.permissions.query({name: 'geolocation'}).then(p => p.state)") as? String, "prompt", "the permission leaked")
        XCTAssertEqual(try app.evaluate("return window.name") as? String, "", "window.name leaked")
        XCTAssertEqual((try app.evaluate("return [window.innerWidth, window.innerHeight]") as? [NSNumber])?.map(\.intValue), [1024, 768], "the window size leaked")
        try app.open(StoragePage.fileURL())
        XCTAssertEqual((try app.evaluate("return localStorage.length + ':' + sessionStorage.length") as? String), "0:0", "a file:// page's storage leaked")
        let console = try app.consoleLog().map(\.message)
        XCTAssertFalse(console.contains { $0.contains("late line of A") }, "the last test's console line leaked: \(console)")
    }

    func testC_BrowserCrashesMidTest() throws {
        launch()
        reportBrowser()
        let pid = try XCTUnwrap(RobotKitProcess.current.browser.browserProcessID)
        kill(pid, SIGKILL)
        usleep(300_000)
        app.buttons["never"].tap()  // fails: the browser is gone
    }

    func testD_AfterTheCrash() {
        launch()
        reportBrowser()
        XCTAssertTrue(app.staticTexts["storage.title"].waitForExistence(timeout: 10))
    }

    func testE_BrowserHangs() throws {
        launch()
        reportBrowser()
        // The page's main thread spins forever; the next WebDriver command never returns.
        try app.evaluate("setTimeout(() => { for (;;) {} }, 0); return 1")
        usleep(200_000)
        _ = app.staticTexts["storage.title"].exists
    }

    func testF_AfterTheHang() {
        launch()
        reportBrowser()
        XCTAssertTrue(app.staticTexts["storage.title"].waitForExistence(timeout: 10))
    }

    /// Holds the shard's browser for a minute, for `WarmBrowserEndToEndTests` to `kill -9`
    /// robotci meanwhile (`ROBOTCI_WARM_KILL=1`); skipped otherwise.
    func testG_HoldsTheBrowserUntilRobotCIIsKilled() throws {
        guard ProcessInfo.processInfo.environment["ROBOTCI_WARM_KILL"] == "1" else {
            throw XCTSkip("runs only when WarmBrowserEndToEndTests kills robotci")
        }
        launch()
        reportBrowser()
        XCTAssertTrue(app.staticTexts["storage.title"].waitForExistence(timeout: 10))
        if let state = ProcessInfo.processInfo.environment["RELIABILITY_STATE"] {
            XCTAssertTrue(FileManager.default.createFile(atPath: state + "/holding", contents: Data()), "cannot tell the test it holds the browser: \(state)")
        }
        sleep(60)
    }

    private func reportBrowser() {
        print("warm-browser: pid \(RobotKitProcess.current.browser.browserProcessID.map(String.init) ?? "none")")
        print("warm-page: \(app.page?.targetID ?? "none")")
    }

    private func browser() throws -> ChromiumBrowser {
        try XCTUnwrap(RobotKitProcess.current.browser as? ChromiumBrowser, "the default engine is Chromium over DevTools")
    }

    /// The pages (tabs) of this launch's browser context.
    private func pagesOfThisLaunch() throws -> Int {
        let context = try XCTUnwrap(app.page?.contextID)
        let targets = try browser().command("Target.getTargets")["targetInfos"] as? [[String: Any]] ?? []
        return targets.filter { $0["type"] as? String == "page" && $0["browserContextId"] as? String == context }.count
    }
}

/// A page on the mock server that writes and reads every kind of browser storage.
enum StoragePage {
    static let path = "/storage.html"

    /// A `file://` page (the same file for every test process), for the storage of file origins.
    static func fileURL() throws -> URL {
        let url = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("robotkit-warm-storage.html")
        try Data("<!doctype html><title>file storage</title><p>file</p>".utf8).write(to: url, options: .atomic)
        return url
    }

    static func serve(on server: MockServer) async throws {
        _ = await server.stub(.GET, path, response: .html(html))
        _ = await server.stub(.GET, "/sw.js", response: .data(Data("self.addEventListener('fetch', () => {});".utf8), contentType: "text/javascript"))
    }

    static let html = """
        <!doctype html><html><head><title>storage</title></head><body>
        <h1 data-testid="storage.title">Storage</h1>
        <script>
        async function writeEverything() {
          document.cookie = "robot=1; path=/";
          localStorage.setItem("robot", "1");
          sessionStorage.setItem("robot", "1");
          await new Promise((resolve, reject) => {
            const open = indexedDB.open("robotdb", 1);
            open.onupgradeneeded = () => open.result.createObjectStore("s");
            open.onerror = () => reject(open.error);
            open.onsuccess = () => {
              const tx = open.result.transaction("s", "readwrite");
              tx.objectStore("s").put("1", "k");
              tx.oncomplete = () => { open.result.close(); resolve(); };
            };
          });
          const cache = await caches.open("robotcache");
          await cache.put("/cached", new Response("1"));
          await navigator.serviceWorker.register("/sw.js");
          await navigator.serviceWorker.ready;
          return true;
        }
        async function readEverything() {
          const databases = await indexedDB.databases();
          return {
            cookie: document.cookie,
            local: localStorage.length,
            session: sessionStorage.length,
            indexedDB: databases.length,
            caches: (await caches.keys()).length,
            workers: (await navigator.serviceWorker.getRegistrations()).length,
          };
        }
        </script></body></html>
        """
}
