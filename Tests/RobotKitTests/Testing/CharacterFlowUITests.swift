import Foundation
import MockServer
@testable import RobotKit
import XCTest

/// The reference's robot tests, ported unchanged but for `XCUIApplication` → `WebApp`.
final class CharacterFlowUITests: RobotTestCase {
    @MainActor
    func testNavigationFromListToDetailAndBack() async throws {
        // Given
        await givenCharacterListAndDetailSucceeds()

        // When
        launch()

        // Then
        home { robot in
            robot.tapCharacterButton()
        }

        characterList { robot in
            robot.verifyIsVisible()
            robot.verifyCharacterExists(id: 1, name: "Rick Sanchez")
            robot.tapCharacter(id: 1)
        }

        characterDetail { robot in
            robot.verifyIsVisible()
            robot.verifyCharacterName("Rick Sanchez")
            robot.tapBack()
        }

        characterList { robot in
            robot.verifyIsVisible()
            robot.tapBack()
        }

        home { robot in
            robot.verifyIsVisible()
        }

        let didReceive = await serverMock.didReceive(method: .GET, path: "/character/1")
        XCTAssertTrue(didReceive)
    }

    @MainActor
    func testListShowsErrorAndRetryLoadsContent() async throws {
        // Given
        await givenAllRequestsFail()

        // When
        launch()

        // Then
        home { $0.tapCharacterButton() }
        characterList { $0.verifyErrorIsVisible() }

        await givenCharacterListRecovers()

        characterList { robot in
            robot.tapRetry()
            robot.verifyIsVisible()
            robot.verifyCharacterExists(id: 2, name: "Morty Smith")
        }
    }

    @MainActor
    func testLaunchPassesTheMockServerAndRecordsRobotSteps() async throws {
        await givenCharacterListAndDetailSucceeds()
        launch()
        XCTAssertEqual(app.launchEnvironment["API_BASE_URL"], serverBaseURL)
        XCTAssertTrue(app.launchURL.absoluteString.contains("API_BASE_URL="))

        home { $0.tapCharacterButton() }
        characterList { $0.verifyIsVisible().tapCharacter(id: 2) }

        let steps = recorder.recordedSteps
        XCTAssertEqual(steps.map(\.robot), ["WebApp", "HomeRobot", "CharacterListRobot", "CharacterListRobot"].filter { $0 != "WebApp" })
        XCTAssertEqual(steps.map(\.method), ["tapCharacterButton()", "verifyIsVisible()", "tapCharacter(id:)"])
        XCTAssertTrue(steps.allSatisfy { $0.status == .passed && $0.duration > 0 })
        XCTAssertTrue(steps[0].file.hasSuffix("HomeRobot.swift"))
    }

    @MainActor
    func testDemoFailureLeavesArtifacts() async throws {
        // Run with ROBOTKIT_DEMO_FAILURE=1 to see a real failure, its line and its artifacts.
        try XCTSkipUnless(ProcessInfo.processInfo.environment["ROBOTKIT_DEMO_FAILURE"] == "1", "demo only")
        await givenCharacterListAndDetailSucceeds()
        launch()
        home { $0.tapCharacterButton() }
        characterDetail { $0.verifyIsVisible() }  // fails here: the list is showing, not a detail
    }
}
