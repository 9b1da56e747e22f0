import Foundation
import ProcessToolkit
import RobotCICore
import RobotCIReport
import XCTest

/// The step trace viewer as a person uses it (issue 37): from the report, open the failing
/// test, follow its trace link, click a step, see its screenshot and its DOM snapshot (in a
/// sandboxed frame where the snapshot's script does not run), and the passing attempt's step
/// beside it; from `file://` and over HTTP. Real WebDriver clicks throughout.
final class BrowserTraceViewerTests: XCTestCase {
    private var root: URL!
    private var browser: WebDriverBrowser!
    private var server: StaticFileServer?
    private let test = TestID("App.CheckoutTests/testGreeting")

    override func setUpWithError() throws {
        try XCTSkipUnless(WebDriverBrowser.isAvailable, "needs \(WebDriverBrowser.chromedriver) and \(HeadlessChromium.path)")
        root = FileManager.default.temporaryDirectory.appendingPathComponent("robotci-trace-viewer-\(UUID().uuidString)")
        let run = try Self.writeRun(into: root)
        let kept = TraceRetention.apply(.onFailure, to: run, in: root)
        try ReportWriter.write(kept, timings: Timings(), to: root)
        browser = try WebDriverBrowser()
    }

    override func tearDownWithError() throws {
        browser?.close()
        server?.stop()
        if let root { try? FileManager.default.removeItem(at: root) }
    }

    /// A flaky test whose first attempt got 500 from `/me`, and a passing test whose trace
    /// `on-failure` deletes. Each step has a JPEG and a snapshot whose script would mark the
    /// page if it ran.
    static func writeRun(into root: URL) throws -> RunResult {
        func attempt(_ n: Int, status: Int, outcome: AttemptOutcome, test: String) throws -> Attempt {
            let rel = "attachments/\(test)/\(n)"
            let folder = root.appendingPathComponent(rel).appendingPathComponent("trace")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            var steps: [Trace.Step] = []
            for (i, (name, target)) in [("launch", ""), ("wait", "staticTexts[\"greeting\"]"), ("label", "staticTexts[\"greeting\"]")].enumerated() {
                // The page says who it greets once /me has answered (during step 1).
                let greeting = i == 0 ? "Loading" : status == 200 ? "Hello, Alice" : "Hello, stranger"
                try Self.jpeg.write(to: folder.appendingPathComponent("step-00\(i).jpg"))
                try Data("<html><body><p id=\"g\">\(greeting)</p><script>parent.document.body.setAttribute('data-pwned','1');document.body.setAttribute('data-ran','1')</script></body></html>".utf8)
                    .write(to: folder.appendingPathComponent("step-00\(i).html"))
                steps.append(Trace.Step(
                    index: i, action: .init(name: name, target: target),
                    origin: .init(group: "GreetingRobot.check()", file: "/src/GreetingRobot.swift", line: 10 + i),
                    timing: (start: Double(i) * 0.2, duration: 0.15),
                    verdict: outcome.isFailure && i == 2 ? .failed("XCTAssertEqual failed: Hello, stranger") : .passed,
                    evidence: .init(
                        screenshot: "step-00\(i).jpg", snapshot: "step-00\(i).html", text: greeting,
                        requests: i == 1 ? [Trace.Request(method: "GET", path: "/me", route: "GET /me", status: status)] : [],
                        console: i == 1 && status != 200 ? [Trace.ConsoleLine(level: "SEVERE", message: "GET /me 500")] : [])))
            }
            let trace = Trace(test: test, attempt: n, steps: steps)
            try JSONEncoder().encode(trace).write(to: folder.appendingPathComponent("trace.json"))
            return Attempt(number: n, outcome: outcome, duration: 0.6, start: Double(n), placement: .init(shard: n - 1, batch: n),
                           evidence: .init(
                               failures: outcome.isFailure ? [FailureMessage(file: "/src/GreetingRobot.swift", line: 12, message: "XCTAssertEqual failed")] : [],
                               artifacts: [Artifact(kind: .trace, path: "\(rel)/trace/trace.json")]))
        }
        let flaky = TestRecord(id: TestID("App.CheckoutTests/testGreeting"), attempts: [
            try attempt(1, status: 500, outcome: .failed, test: "greeting"), try attempt(2, status: 200, outcome: .passed, test: "greeting"),
        ])
        let passed = TestRecord(id: TestID("App.CheckoutTests/testPasses"), attempts: [
            try attempt(1, status: 200, outcome: .passed, test: "passes"),
        ])
        var metadata = RunMetadata(runID: "trace-viewer", startedAt: 1_000, wallTime: 3, shards: 2, retries: 1, robotciVersion: "test")
        metadata.commandLine = ["robotci", "run"]
        return RunResult(metadata: metadata, tests: [flaky, passed], batches: [])
    }

    /// A 2×2 grey JPEG.
    static let jpeg = Data(base64Encoded: "/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAAMCAgICAgMCAgIDAwMDBAYEBAQEBAgGBgUGCQgKCgkICQkKDA8MCgsOCwkJDRENDg8QEBEQCgwSExIQEw8QEBD/wAALCAACAAIBAREA/8QAFAABAAAAAAAAAAAAAAAAAAAACf/EABQQAQAAAAAAAAAAAAAAAAAAAAD/2gAIAQEAAD8AKp//2Q==")!

    /// The report folder over HTTP.
    private func serve() throws -> URL {
        let server = try StaticFileServer(root: root)
        self.server = server
        return server.index
    }

    func testKeepsOnlyTheFlakyTestsTracesAndMarksWhereItParted() throws {
        let failing = try TraceRetention.read(root.appendingPathComponent("attachments/greeting/1/trace/trace.json"))
        let divergence = try XCTUnwrap(failing.firstDivergence)
        XCTAssertEqual(divergence.step, 1)
        XCTAssertEqual(divergence.reason, "GET /me answered 500 here, 200 in attempt 2")
        XCTAssertEqual(divergence.passingTrace, "../../2/trace/trace.json")
        XCTAssertTrue(FileManager.default.fileExists(atPath: root.appendingPathComponent("attachments/greeting/2/trace/viewer.html").path),
                      "the passing attempt of a flaky test keeps its trace")
        XCTAssertFalse(FileManager.default.fileExists(atPath: root.appendingPathComponent("attachments/passes/1/trace").path),
                       "on-failure deletes a passing test's trace")
        let results = try String(contentsOf: root.appendingPathComponent("results.json"), encoding: .utf8)
        XCTAssertFalse(results.contains("passes/1/trace"), "and no longer links it")
    }

    func testFromDisk() throws {
        try clickThrough(root.appendingPathComponent("index.html"))
    }

    func testOverHTTP() throws {
        try clickThrough(try serve())
    }

    private func clickThrough(_ index: URL) throws {
        var c = URLComponents(url: index, resolvingAgainstBaseURL: false)
        c?.percentEncodedFragment = "test=" + (test.description.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")
        try browser.navigate(try XCTUnwrap(c?.url))
        try browser.waitUntil("document.body.getAttribute('data-ready') === 'true' && !document.getElementById('detail').hidden")
        let summary = try XCTUnwrap(try browser.script("return document.querySelector('article[data-outcome=failed] .trace').textContent;") as? String)
        XCTAssertTrue(summary.contains("Parted from attempt 2 at step 2: GET /me answered 500 here, 200 in attempt 2"), summary)

        // The failing attempt's trace link, clicked.
        try browser.click(try browser.element("article[data-outcome=failed] a.trace-link"))
        try browser.waitUntil("location.pathname.endsWith('/greeting/1/trace/viewer.html') && document.body.getAttribute('data-ready') === 'true'")
        XCTAssertNil(try browser.script("return document.body.getAttribute('data-error');") as? String)
        XCTAssertEqual(try browser.script("return document.querySelectorAll('#steps li').length;") as? Int, 3)
        XCTAssertEqual(try browser.script("return document.querySelector('#steps li.failed').getAttribute('data-step');") as? String, "3",
                       "the failing step is marked")
        XCTAssertEqual(try browser.script("return document.querySelector('#steps li.diverged').getAttribute('data-step');") as? String, "2",
                       "and where it parted from the passing attempt")
        XCTAssertEqual(try browser.script("return document.getElementById('step').getAttribute('data-step');") as? String, "2",
                       "the viewer opens at the divergence")

        // Click step 1: its screenshot and snapshot show, beside the passing attempt's.
        try browser.click(try browser.element("#step-1"))
        try browser.waitUntil("document.getElementById('step').getAttribute('data-step') === '1'")
        try browser.waitUntil("[...document.querySelectorAll('#step img.shot')].length === 2 && [...document.querySelectorAll('#step img.shot')].every(i => i.complete && i.naturalWidth > 0)")
        let frames = try XCTUnwrap(try browser.script("return [...document.querySelectorAll('#step iframe.snapshot')].map(f => [f.getAttribute('sandbox'), f.getAttribute('src')]);") as? [[String]])
        XCTAssertEqual(frames.map { $0[0] }, ["", ""], "snapshots sit in sandboxed frames with no allowance")
        XCTAssertEqual(frames.map { $0[1] }, ["step-000.html", "../../2/trace/step-000.html"])
        try browser.switchToFrame(try browser.element("#step iframe.snapshot"))
        try browser.waitUntil("document.getElementById('g') !== null")
        XCTAssertEqual(try browser.script("return document.getElementById('g').textContent;") as? String, "Loading")
        XCTAssertNil(try browser.script("return document.body.getAttribute('data-ran');") as? String, "the snapshot's script did not run")
        try browser.switchToFrame(nil)
        XCTAssertNil(try browser.script("return document.body.getAttribute('data-pwned');") as? String)

        // Step 2 (where it parted): the two answers side by side.
        try browser.click(try browser.element("#step-2"))
        try browser.waitUntil("document.getElementById('step').getAttribute('data-step') === '2'")
        let statuses = try XCTUnwrap(try browser.script("return [...document.querySelectorAll('#step table.requests')].map(t => t.textContent);") as? [String])
        XCTAssertEqual(statuses.count, 2)
        XCTAssertTrue(statuses[0].contains("GET /me") && statuses[0].contains("500"), statuses[0])
        XCTAssertTrue(statuses[1].contains("GET /me") && statuses[1].contains("200"), statuses[1])

        // Back to the report, at the test.
        try browser.click(try browser.element("#back"))
        try browser.waitUntil("location.pathname.endsWith('/index.html') && document.body.getAttribute('data-ready') === 'true' && !document.getElementById('detail').hidden")
    }
}
