import Foundation
import ProcessToolkit
import RobotCICore
import RobotCIReport
import SnapshotCompare
import XCTest

/// A failed snapshot as a person reads it in the report (issue 53): the attempt shows the
/// expected, actual and diff images side by side, a click on *Slider* stacks expected under
/// actual with a handle between them, the command that accepts the images is printed, a
/// mismatch that passed on a retry says it is a flaky snapshot; the trace viewer's failing
/// step shows the same. Real WebDriver clicks, from `file://` and over HTTP.
final class BrowserSnapshotReportTests: XCTestCase {
    private var root: URL!
    private var browser: WebDriverBrowser!
    private var server: StaticFileServer?
    private let flaky = TestID("App.ProfileTests/testBadge")
    private let failed = TestID("App.ProfileTests/testHeader")
    private let recordedID = TestID("App.ProfileTests/testRecorded")
    static let command = "robotci run --update-snapshots all --filter 'ProfileTests/testBadge$'"

    override func setUpWithError() throws {
        try XCTSkipUnless(WebDriverBrowser.isAvailable, "needs \(WebDriverBrowser.chromedriver) and \(HeadlessChromium.path)")
        root = FileManager.default.temporaryDirectory.appendingPathComponent("robotci-snapshot-report-\(UUID().uuidString)")
        let run = try writeRun()
        let kept = TraceRetention.apply(.onFailure, to: run, in: root)
        try ReportWriter.write(kept, timings: Timings(), to: root)
        browser = try WebDriverBrowser()
    }

    override func tearDownWithError() throws {
        browser?.close()
        server?.stop()
        if let root { try? FileManager.default.removeItem(at: root) }
    }

    /// A 60×40 image of one colour.
    private static func png(_ color: (UInt8, UInt8, UInt8)) throws -> Data {
        try RGBAImage(width: 60, height: 40, fill: (color.0, color.1, color.2, 255)).png()
    }

    /// `testBadge`: a mismatch, then a pass (flaky). `testHeader`: a mismatch in both attempts.
    private func writeRun() throws -> RunResult {
        func attempt(_ test: String, _ n: Int, mismatch: Bool) throws -> Attempt {
            let rel = "attachments/\(test)/\(n)"
            let folder = root.appendingPathComponent(rel)
            let trace = folder.appendingPathComponent("trace")
            try FileManager.default.createDirectory(at: trace, withIntermediateDirectories: true)
            var artifacts = [Artifact(kind: .trace, path: "\(rel)/trace/trace.json")]
            var visual: Trace.Visual?
            if mismatch {
                let stem = "snapshot-\(test).profile"
                let images = [("expected", try Self.png((46, 125, 50))), ("actual", try Self.png((183, 28, 28))), ("diff", try Self.png((255, 0, 0)))]
                var manifest: [String: Any] = [
                    "format": "robotci-snapshot-v1", "name": "profile", "kind": "mismatch", "differingPixels": 2_400, "totalPixels": 2_400,
                    "baseline": "/src/Tests/__Snapshots__/chromium/ProfileTests/\(test).profile.png", "command": Self.command,
                ]
                for (role, data) in images {
                    try data.write(to: folder.appendingPathComponent("\(stem)-\(role).png"))
                    try data.write(to: trace.appendingPathComponent("step-001-\(role).png"))
                    manifest[role] = "\(stem)-\(role).png"
                    artifacts.append(Artifact(kind: .screenshot, path: "\(rel)/\(stem)-\(role).png"))
                }
                try JSONSerialization.data(withJSONObject: manifest).write(to: folder.appendingPathComponent("\(stem).json"))
                artifacts.append(Artifact(kind: .snapshot, path: "\(rel)/\(stem).json"))
                visual = Trace.Visual(name: "profile", baseline: manifest["baseline"] as? String ?? "", kind: "mismatch", command: Self.command,
                                      pixels: (differing: 2_400, total: 2_400),
                                      images: .init(expected: "step-001-expected.png", actual: "step-001-actual.png", diff: "step-001-diff.png"))
            }
            let steps = [
                Trace.Step(index: 0, action: .init(name: "launch"), origin: .init(file: "/src/ProfileTests.swift", line: 10),
                           timing: (start: 0, duration: 0.2)),
                Trace.Step(index: 1, action: .init(name: "verify snapshot", arguments: ["profile"]),
                           origin: .init(file: "/src/ProfileTests.swift", line: 11), timing: (start: 0.2, duration: 0.1),
                           verdict: mismatch ? .failed("snapshot \"profile\" does not match its baseline") : .passed),
            ]
            var t = Trace(test: test, attempt: n, steps: steps)
            t.steps[1].visual = visual
            try JSONEncoder().encode(t).write(to: trace.appendingPathComponent("trace.json"))
            return Attempt(number: n, outcome: mismatch ? .failed : .passed, duration: 0.3, start: Double(n), placement: .init(shard: 0, batch: n),
                           evidence: .init(
                               failures: mismatch ? [FailureMessage(file: "/src/ProfileTests.swift", line: 11, message: "snapshot does not match")] : [],
                               artifacts: artifacts))
        }
        let badge = TestRecord(id: flaky, attempts: [try attempt("badge", 1, mismatch: true), try attempt("badge", 2, mismatch: false)])
        let header = TestRecord(id: failed, attempts: [try attempt("header", 1, mismatch: true), try attempt("header", 2, mismatch: true)])
        var recordedAttempt = try attempt("recorded", 1, mismatch: true)
        // The same files, as a missing baseline that was recorded: the retry then passed against it.
        let manifest = root.appendingPathComponent("attachments/recorded/1/snapshot-recorded.profile.json")
        var fields = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: manifest)) as? [String: Any])
        fields["kind"] = "missing"
        try JSONSerialization.data(withJSONObject: fields).write(to: manifest)
        recordedAttempt.failures = [FailureMessage(message: "no baseline for snapshot \"profile\": recorded")]
        let recorded = TestRecord(id: recordedID, attempts: [recordedAttempt, try attempt("recorded", 2, mismatch: false)])
        var metadata = RunMetadata(runID: "snapshots", startedAt: 1_000, wallTime: 3, shards: 1, retries: 1, robotciVersion: "test")
        metadata.commandLine = ["robotci", "run"]
        return RunResult(metadata: metadata, tests: [badge, header, recorded], batches: [])
    }

    private func open(_ index: URL, _ test: TestID) throws {
        var c = URLComponents(url: index, resolvingAgainstBaseURL: false)
        c?.percentEncodedFragment = "test=" + (test.description.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")
        try browser.navigate(try XCTUnwrap(c?.url))
        try browser.waitUntil("document.body.getAttribute('data-ready') === 'true' && !document.getElementById('detail').hidden"
                              + " && document.getElementById('detail').getAttribute('data-test') === \(try json(test.description))")
    }

    private func json(_ text: String) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: text, options: .fragmentsAllowed), as: UTF8.self)
    }

    func testFromDisk() throws {
        try clickThrough(root.appendingPathComponent("index.html"))
    }

    func testOverHTTP() throws {
        let server = try StaticFileServer(root: root)
        self.server = server
        try clickThrough(server.index)
    }

    private func clickThrough(_ index: URL) throws {
        try open(index, flaky)
        let card = "article[data-outcome=failed] .snapshot[data-snapshot=profile]"
        // Side by side: the three images, loaded.
        try browser.waitUntil("[...document.querySelectorAll('\(card) .snap-side img')].length === 3"
                              + " && [...document.querySelectorAll('\(card) .snap-side img')].every(i => i.complete && i.naturalWidth === 60)")
        XCTAssertEqual(try browser.script("return [...document.querySelectorAll('\(card) .snap-side img')].map(i => i.getAttribute('data-role'));")
                       as? [String], ["expected", "actual", "diff"])
        XCTAssertTrue((try browser.script("return document.querySelector('\(card) h5').textContent;") as? String)?
            .contains("2400 pixels differ (100.00 %)") == true)
        XCTAssertEqual(try browser.script("return document.querySelector('article[data-outcome=failed] .accept-command').textContent;") as? String,
                       Self.command)
        XCTAssertTrue((try browser.script("return document.querySelector('article[data-outcome=failed] .flaky-snapshot').textContent;")
                       as? String)?.hasPrefix("Flaky snapshot: this mismatch passed on a retry") == true)
        XCTAssertEqual(try browser.script("return document.querySelectorAll('article[data-outcome=passed] .snapshot').length;") as? Int, 0)
        XCTAssertEqual(try browser.script("return document.querySelectorAll('article h4').length && [...document.querySelectorAll('article h4')].filter(x => x.textContent === 'Screenshot').length;") as? Int,
                       0, "the snapshot's images are not shown again as screenshots")

        // A click on Slider: expected under actual, the handle at the middle; Home moves it to the left edge.
        try browser.click(try browser.element("\(card) button.snap-mode[data-mode=slider]"))
        try browser.waitUntil("document.querySelector('\(card) .snap-compare').getAttribute('data-mode') === 'slider'")
        XCTAssertEqual(try browser.script("return document.querySelector('\(card) .snap-side').hidden;") as? Bool, true)
        XCTAssertEqual(try browser.script("return document.querySelector('\(card) .snap-slider').hidden;") as? Bool, false)
        XCTAssertEqual(try browser.script("return document.querySelector('\(card) button[data-mode=slider]').getAttribute('aria-pressed');") as? String, "true")
        let clip = "document.querySelector('\(card) .snap-stack img[data-role=actual]').style.clipPath"
        XCTAssertEqual(try browser.script("return \(clip);") as? String, "inset(0px 0px 0px 50%)")
        try browser.waitUntil("document.querySelector('\(card) .snap-stack img[data-role=expected]').naturalWidth === 60")
        let range = try browser.element("\(card) input.snap-range")
        try browser.click(range)
        try browser.sendKeys(range, "\u{E011}")  // Home
        try browser.waitUntil("\(clip) === 'inset(0px 0px 0px 0%)'")
        try browser.click(try browser.element("\(card) button.snap-mode[data-mode=side]"))
        try browser.waitUntil("document.querySelector('\(card) .snap-compare').getAttribute('data-mode') === 'side'"
                              + " && !document.querySelector('\(card) .snap-side').hidden")

        // The failing attempt's trace: its failing step shows the same three images.
        try browser.click(try browser.element("article[data-outcome=failed] a.trace-link"))
        try browser.waitUntil("location.pathname.endsWith('/badge/1/trace/viewer.html') && document.body.getAttribute('data-ready') === 'true'")
        try browser.click(try browser.element("#steps li.failed"))
        try browser.waitUntil("document.getElementById('step').getAttribute('data-step') === '2'")
        let step = "#step .side .snapshot[data-snapshot=profile]"
        try browser.waitUntil("[...document.querySelectorAll('\(step) .snap-side img')].length === 3"
                              + " && [...document.querySelectorAll('\(step) .snap-side img')].every(i => i.complete && i.naturalWidth === 60)")
        XCTAssertEqual(try browser.script("return document.querySelector('\(step) .accept-command').textContent;") as? String, Self.command)
        try browser.click(try browser.element("\(step) button.snap-mode[data-mode=slider]"))
        try browser.waitUntil("document.querySelector('\(step) .snap-compare').getAttribute('data-mode') === 'slider'"
                              + " && document.querySelector('\(step) .snap-stack img[data-role=actual]').naturalWidth === 60")

        // A test that failed every time: a plain mismatch, not a flaky one.
        try open(index, failed)
        try browser.waitUntil("document.querySelectorAll('#attempts .snapshot').length === 2")
        XCTAssertEqual(try browser.script("return document.querySelectorAll('#attempts .flaky-snapshot').length;") as? Int, 0)

        // A missing baseline recorded by the first attempt, the retry passing against it: flaky, but not a flaky snapshot.
        try open(index, recordedID)
        try browser.waitUntil("document.querySelectorAll('#attempts .snapshot[data-kind=missing]').length === 1")
        XCTAssertEqual(try browser.script("return document.querySelectorAll('#attempts .flaky-snapshot').length;") as? Int, 0)
        XCTAssertTrue((try browser.script("return document.querySelector('#attempts .snapshots').textContent;") as? String)?
            .contains("The retry passed against the baseline this attempt recorded") == true)
    }
}
