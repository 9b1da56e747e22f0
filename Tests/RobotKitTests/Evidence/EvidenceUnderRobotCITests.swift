import Foundation
import MockServer
import RobotKit
import Testing
import XCTest

// Tests that fail on purpose, run through robotci by `FailureEvidenceEndToEndTests`
// (ROBOTCI_EVIDENCE_E2E=1): their attempts in the report must hold the evidence of the
// screen that failed. Outside that run they skip.

private let underEvidenceRun = ProcessInfo.processInfo.environment["ROBOTCI_EVIDENCE_E2E"] == "1"

/// Reference 001's style: a plain `XCTestCase`, an extension that launches
/// `XCUIApplication()`, a robot, and `app.terminate()` in `tearDown`.
final class ReferenceStyleEvidenceTests: XCTestCase {
    private var app: XCUIApplication!
    private var backend: MockServer!

    override func setUp() async throws {
        guard underEvidenceRun else { throw XCTSkip("runs only under robotci, from FailureEvidenceEndToEndTests") }
        try await super.setUp()
        backend = try await MockServer.create()
        await backend.stubJSON(.GET, "/me", json: #"{"name":"Alice"}"#)
        XCUIApplication.appURL = Fixture.url("signin.html")
    }

    override func setUpWithError() throws {
        continueAfterFailure = false
    }

    override func tearDown() async throws {
        app?.terminate()
        app = nil
        await backend?.stop()
        try await super.tearDown()
    }

    func testGreetingNamesTheUser() async throws {
        app = launchApp(backend: await backend.baseURL)
        greeting(app: app) { robot in
            robot.verifyGreeting("Hello, Bob")  // fails on purpose: the backend says Alice
        }
    }
}

/// A value wait that runs out (issue 55): the robot waits in the page for a greeting the
/// backend never gives. Its attempt's trace must have one step for the 5 s wait, at the
/// robot's line, the failing one, with what it expected and what it last saw.
final class ValueWaitTraceTests: XCTestCase {
    private var app: XCUIApplication!
    private var backend: MockServer!

    override func setUp() async throws {
        guard underEvidenceRun else { throw XCTSkip("runs only under robotci, from TraceEndToEndTests") }
        try await super.setUp()
        continueAfterFailure = false
        backend = try await MockServer.create()
        await backend.stubJSON(.GET, "/me", json: #"{"name":"Alice"}"#)
        XCUIApplication.appURL = Fixture.url("signin.html")
    }

    override func tearDown() async throws {
        app?.terminate()
        await backend?.stop()
        try await super.tearDown()
    }

    func testTheGreetingNeverSaysBob() async throws {
        app = launchApp(backend: await backend.baseURL)
        GreetingRobot(app: app).verifyGreetingSoon("Hello, Bob")  // fails on purpose: the backend says Alice
    }
}

struct GreetingRobot {
    func verifyGreetingSoon(_ text: String, file: StaticString = #filePath, line: UInt = #line) {
        let greeting = app.staticTexts["greeting"]
        XCTAssertTrue(greeting.wait(for: \.label, toEqual: text, timeout: 5), "the greeting says \(text)", file: file, line: line)
    }

    let app: XCUIApplication

    func verifyGreeting(_ text: String, file: StaticString = #filePath, line: UInt = #line) {
        let greeting = app.staticTexts["greeting"]
        XCTAssertTrue(greeting.waitForExistence(timeout: 10), file: file, line: line)
        _ = app.wait(until: { greeting.label.hasPrefix("Hello, ") && greeting.label != "Hello, stranger" }, timeout: 10)
        XCTAssertEqual(greeting.label, text, file: file, line: line)
    }
}

extension XCTestCase {
    func launchApp(backend: String) -> XCUIApplication {
        let app = XCUIApplication()
        app.launchEnvironment["API_BASE_URL"] = backend
        app.launch()
        return app
    }

    func greeting(app: XCUIApplication, actions: (GreetingRobot) -> Void) {
        actions(GreetingRobot(app: app))
    }
}

/// A Swift Testing test driving a `WebApp`, with the `.failureEvidence` trait.
@Suite(.enabled(if: underEvidenceRun, "runs only under robotci, from FailureEvidenceEndToEndTests"))
struct SwiftTestingEvidenceTests {
    @Test(.failureEvidence)
    func greetingNamesTheUser() async throws {
        let backend = try await MockServer.create()
        await backend.stubJSON(.GET, "/me", json: #"{"name":"Alice"}"#)
        let app = WebApp(url: Fixture.url("signin.html"))
        app.launchEnvironment["API_BASE_URL"] = await backend.baseURL
        app.launch()
        defer { app.terminate() }
        let greeting = app.staticTexts["greeting"]
        _ = app.wait(until: { greeting.label == "Hello, Alice" }, timeout: 10)
        #expect(greeting.label == "Hello, Bob")  // fails on purpose
        app.terminate()  // the evidence was taken at the failure, before this
        await backend.stop()
    }
}

/// Flaky on purpose, for `TraceEndToEndTests`: the backend answers `GET /me` with 500 on the
/// first attempt and 200 on the retry, so the page greets a stranger, then Alice. The trace's
/// `firstDivergence` must point at the step during which `/me` was answered, not at the
/// final assertion.
final class FlakyGreetingTraceTests: XCTestCase {
    private var app: XCUIApplication!
    private var backend: MockServer!

    override func setUp() async throws {
        guard underEvidenceRun else { throw XCTSkip("runs only under robotci, from TraceEndToEndTests") }
        try await super.setUp()
        backend = try await MockServer.create()
        let attempt = Int(ProcessInfo.processInfo.environment["ROBOTCI_ATTEMPT"] ?? "1") ?? 1
        if attempt == 1 {
            await backend.stub(.GET, "/me", response: .status(.internalServerError))
        } else {
            await backend.stubJSON(.GET, "/me", json: #"{"name":"Alice"}"#)
        }
        XCUIApplication.appURL = Fixture.url("signin.html")
    }

    override func tearDown() async throws {
        app?.terminate()
        app = nil
        await backend?.stop()
        try await super.tearDown()
    }

    func testGreetingAfterARetry() async throws {
        app = launchApp(backend: await backend.baseURL)
        let greeting = app.staticTexts["greeting"]
        XCTAssertTrue(greeting.waitForExistence(timeout: 10))
        _ = app.wait(until: { greeting.label.hasPrefix("Hello, ") }, timeout: 10)
        XCTAssertEqual(greeting.label, "Hello, Alice")
    }
}
