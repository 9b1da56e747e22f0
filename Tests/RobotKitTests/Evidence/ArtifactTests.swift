import Foundation
import MockServer
@testable import RobotKit
import XCTest

final class ArtifactTests: XCTestCase {
    private var directory: URL!

    override func setUp() async throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("robotkit-artifact-tests-\(UUID())")
    }

    override func tearDown() async throws {
        try? FileManager.default.removeItem(at: directory)
    }

    func testFailureWritesScreenshotTreePageConsoleAndSteps() throws {
        let recorder = StepRecorder()
        let app = WebApp(url: Fixture.url("elements.html"), recorder: recorder)
        app.launch()
        defer { app.terminate() }
        app.buttons["counter.button"].tap()
        recorder.recordFailure(message: "XCTAssertTrue failed", file: #filePath, line: 7, test: "testX")

        let problems = FailureArtifacts.write(app: app, failed: true, recorder: recorder, to: directory)
        XCTAssertEqual(problems, [])
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        XCTAssertEqual(files, ["accessibility.txt", "console.log", "page.html", "screenshot.png", "steps.json"])
        let png = try Data(contentsOf: directory.appendingPathComponent("screenshot.png"))
        XCTAssertEqual(Array(png.prefix(4)), [0x89, 0x50, 0x4E, 0x47])
        let tree = try String(contentsOf: directory.appendingPathComponent("accessibility.txt"), encoding: .utf8)
        XCTAssertTrue(tree.contains("identifier: 'counter.label', label: 'Count: 1'"), tree)
        let page = try String(contentsOf: directory.appendingPathComponent("page.html"), encoding: .utf8)
        XCTAssertTrue(page.contains("Count: 1"))
        let console = try String(contentsOf: directory.appendingPathComponent("console.log"), encoding: .utf8)
        XCTAssertTrue(console.contains("[INFO]") && console.contains("fixture loaded"), console)
        let steps = try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(contentsOf: directory.appendingPathComponent("steps.json")))
                as? [[String: Any]])
        XCTAssertEqual(steps.first?["method"] as? String, "testFailureWritesScreenshotTreePageConsoleAndSteps()")
        XCTAssertEqual(steps.first?["robot"] as? String, "ArtifactTests")
        XCTAssertEqual(steps.first?["status"] as? String, "failed")
        XCTAssertEqual(steps.first?["line"] as? Int, 7)
    }

    func testPassingTestWritesOnlySteps() throws {
        FailureArtifacts.write(app: nil, failed: false, recorder: StepRecorder(), to: directory)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path), ["steps.json"])
        XCTAssertEqual(try String(contentsOf: directory.appendingPathComponent("steps.json"), encoding: .utf8), "[\n\n]")
    }

    func testMockJournalLandsInTheSameFolder() async throws {
        let server = try await MockServer.create(port: 0, artifactsDirectory: directory)
        await server.stubJSON(.GET, "/ping", json: "{}")
        let app = WebApp(url: Fixture.url("elements.html"))
        app.launch()
        _ = try app.evaluate("fetch(arguments[0] + '/ping'); return 1", [await server.baseURL])
        let received = try await server.waitForRequest(method: .GET, path: "/ping", timeout: .seconds(5))
        XCTAssertEqual(received.path, "/ping")
        app.terminate()
        await server.stop()
        XCTAssertTrue(FileManager.default.fileExists(atPath: directory.appendingPathComponent("mock-requests.json").path))
    }
}
