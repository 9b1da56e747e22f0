import BrowserTools
import Foundation
import SnapshotCompare
import Testing
import WorkerContract
import XCTest

@testable import RobotKit

/// `verifySnapshot` in Chromium on a page that moves (a gradient, shadows, running CSS
/// animations, a transition under way, accented text, a focused input), baselines in a folder
/// of the test's own. Failures are caught here and checked, not reported.
final class SnapshotTests: XCTestCase {
    private var app: WebApp!
    private var root: URL!
    private var failures: [(message: String, line: Int)] = []
    private var capturesFailures = false

    override func recordFailure(withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool) {
        guard capturesFailures else {
            return super.recordFailure(withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
        }
        failures.append((description, lineNumber))
    }

    override func setUpWithError() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("robotkit-snapshots-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    }

    override func tearDown() async throws {
        app?.terminate()
        app = nil
        if let root { try? FileManager.default.removeItem(at: root) }
        try await super.tearDown()
    }

    private func launch(_ environment: [String: String] = [:]) {
        app?.terminate()
        app = WebApp(url: Fixture.url("snapshot.html"))
        app.launchEnvironment = environment
        app.launch()
    }

    /// Runs `body` with failures caught; returns them.
    private func caught(_ body: () -> Void) -> [(message: String, line: Int)] {
        failures = []
        capturesFailures = true
        body()
        capturesFailures = false
        return failures
    }

    private func settings(_ update: SnapshotUpdate = .none) -> SnapshotSettings {
        SnapshotSettings(update: update, root: root)
    }

    private func viewport(_ name: String, _ update: SnapshotUpdate = .none, line: UInt = #line) -> Bool {
        app.verifySnapshot(name, of: nil, tolerance: nil, settings: settings(update), at: Caller(function: #function, file: #filePath, line: line))
    }

    private func element(_ id: String, _ name: String, _ update: SnapshotUpdate = .none, line: UInt = #line) -> Bool {
        app.verifySnapshot(name, of: app.descendants(matching: .any)[id], tolerance: nil, settings: settings(update),
                           at: Caller(function: #function, file: #filePath, line: line))
    }

    private func baseline(_ test: String, _ name: String) -> URL {
        root.appendingPathComponent("chromium/SnapshotTests/\(test).\(name).png")
    }

    func testAMovingPageIsRecordedOnceThenMatchesOnEveryLaunch() throws {
        launch()
        var recordLine = 0
        let missing = caught {
            recordLine = #line + 1
            XCTAssertFalse(viewport("page"))
        }
        XCTAssertEqual(missing.count, 1)
        XCTAssertEqual(missing.first?.line, recordLine, "the failure is at the caller's line")
        XCTAssertTrue(missing.first?.message.contains("no baseline for snapshot \"page\"") == true, "\(missing)")
        let file = baseline("testAMovingPageIsRecordedOnceThenMatchesOnEveryLaunch", "page")
        let recorded = try RGBAImage(png: Data(contentsOf: file))
        XCTAssertEqual(recorded.width, 1024)
        XCTAssertEqual(recorded.height, 768)
        XCTAssertTrue(element("activity", "activity", .missing), "missing records and passes")
        XCTAssertTrue(element("query", "field", .missing))

        // Every launch is another moment of the spinner, the pulse, the transition and the caret.
        for round in 0..<4 {
            launch()
            if round % 2 == 1 { Thread.sleep(forTimeInterval: 0.35) }
            let found = caught {
                XCTAssertTrue(viewport("page"))
                XCTAssertTrue(element("activity", "activity"))
                XCTAssertTrue(element("query", "field"))
            }
            XCTAssertEqual(found.map(\.message), [], "round \(round)")
        }
        // The page goes on moving after the check: its animations were thawed.
        let playing = try XCTUnwrap(app.evaluate("return document.getAnimations().filter(a => a.playState === 'running').length") as? Int)
        XCTAssertGreaterThanOrEqual(playing, 2)
        XCTAssertEqual(try app.evaluate("return !!document.getElementById('__robotkit_snapshot_freeze')") as? Bool, false)
    }

    func testAColourChangeFailsOnlyTheSnapshotsThatShowItAndAllAcceptsIt() throws {
        launch()
        XCTAssertTrue(viewport("page", .missing))
        XCTAssertTrue(element("profile", "profile", .missing))
        XCTAssertTrue(element("search", "search", .missing))

        launch(["BADGE_COLOR": "#b71c1c"])
        var lines: [Int] = []
        let found = caught {
            lines.append(#line + 1)
            XCTAssertFalse(viewport("page"))
            lines.append(#line + 1)
            XCTAssertFalse(element("profile", "profile"))
            XCTAssertTrue(element("search", "search"), "the search card does not show the badge")
        }
        XCTAssertEqual(found.map(\.line), lines)
        XCTAssertTrue(found.allSatisfy { $0.message.contains("does not match its baseline") }, "\(found)")
        XCTAssertTrue(found[0].message.contains("robotci run --update-snapshots all --filter 'SnapshotTests/testAColourChange"), found[0].message)
        // The three images and the manifest, where the message says.
        let folder = try XCTUnwrap(found[1].message.range(of: "(images: ").map { String(found[1].message[$0.upperBound...].prefix { $0 != ")" }) })
        let stem = "snapshot-testAColourChangeFailsOnlyTheSnapshotsThatShowItAndAllAcceptsIt.profile"
        for role in ["expected", "actual", "diff"] {
            let image = try RGBAImage(png: Data(contentsOf: URL(fileURLWithPath: folder).appendingPathComponent("\(stem)-\(role).png")))
            XCTAssertGreaterThan(image.width, 100, role)
        }
        let manifest = try XCTUnwrap(JSONSerialization.jsonObject(
            with: Data(contentsOf: URL(fileURLWithPath: folder).appendingPathComponent("\(stem).json"))) as? [String: Any])
        XCTAssertEqual(manifest["kind"] as? String, "mismatch")
        let differing = try XCTUnwrap(manifest["differingPixels"] as? Int)
        XCTAssertGreaterThan(differing, 500, "the badge's background")
        XCTAssertLessThan(differing, 5_000, "only the badge")

        // --update-snapshots all accepts the new colour; then it matches.
        XCTAssertTrue(viewport("page", .all))
        XCTAssertTrue(element("profile", "profile", .all))
        let after = caught {
            XCTAssertTrue(viewport("page"))
            XCTAssertTrue(element("profile", "profile"))
        }
        XCTAssertEqual(after.map(\.message), [])
    }

    func testAOnePixelLineIsCaught() throws {
        launch()
        XCTAssertTrue(viewport("page", .missing))
        XCTAssertTrue(element("intro", "intro", .missing))
        launch(["LINE": "1"])
        let found = caught {
            XCTAssertFalse(viewport("page"))
        }
        XCTAssertEqual(found.count, 1)
        let message = found.first?.message ?? ""
        // The line is 1×90 px on a diagonal gradient; a few of its pixels may pass for anti-aliasing.
        let count = message.range(of: " pixels differ").flatMap { Int(message[..<$0.lowerBound].split(separator: " ").last ?? "") }
        XCTAssertGreaterThanOrEqual(count ?? 0, 80, message)
        XCTAssertLessThanOrEqual(count ?? .max, 90, message)
        XCTAssertTrue(element("intro", "intro"), "the intro's box does not reach the line")
    }

    func testAPageThatNeverHoldsStillFailsSayingSo() {
        launch(["CLOCK": "1"])
        let found = caught {
            XCTAssertFalse(viewport("clock", .missing))
        }
        XCTAssertEqual(found.count, 1)
        XCTAssertTrue(found.first?.message.contains("did not hold still") == true, "\(found)")
        XCTAssertFalse(FileManager.default.fileExists(atPath: baseline("testAPageThatNeverHoldsStillFailsSayingSo", "clock").path))
    }

    /// This machine has DejaVu, which its fontconfig makes `sans-serif`; a CI image with only
    /// fonts-liberation would draw Liberation. The browser sees Liberation alone (BrowserFonts).
    func testTheBrowserDrawsWithLiberationWhateverTheMachineHas() throws {
        launch()
        let widths = try XCTUnwrap(app.evaluate("""
            const c = document.createElement('canvas').getContext('2d');
            const w = (f) => { c.font = '20px ' + f; return c.measureText('Wafflé Quartz 0123 ijl').width; };
            return [w('sans-serif'), w('"Liberation Sans"'), w('"DejaVu Sans"'), w('Arial'), w('serif'), w('"Liberation Serif"'),
                    w('monospace'), w('"Liberation Mono"'), w('"Some Font Nobody Has"')];
            """) as? [Double])
        XCTAssertEqual(widths[0], widths[1], "sans-serif is Liberation Sans")
        XCTAssertEqual(widths[2], widths[8], "DejaVu is not there: it falls back as an unknown family does")
        XCTAssertEqual(widths[3], widths[1], "Arial is Liberation Sans")
        XCTAssertEqual(widths[4], widths[5], "serif is Liberation Serif")
        XCTAssertNotEqual(widths[4], widths[1])
        XCTAssertEqual(widths[6], widths[7], "monospace is Liberation Mono")
        XCTAssertEqual(widths[8], widths[5], "an unknown family is Chromium's standard font, Times: Liberation Serif")
    }

    func testAnElementThatIsNotThereFailsAtTheCallersLine() {
        launch()
        app.implicitWaitTimeout = 0.2
        var line = 0
        let found = caught {
            line = #line + 1
            XCTAssertFalse(element("nothing-here", "none", .missing))
        }
        XCTAssertEqual(found.map(\.line), [line])
        XCTAssertTrue(found.first?.message.contains("no matches found") == true, "\(found)")
    }
}

/// Naming a snapshot's baseline from the running test.
final class SnapshotLocationTests: XCTestCase {
    func testTheTestMethodIsReadFromItsSymbol() {
        for symbol in [
            "SnapshotTests.testA()", "RobotKitTests.SnapshotTests.testA() -> ()", "closure #1 in SnapshotTests.testA()",
            "(1) suspend resume partial function for SnapshotTests.testA()", "M.SnapshotTests.testA() async throws -> ()",
        ] {
            let found = CallSite.testMethod(in: symbol)
            XCTAssertEqual(found?.type, "SnapshotTests", symbol)
            XCTAssertEqual(found?.test, "testA", symbol)
        }
        for other in ["SnapshotTests.viewport(_:_:line:)", "static CallSite.testMethodOnStack()x", "setUp()", "SnapshotTests.helper()"] {
            XCTAssertNil(CallSite.testMethod(in: other), other)
        }
    }

    func testXCTestNamesOfBothPlatforms() {
        XCTAssertEqual(SnapshotLocation.xcTestParts("SnapshotTests.testA")?.type, "SnapshotTests")
        XCTAssertEqual(SnapshotLocation.xcTestParts("RobotKitTests.SnapshotTests.testA")?.test, "testA")
        XCTAssertEqual(SnapshotLocation.xcTestParts("-[SnapshotTests testA]")?.type, "SnapshotTests")
        XCTAssertNil(SnapshotLocation.xcTestParts("nodots"))
    }

    func testTheBaselineSitsBesideTheFileOrUnderTheRunsFolder() {
        var location = SnapshotLocation(browser: "chromium", type: "HomeTests", test: "testHome", name: "hero card/1")
        XCTAssertEqual(location.baseline(beside: "/src/Tests/UI/HomeTests.swift").path,
                       "/src/Tests/UI/__Snapshots__/chromium/HomeTests/testHome.hero_card_1.png")
        XCTAssertEqual(location.baseline(beside: "/src/Tests/UI/HomeTests.swift", root: URL(fileURLWithPath: "/shots")).path,
                       "/shots/chromium/HomeTests/testHome.hero_card_1.png")
        XCTAssertEqual(location.filter, "HomeTests/testHome$")
        location.isSwiftTesting = true
        location.test = "home"
        XCTAssertEqual(location.filter, "HomeTests/home\\(\\)$")
        XCTAssertEqual(SnapshotLocation.component("../x"), "_._x")
    }

    func testTheRunsSettingsComeFromTheEnvironment() {
        let settings = SnapshotSettings(environment: [
            "ROBOTCI_UPDATE_SNAPSHOTS": "missing", "ROBOTCI_SNAPSHOT_TOLERANCE": "0.25", "ROBOTKIT_SNAPSHOTS_DIR": "/b",
        ])
        XCTAssertEqual(settings, SnapshotSettings(update: .missing, tolerance: SnapshotTolerance(color: 0.25), root: URL(fileURLWithPath: "/b", isDirectory: true)))
        XCTAssertEqual(SnapshotSettings(environment: [:]), SnapshotSettings())
        XCTAssertEqual(SnapshotSettings(environment: ["ROBOTCI_UPDATE_SNAPSHOTS": "bogus"]).update, .none)
    }
}

/// The fontconfig file robotci gives its browsers.
final class BrowserFontsTests: XCTestCase {
    func testTheConfigurationNamesOnlyTheFoldersGivenAndFixesRendering() {
        let text = BrowserFonts.configuration(folders: ["/fonts/liberation", "/a&b"], cache: "/tmp/c")
        XCTAssertTrue(text.contains("<dir>/fonts/liberation</dir>"))
        XCTAssertTrue(text.contains("<dir>/a&amp;b</dir>"))
        XCTAssertEqual(text.components(separatedBy: "<dir>").count, 3, "no other folder, /etc/fonts not included")
        XCTAssertFalse(text.contains("<include"))
        XCTAssertTrue(text.contains("<family>sans-serif</family><prefer><family>Liberation Sans</family>"))
        XCTAssertTrue(text.contains("<const>hintslight</const>"))
    }

    func testTheUsersOwnFileIsKeptAndLiberationIsFound() {
        XCTAssertEqual(BrowserFonts.controlled(["FONTCONFIG_FILE": "/mine.conf"], folder: "/nowhere")["FONTCONFIG_FILE"], "/mine.conf")
        let folders = BrowserFonts.liberationFolders()
        XCTAssertFalse(folders.isEmpty, "fonts-liberation is installed (APT_RUN_PACKAGES)")
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("fonts-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let file = BrowserFonts.controlled([:], folder: scratch.path)["FONTCONFIG_FILE"]
        XCTAssertEqual(file, scratch.appendingPathComponent("robotci-fonts.conf").path)
        XCTAssertTrue(FileManager.default.fileExists(atPath: file ?? ""))
    }
}

/// A Swift Testing test's baseline is named after its suite and function.
@Suite struct SnapshotLocationUnderSwiftTesting {
    @Test func theBaselineIsNamedAfterTheSuiteAndFunction() throws {
        let location = try #require(SnapshotLocation.current(name: "card"))
        #expect(location.type == "SnapshotLocationUnderSwiftTesting")
        #expect(location.test == "theBaselineIsNamedAfterTheSuiteAndFunction")
        #expect(location.isSwiftTesting)
        #expect(location.filter == #"SnapshotLocationUnderSwiftTesting/theBaselineIsNamedAfterTheSuiteAndFunction\(\)$"#)
        #expect(location.baseline(beside: "/t/X.swift").path
            == "/t/__Snapshots__/chromium/SnapshotLocationUnderSwiftTesting/theBaselineIsNamedAfterTheSuiteAndFunction.card.png")
    }
}
