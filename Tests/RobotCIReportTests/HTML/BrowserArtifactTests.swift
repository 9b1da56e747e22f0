import Foundation
import ProcessToolkit
import RobotCICore
import RobotCIReport
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// Artifact files a test (or a merged results.json) hands the report, opened in a real
/// Chromium over HTTP, where an opened active file would share the report's origin (issue 27).
final class BrowserArtifactTests: XCTestCase {
    private var root: URL!
    private var server: StaticFileServer?
    private var browser: WebDriverBrowser!
    private let test = TestID("Hostile.ArtifactTests/testLeavesActiveFiles")

    /// Each active file's script marks the report's origin if it ever runs.
    private static func mark(_ name: String) -> String { "localStorage.setItem('ran-\(name)','1')" }
    static let active: [(name: String, kind: Artifact.Kind, body: String)] = [
        ("evil.svg", .other, #"<svg xmlns="http://www.w3.org/2000/svg"><script>\#(mark("svg"))</script></svg>"#),
        ("evil.htm", .other, "<script>\(mark("htm"))</script>"),
        ("evil.xhtml", .other, #"<html xmlns="http://www.w3.org/1999/xhtml"><body><script>\#(mark("xhtml"))</script></body></html>"#),
        ("page.html", .html, "<script>\(mark("html"))</script>"),
        // What a hostile merged results.json may claim: an SVG "screenshot", an HTML "log".
        ("claimed-screenshot.svg", .screenshot, #"<svg xmlns="http://www.w3.org/2000/svg"><script>\#(mark("claimed"))</script></svg>"#),
        ("claimed-log.html", .log, "<script>\(mark("claimedlog"))</script>"),
    ]

    override func setUpWithError() throws {
        try XCTSkipUnless(WebDriverBrowser.isAvailable, "needs \(WebDriverBrowser.chromedriver) and \(HeadlessChromium.path)")
        root = FileManager.default.temporaryDirectory.appendingPathComponent("robotci-artifacts-\(UUID().uuidString)")
        let folder = "attachments/hostile/1"
        let files = root.appendingPathComponent(folder)
        try FileManager.default.createDirectory(at: files, withIntermediateDirectories: true)
        var artifacts: [Artifact] = []
        for file in Self.active {
            try Data(file.body.utf8).write(to: files.appendingPathComponent(file.name))
            artifacts.append(Artifact(kind: file.kind, path: "\(folder)/\(file.name)"))
        }
        try ReportFixtures.pngPixel.write(to: files.appendingPathComponent("shot.png"))
        try Data("plain notes".utf8).write(to: files.appendingPathComponent("notes.txt"))
        artifacts += [Artifact(kind: .screenshot, path: "\(folder)/shot.png"), Artifact(kind: .other, path: "\(folder)/notes.txt")]
        let attempt = Attempt(number: 1, outcome: .failed, duration: 1, start: 0, placement: .init(shard: 0, batch: 0),
                              evidence: .init(failures: [FailureMessage(message: "boom")], output: "", artifacts: artifacts))
        let run = RunResult(metadata: ReportFixtures.metadata(wall: 1, shards: 1), tests: [TestRecord(id: test, attempts: [attempt])],
                            batches: [])
        try HTMLReport.write(run, to: root)
        browser = try WebDriverBrowser()
    }

    override func tearDownWithError() throws {
        browser?.close()
        server?.stop()
        if let root { try? FileManager.default.removeItem(at: root) }
    }

    /// The report folder over HTTP.
    private func serve() throws -> URL {
        let server = try StaticFileServer(root: root)
        self.server = server
        return server.index
    }

    private func openDetail(_ base: URL) throws {
        var c = URLComponents(url: base, resolvingAgainstBaseURL: false)
        c?.percentEncodedFragment = "test=" + (test.description.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")
        try browser.navigate(try XCTUnwrap(c?.url))
        try browser.waitUntil("document.body.getAttribute('data-ready') === 'true' && !document.getElementById('detail').hidden")
    }

    /// Before: every one of these opened in a new tab (the SVG "screenshot" also as the image's
    /// link) and its script ran in the report's origin. Now they download, the images and text
    /// open, and no script of theirs runs.
    func testActiveFilesDownloadAndNeverRunInTheReportsOrigin() throws {
        let base = try serve()
        try openDetail(base)
        // A real click on each active file's link: no new tab, the report stays, no script ran.
        for file in Self.active {
            let selector = "#detail .links a[href$=\"/\(file.name)\"]"
            try browser.click(try browser.element(selector))
            usleep(300_000)
            XCTAssertEqual(try browser.windowHandles().count, 1, "\(file.name) opened no tab")
            XCTAssertEqual(try browser.script("return location.pathname;") as? String, "/index.html", file.name)
        }
        let deadline = Date().addingTimeInterval(5)
        var downloaded: [String] = []
        while Date() < deadline {
            downloaded = (try? FileManager.default.contentsOfDirectory(atPath: browser.downloads.path))?.filter { !$0.hasSuffix(".crdownload") } ?? []
            if downloaded.count >= Self.active.count { break }
            usleep(100_000)
        }
        XCTAssertEqual(Set(downloaded), Set(Self.active.map(\.name)), "each one was downloaded")
        let ran = try browser.script("return Object.keys(localStorage).filter(k => k.startsWith('ran-'));") as? [String]
        XCTAssertEqual(ran, [], "no artifact's script ran in the report's origin")

        let links = try XCTUnwrap(try browser.script("""
            return [...document.querySelectorAll('#detail a[href^="attachments/"]')].map(a =>
              [decodeURIComponent(a.getAttribute('href').split('/').pop()), a.getAttribute('data-opening'), a.hasAttribute('download'), a.getAttribute('target')]);
            """) as? [[Any]])
        var byName: [String: (opening: String?, download: Bool, target: String?)] = [:]
        for l in links { byName[l[0] as? String ?? ""] = (l[1] as? String, l[2] as? Bool ?? false, l[3] as? String) }
        for file in Self.active {
            let link = try XCTUnwrap(byName[file.name], "\(file.name) is listed: \(byName.keys)")
            XCTAssertEqual(link.opening, "download", file.name)
            XCTAssertTrue(link.download, file.name)
            XCTAssertNil(link.target, file.name)
        }
        XCTAssertEqual(byName["shot.png"]?.opening, "image")
        XCTAssertEqual(byName["notes.txt"]?.opening, "text")
        XCTAssertEqual(byName["notes.txt"]?.target, "_blank")
        XCTAssertEqual(try browser.script("return document.querySelectorAll('#detail img.shot').length;") as? Int, 1, "only the PNG is shown")

        // The inert text file does open in a tab.
        try browser.click(try browser.element("#detail a[data-opening=\"text\"]"))
        let opened = Date().addingTimeInterval(5)
        while try browser.windowHandles().count < 2 && Date() < opened { usleep(50_000) }
        XCTAssertEqual(try browser.windowHandles().count, 2, "notes.txt opens in a new tab")
    }

    /// From `file://` (a report opened from disk or a CI artifact) Chromium ignores `download`
    /// (file URLs are cross-origin to each other) and opens the file, whose script shares the
    /// storage of every file:// page. Before: these links opened and their scripts ran. Now an
    /// active file is named with its path but not linked; images and text still are.
    func testActiveFilesFromDiskAreNotOpenable() throws {
        try openDetail(root.appendingPathComponent("index.html"))
        let hrefs = try XCTUnwrap(try browser.script("return [...document.querySelectorAll('#detail a[href]')].map(a => a.getAttribute('href'));") as? [String])
        for file in Self.active {
            XCTAssertFalse(hrefs.contains { $0.hasSuffix("/" + file.name) }, "\(file.name) is not linked: \(hrefs)")
        }
        XCTAssertTrue(hrefs.contains { $0.hasSuffix("/notes.txt") } && hrefs.contains { $0.hasSuffix("/shot.png") }, "\(hrefs)")
        let named = try XCTUnwrap(try browser.script("return [...document.querySelectorAll('#detail .nolink')].map(e => e.textContent);") as? [String])
        XCTAssertEqual(named.count, Self.active.count, "\(named)")
        XCTAssertTrue(named.contains { $0.contains("attachments/hostile/1/evil.svg") }, "\(named)")
        // Every link there is, clicked: none runs an artifact's script.
        for href in hrefs where href.hasPrefix("attachments/") {
            try browser.click(try browser.element("#detail a[href=\"\(href)\"]"))
            usleep(300_000)
        }
        let ran = try browser.script("return Object.keys(localStorage).filter(k => k.startsWith('ran-'));") as? [String]
        XCTAssertEqual(ran, [], "no artifact's script ran")
    }
}
