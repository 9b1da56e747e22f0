import Foundation
import MockServer
import StandardStreams
import WorkerContract
import XCTest

/// Base class for robot tests: owns a `MockServer` per test (on the worker's
/// `ROBOTCI_MOCK_PORT`), launches the web app against it, records robot steps and,
/// at the test's first failure, saves a screenshot, the accessibility tree, the page's
/// HTML and the console log to the artifacts folder (`FailureEvidence`, as for any test
/// with a live app).
///
/// ```swift
/// final class CharacterFlowUITests: UITestCase {
///     override var appURL: URL? { URL(string: "http://127.0.0.1:8080/") }
///
///     @MainActor
///     func testOpensList() async throws {
///         await serverMock.registerCatchAll { _ in .json(#"{"results": []}"#) }
///         launch()
///         home { $0.tapCharacterButton() }
///     }
/// }
/// ```
open class UITestCase: XCTestCase {
    /// The test's mock backend, created in `setUp`, stopped in `tearDown`.
    public private(set) var serverMock: MockServer!
    /// `serverMock.baseURL`, handed to the page as `API_BASE_URL`.
    public private(set) var serverBaseURL: String!
    /// The app of the last `launch()`.
    public private(set) var app: WebApp!
    /// Where this test's artifacts go: `ROBOTCI_ARTIFACTS_DIR` (flat), else a temporary folder per test.
    public private(set) var artifactsDirectory: URL!
    /// The robot steps of the running test, written to `steps.json`.
    public let recorder = StepRecorder()

    /// Stop a test at its first failure, as XCUITest does with `continueAfterFailure = false`:
    /// later failures are consequences, and the failure artifacts then show the screen
    /// that failed. Set it to false to keep going after a failure.
    open var stopsAtFirstFailure: Bool { true }

    /// The page `launch()` opens. Override it (or set `ROBOTKIT_APP_URL`).
    open var appURL: URL? {
        ProcessInfo.processInfo.environment["ROBOTKIT_APP_URL"].flatMap { URL(string: $0) }
    }

    override open func setUp() async throws {
        try await super.setUp()
        continueAfterFailure = false
        recorder.reset()
        let directory = FailureEvidence.directory(for: name, fresh: true)
        artifactsDirectory = directory
        serverMock = try await MockServer.create(artifactsDirectory: directory)
        serverBaseURL = await serverMock.baseURL
    }

    override open func tearDown() async throws {
        let failed = recorder.hasFailure || (testRun?.totalFailureCount ?? 0) > 0
        if let artifactsDirectory {
            // The evidence was saved at the first failure (RobotKitTestObserver); here only
            // the steps, unless that capture did not happen.
            let captured = RobotKitProcess.current.evidence.hasCaptured(name)
            let problems = FailureArtifacts.write(
                app: app, failed: failed && !captured, recorder: recorder, to: artifactsDirectory)
            for problem in problems {
                StandardStream.error.write("RobotKit: \(problem)\n")
            }
            if failed && !WorkerEnvironment().isUnderRobotCI {
                print("RobotKit: failure artifacts of \(name) are in \(artifactsDirectory.path)")
            }
        }
        app?.terminate()
        app = nil
        try await serverMock?.stopOrThrow()
        serverMock = nil
        serverBaseURL = nil
        try await super.tearDown()
    }

    /// Opens `url` in a fresh browser context (default `appURL`) with
    /// `API_BASE_URL` = the mock server's base URL in its launch environment, unless the mock
    /// server serves the page itself (then nothing is added to its URL).
    /// `configure` may add launch environment entries or arguments first.
    @discardableResult
    public func launch(
        url: URL? = nil, file: StaticString = #filePath, line: UInt = #line, configure: ((WebApp) -> Void)? = nil
    ) -> WebApp {
        app?.terminate()
        guard let target = url ?? appURL else {
            XCTFail(
                "no page to launch: override `appURL` in \(type(of: self)), set ROBOTKIT_APP_URL, or call launch(url:)",
                file: file, line: line)
            let placeholder = WebApp(url: URL(string: "about:blank")!, recorder: recorder)
            app = placeholder
            return placeholder
        }
        let app = WebApp(url: target, recorder: recorder)
        // A page the mock server serves itself (`serveFolder`) reaches it by relative URLs:
        // it is handed nothing it did not ask for.
        if let serverBaseURL, !Self.isServed(target, by: serverBaseURL) { app.launchEnvironment["API_BASE_URL"] = serverBaseURL }
        configure?(app)
        self.app = app
        // launch() returns once the page's load event has fired (or fails the test).
        app.launch(file: file, line: line)
        return app
    }

    /// True when `page` is on the mock server's own origin (scheme, host and port).
    static func isServed(_ page: URL, by base: String) -> Bool {
        guard let base = URL(string: base) else { return false }
        return page.scheme == base.scheme && page.host == base.host && page.port == base.port
    }

    #if os(Linux)
    override open func recordFailure(
        withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool
    ) {
        // XCTest on Linux keeps running a test after a failure (its
        // `continueAfterFailure` always reads true); Darwin stops it. Report only the
        // first failure and make RobotKit skip further actions, as Darwin would. RobotKit keeps
        // its own flag (`stopsAtFirstFailure`, XCUITest's usual setting) for this.
        if stopsAtFirstFailure && recorder.hasFailure { return }
        recorder.recordFailure(message: description, file: filePath, line: lineNumber, test: Self.methodName(of: name))
        if stopsAtFirstFailure { recorder.isHalted = true }
        super.recordFailure(withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
    }
    #else
    override open func record(_ issue: XCTIssue) {
        let location = issue.sourceCodeContext.location
        recorder.recordFailure(
            message: issue.compactDescription, file: location?.fileURL.path ?? "", line: location?.lineNumber ?? 0,
            test: Self.methodName(of: name))
        super.record(issue)
    }
    #endif

    private static func methodName(of testName: String) -> String {
        let trimmed = testName.trimmingCharacters(in: CharacterSet(charactersIn: "-[]"))
        return String(trimmed.split(whereSeparator: { $0 == "." || $0 == " " }).last ?? Substring(trimmed))
    }
}
