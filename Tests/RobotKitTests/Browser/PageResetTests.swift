@testable import RobotKit
import XCTest

/// What `isolation: reset` clears is found from URLs: the origins of a context's pages,
/// frames, workers and history. (The reset itself runs in a real browser:
/// `WarmBrowserEndToEndTests.testResetIsolationKeepsThePageAndLeavesNothingOfTheLastTest`.)
final class PageResetTests: XCTestCase {
    func testAnOriginIsSchemeHostAndPortAndAFileIsTheFileOrigin() {
        XCTAssertEqual(PageReset.origin(of: "http://127.0.0.1:8080/a/b?c#d"), "http://127.0.0.1:8080")
        XCTAssertEqual(PageReset.origin(of: "HTTPS://Example.COM/x"), "https://example.com")
        XCTAssertEqual(PageReset.origin(of: "http://[::1]:9000/"), "http://[::1]:9000")
        XCTAssertEqual(PageReset.origin(of: "file:///tmp/app/index.html"), "file://")
    }

    func testURLsWithNoStorageOfTheirOwnHaveNoOrigin() {
        for url in ["about:blank", "data:text/html,<p>", "blob:http://a/1", "chrome-error://chromewebdata/", "", "http://", "not a url"] {
            XCTAssertNil(PageReset.origin(of: url), url)
        }
        XCTAssertNil(PageReset.origin(of: nil))
    }

    func testEveryFrameOfATreeIsFound() {
        let tree: [String: Any] = [
            "frame": ["url": "http://a.test/"],
            "childFrames": [
                ["frame": ["url": "http://b.test/"], "childFrames": [["frame": ["url": "https://c.test/x"]]]],
                ["frame": ["url": "about:blank"]],
            ],
        ]
        XCTAssertEqual(PageReset.frameURLs(tree), ["http://a.test/", "http://b.test/", "https://c.test/x", "about:blank"])
    }

    func testTheWindowSizeIsTheLastWindowSizeSwitch() {
        XCTAssertTrue(PageReset.windowSize(in: ["--window-size=800,600", "--headless=new", "--window-size=1024,768"]).map { $0 == (1024, 768) } ?? false)
        XCTAssertNil(PageReset.windowSize(in: ["--headless=new"]))
        XCTAssertNil(PageReset.windowSize(in: ["--window-size=wide"]))
    }
}
