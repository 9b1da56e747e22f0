import Foundation
import RobotKit
import XCTest

final class CharacterFlowUITests: CharacterAppUITestCase {
    @MainActor
    func testNavigationFromListToDetailAndBack() async throws {
        // Given
        try await givenCharacterListAndDetailSucceeds()
        // `ROBOTCI_DEMO_FAIL=1` expects a wrong name, to show what a failure leaves in
        // the report: screenshot, accessibility tree, robot steps, mock requests.
        let expectedName = ProcessInfo.processInfo.environment["ROBOTCI_DEMO_FAIL"] == "1" ? "Evil Rick" : "Rick Sanchez"

        // When
        launch()

        // Then
        home { robot in
            robot.tapCharacterButton()
        }

        characterList { robot in
            robot.verifyIsVisible()
            robot.tapCharacter(id: 1)
        }

        characterDetail { robot in
            robot.verifyIsVisible()
            robot.verifyCharacterName(expectedName)
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
    func testListShowsRowsWithImageTitleAndStatus() async throws {
        // Given
        try await givenCharacterListSucceeds()

        // When
        launch()

        // Then
        home { $0.tapCharacterButton() }

        characterList { robot in
            robot.verifyIsVisible()
            robot.verifyRowCount(8)
            robot.verifyRow(id: 1, name: "Rick Sanchez", status: "Alive")
            robot.verifyRow(id: 7, name: "Abradolf Lincler", status: "unknown")
            robot.verifyRow(id: 8, name: "Adjudicator Rick", status: "Dead")
        }

        for id in 1...8 {
            try await serverMock.waitForRequest(method: .GET, path: "/avatar/\(id).png", timeout: .seconds(5))
        }
    }

    @MainActor
    func testDetailShowsTheTappedCharacter() async throws {
        // Given
        try await givenCharacterListAndDetailSucceeds()

        // When
        launch()

        // Then
        home { $0.tapCharacterButton() }

        characterList { robot in
            robot.verifyIsVisible()
            robot.tapCharacter(id: 8)
        }

        characterDetail { robot in
            robot.verifyIsVisible()
            robot.verifyCharacterName("Adjudicator Rick")
            robot.verifyStatus("Dead")
        }

        let detailRequests = await serverMock.requests(method: .GET, path: "/character/8")
        XCTAssertEqual(detailRequests.count, 1)
    }

    @MainActor
    func testBackFromDetailKeepsTheLoadedList() async throws {
        // Given
        try await givenCharacterListWithPaginationAndDetailSucceeds()

        // When
        launch()

        // Then
        home { $0.tapCharacterButton() }

        characterList { robot in
            robot.verifyIsVisible()
            robot.scrollDown()
            robot.tapLoadMore()
            robot.verifyRowCount(12)
            robot.tapCharacter(id: 11)
        }

        characterDetail { robot in
            robot.verifyCharacterName("Albert Einstein")
            robot.tapBack()
        }

        characterList { robot in
            robot.verifyIsVisible()
            robot.verifyRowCount(12)
            robot.verifyLoadMoreIsHidden()
        }

        let listRequests = await serverMock.requests(method: .GET, path: "/character")
        XCTAssertEqual(listRequests.count, 2, "Back shows the list it left, without reloading it")
    }

    @MainActor
    func testBackFromListReturnsHome() async throws {
        // Given
        try await givenCharacterListSucceeds()

        // When
        launch()

        // Then
        home { $0.tapCharacterButton() }
        characterList { $0.verifyIsVisible().tapBack() }
        home { $0.verifyIsVisible() }
    }

    @MainActor
    func testLoadMoreAppendsTheNextPage() async throws {
        // Given
        try await givenCharacterListWithPaginationSucceeds()

        // When
        launch()

        // Then
        home { $0.tapCharacterButton() }

        characterList { robot in
            robot.verifyIsVisible()
            robot.verifyRowCount(8)
            robot.verifyLoadMoreIsVisible()
            robot.scrollDown()
            robot.tapLoadMore()
            robot.verifyRowCount(12)
            robot.verifyCharacterExists(id: 1, name: "Rick Sanchez")
            robot.verifyCharacterExists(id: 12, name: "Alexander")
        }

        let secondPage = await serverMock.requests(method: .GET, path: "/character").last
        XCTAssertEqual(secondPage?.request.queryParameters["page"], "2")
    }

    @MainActor
    func testLastPageHidesLoadMore() async throws {
        // Given
        try await givenCharacterListWithPaginationSucceeds()

        // When
        launch()

        // Then
        home { $0.tapCharacterButton() }

        characterList { robot in
            robot.verifyLoadMoreIsVisible()
            robot.tapLoadMore()
            robot.verifyCharacterExists(id: 9, name: "Agency Director")
            robot.verifyLoadMoreIsHidden()
        }
    }

    @MainActor
    func testSearchWithoutResultsShowsEmptyState() async throws {
        // Given
        try await givenCharacterListWithEmptySearchSucceeds()

        // When
        launch()

        // Then
        home { $0.tapCharacterButton() }

        characterList { robot in
            robot.verifyIsVisible()
            robot.verifyCharacterExists(id: 1, name: "Rick Sanchez")
            robot.search(for: "Squanchy")
            robot.verifyEmptyStateIsVisible()
            robot.verifyRowCount(0)
        }

        let searches = await serverMock.requests(method: .GET, path: "/character").compactMap { $0.request.queryParameters["name"] }
        XCTAssertEqual(searches.last, "Squanchy")
    }

    @MainActor
    func testClearingTheSearchShowsCharactersAgain() async throws {
        // Given
        try await givenCharacterListWithEmptySearchSucceeds()

        // When
        launch()

        // Then
        home { $0.tapCharacterButton() }

        characterList { robot in
            robot.search(for: "Squanchy")
            robot.verifyEmptyStateIsVisible()
            robot.clearSearch()
            robot.verifyCharacterExists(id: 2, name: "Morty Smith")
            robot.verifyRowCount(8)
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
            robot.verifyCharacterExists(id: 1, name: "Rick Sanchez")
        }
    }

    @MainActor
    func testRetryWhileStillFailingKeepsShowingTheError() async throws {
        // Given
        await givenAllRequestsFail()

        // When
        launch()

        // Then
        home { $0.tapCharacterButton() }
        characterList { $0.verifyErrorIsVisible().tapRetry().verifyErrorIsVisible() }

        let attempts = await serverMock.requests(method: .GET, path: "/character")
        XCTAssertEqual(attempts.count, 2, "the first load and the retry")
    }

    @MainActor
    func testDetailFailureShowsErrorAndBackReturnsToList() async throws {
        // Given
        try await givenCharacterDetailFailsButListSucceeds()

        // When
        launch()

        // Then
        home { $0.tapCharacterButton() }
        characterList { $0.tapCharacter(id: 2) }
        characterDetail { $0.verifyErrorIsVisible().tapBack() }

        characterList { robot in
            robot.verifyIsVisible()
            robot.verifyCharacterExists(id: 2, name: "Morty Smith")
        }
    }

    @MainActor
    func testDetailErrorRetryLoadsCharacter() async throws {
        // Given
        try await givenCharacterDetailFailsButListSucceeds()

        // When
        launch()

        // Then
        home { $0.tapCharacterButton() }
        characterList { $0.tapCharacter(id: 3) }
        characterDetail { $0.verifyErrorIsVisible() }

        try await givenCharacterDetailRecovers()

        characterDetail { robot in
            robot.tapRetry()
            robot.verifyIsVisible()
            robot.verifyCharacterName("Summer Smith")
            robot.verifyStatus("Alive")
        }
    }

    @MainActor
    func testAllRequestsNotFoundShowsListError() async throws {
        // Given
        await givenAllRequestsReturnNotFound()

        // When
        launch()

        // Then
        home { $0.tapCharacterButton() }
        characterList { $0.verifyErrorIsVisible() }
    }
}
