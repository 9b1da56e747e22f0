import Foundation
import MockServer  // iOS: import SwiftMockServer
import RobotKit
import XCTest

/// Base protocol for all screen robots.
protocol RobotContract {
    var app: XCUIApplication { get }
}

/// Base class for UI tests with mock server support.
nonisolated class UITestCase: XCTestCase {
    private(set) var serverMock: MockServer!
    private(set) var serverBaseURL: String!
    private(set) var app: XCUIApplication!

    // Web only: where the app is (an iOS test target knows its app from the scheme).
    override class func setUp() {
        super.setUp()
        XCUIApplication.appURL = AppLocation.indexPage
    }

    override func setUp() async throws {
        try await super.setUp()
        continueAfterFailure = false
        executionTimeAllowance = 60

        serverMock = try await MockServer.create()
        serverBaseURL = await serverMock.baseURL
    }

    override func tearDown() async throws {
        await serverMock.stop()
        serverMock = nil
        serverBaseURL = nil
        app = nil
        try await super.tearDown()
    }

    @MainActor
    @discardableResult
    func launch() -> XCUIApplication {
        let app = XCUIApplication()
        app.launchEnvironment = ["API_BASE_URL": serverBaseURL]
        app.launch()

        let isRunning = app.wait(for: .runningForeground, timeout: 10)
        XCTAssertTrue(isRunning, "App failed to reach foreground state")

        self.app = app
        return app
    }

    @MainActor
    func home(actions: (HomeRobot) -> Void) {
        actions(HomeRobot(app: app))
    }

    @MainActor
    func characterList(actions: (CharacterListRobot) -> Void) {
        actions(CharacterListRobot(app: app))
    }

    @MainActor
    func characterDetail(actions: (CharacterDetailRobot) -> Void) {
        actions(CharacterDetailRobot(app: app))
    }
}

/// The example web app, `Examples/CharacterApp/app/index.html`, found from this file.
nonisolated enum AppLocation {
    static let exampleApp = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // Robots
        .deletingLastPathComponent()  // Shared
        .deletingLastPathComponent()  // ReferenceUITests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()  // ReferenceSuite
        .deletingLastPathComponent()  // Examples
        .appendingPathComponent("CharacterApp", isDirectory: true)
    static let indexPage = exampleApp.appendingPathComponent("app/index.html")
}
