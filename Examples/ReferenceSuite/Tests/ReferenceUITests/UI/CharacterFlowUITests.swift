import RobotKit
import XCTest

final class CharacterFlowUITests: UITestCase {
    @MainActor
    func testNavigationFromListToDetailAndBack() async throws {
        // Given
        try await givenCharacterListAndDetailSucceeds()

        // When
        launch()

        // Then
        home { robot in
            robot.tapCharacterButton()
        }

        characterList { robot in
            robot.verifyIsVisible()
            robot.tapCharacter(identifier: 1)
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
    }

    @MainActor
    func testListShowsErrorAndRetryLoadsContent() async throws {
        // Given
        await givenAllRequestsFail()

        // When
        launch()

        // Then
        home { robot in
            robot.tapCharacterButton()
        }

        characterList { robot in
            robot.verifyErrorIsVisible()
        }

        try await givenCharacterListRecovers()

        characterList { robot in
            robot.tapRetry()
            robot.verifyIsVisible()
            robot.verifyCharacterExists(identifier: 1)
        }
    }

    @MainActor
    func testNotFoundEverywhereShowsError() async throws {
        // Given
        await givenAllRequestsReturnNotFound()

        // When
        launch()

        // Then
        home { robot in
            robot.tapCharacterButton()
        }

        characterList { robot in
            robot.verifyErrorIsVisible()
        }
    }

    @MainActor
    func testSearchWithoutResultsShowsEmptyState() async throws {
        // Given
        try await givenCharacterListWithEmptySearchSucceeds()

        // When
        launch()

        // Then
        home { robot in
            robot.tapCharacterButton()
        }

        characterList { robot in
            robot.verifyCharacterExists(identifier: 1)
            robot.search("Nobody")
            robot.verifyEmptyStateIsVisible()
        }
    }

    @MainActor
    func testCommonActionsOnTheList() async throws {
        // Given
        try await givenCharacterListAndDetailSucceeds()

        // When
        launch()

        // Then
        home { robot in
            robot.tapCharacterButton()
        }

        characterList { robot in
            robot.verifyIsVisible()
            robot.swipeThroughList()
            robot.pullToRefresh()
            robot.verifyCharacterExists(identifier: 1)
            robot.tapCell(id: 1)
        }

        characterDetail { robot in
            robot.verifyIsVisible()
        }
    }
}
