import RobotKit
import XCTest

nonisolated final class CharacterFlowE2ETests: XCTestCase {
    // Web only: where the app is, and its backend (an iOS E2E suite runs against staging).
    override func setUp() async throws {
        try await super.setUp()
        XCUIApplication.appURL = try await StagingBackend.shared.appURL()
    }

    override func setUpWithError() throws {
        continueAfterFailure = false
    }

    @MainActor
    func testCharacterBrowsingFlow() async throws {  // Linux: a @MainActor test must be async (see docs/RobotKit.md)
        let app = launch()

        home(app: app) { robot in
            robot.tapCharacterButton()
        }

        characterList(app: app) { robot in
            robot.tapCharacter(id: 1)
        }

        characterDetail(app: app) { robot in
            robot.verifyIsVisible()
            robot.tapBack()
        }

        characterList(app: app) { robot in
            robot.verifyIsVisible()
            robot.tapBack()
        }

        home(app: app) { robot in
            robot.verifyIsVisible()
        }
    }
}
