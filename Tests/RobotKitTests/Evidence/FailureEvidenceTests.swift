import Foundation
import MockServer
@testable import RobotKit
import XCTest

/// `FailureEvidence` on its own (a real browser): what a first failure saves, and that a
/// second failure, a terminated app and another test's app save nothing.
final class FailureEvidenceTests: XCTestCase {
    private var directory: URL!

    override func setUp() async throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("robotkit-evidence-\(UUID())")
    }

    override func tearDown() async throws {
        try? FileManager.default.removeItem(at: directory)
    }

    func testFirstFailureSavesEveryLiveAppAndTheRunningJournals() async throws {
        // Its own registry, told who launched what (WebApp.launch() also tells the shared one).
        let evidence = FailureEvidence()
        let test = "this test"
        let server = try await MockServer.create(port: 0, artifactsDirectory: directory)
        await server.stubJSON(.GET, "/me", json: #"{"name":"Alice"}"#)
        let first = WebApp(url: Fixture.url("signin.html"))
        first.launchEnvironment["API_BASE_URL"] = await server.baseURL
        first.launch()
        evidence.launched(first, owner: test)
        // Commands go to the page launched last: check the first one before opening more.
        XCTAssertTrue(first.wait(until: { first.staticTexts["greeting"].label == "Hello, Alice" }, timeout: 10))
        let second = WebApp(url: Fixture.url("elements.html"))
        second.launch()
        evidence.launched(second, owner: test)
        let gone = WebApp(url: Fixture.url("elements.html"))
        gone.launch()
        evidence.launched(gone, owner: test)
        gone.terminate()
        evidence.terminated(gone)
        let others = WebApp(url: Fixture.url("elements.html"))
        others.launch()
        evidence.launched(others, owner: "another test")

        XCTAssertEqual(evidence.captureFirstFailure(of: test, into: directory), [])
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        XCTAssertEqual(files, [
            "accessibility-2.txt", "accessibility.txt", "console-2.log", "console.log", "mock-requests.json",
            "page-2.html", "page.html", "screenshot-2.png", "screenshot.png",
        ])
        let tree = try String(contentsOf: directory.appendingPathComponent("accessibility.txt"), encoding: .utf8)
        XCTAssertTrue(tree.contains("identifier: 'greeting', label: 'Hello, Alice'"), tree)
        let journal = try String(contentsOf: directory.appendingPathComponent("mock-requests.json"), encoding: .utf8)
        XCTAssertTrue(journal.contains("\"path\" : \"/me\""), journal)

        // The first failure only: a second one writes nothing.
        try FileManager.default.removeItem(at: directory)
        XCTAssertEqual(evidence.captureFirstFailure(of: test, into: directory), [])
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory.path))
        // Until the test runs again.
        evidence.reset(test)
        XCTAssertTrue(evidence.captureFirstFailure(of: test, into: directory).isEmpty)
        XCTAssertTrue(FileManager.default.fileExists(atPath: directory.appendingPathComponent("screenshot.png").path))
        first.terminate()
        second.terminate()
        others.terminate()
        await server.stop()
    }
}
