import Foundation
import RobotKit
import XCTest

final class DeepLinkUITests: CharacterAppUITestCase {
    @MainActor
    func testDeepLinkOpensCharacterDetail() async throws {
        // Given
        try await givenCharacterDetailSucceeds()

        // When
        launch(deepLink: "/character/2")

        // Then
        characterDetail { robot in
            robot.verifyIsVisible()
            robot.verifyCharacterName("Morty Smith")
            robot.verifyStatus("Alive")
        }

        let listRequests = await serverMock.requests(method: .GET, path: "/character")
        XCTAssertTrue(listRequests.isEmpty, "a deep link to a character loads only that character")
    }

    @MainActor
    func testDeepLinkBackGoesToCharacterList() async throws {
        // Given
        try await givenCharacterListAndDetailSucceeds()

        // When
        launch(deepLink: "/character/5")

        // Then
        characterDetail { robot in
            robot.verifyCharacterName("Jerry Smith")
            robot.tapBack()
        }

        characterList { robot in
            robot.verifyIsVisible()
            robot.verifyCharacterExists(id: 5, name: "Jerry Smith")
            robot.tapBack()
        }

        home { $0.verifyIsVisible() }
    }

    @MainActor
    func testDeepLinkOpensCharacterList() async throws {
        // Given
        try await givenCharacterListSucceeds()

        // When
        launch(deepLink: "/characters")

        // Then
        characterList { robot in
            robot.verifyIsVisible()
            robot.verifyRowCount(8)
            robot.tapBack()
        }

        home { $0.verifyIsVisible() }
    }

    @MainActor
    func testDeepLinkToUnknownCharacterShowsNotFound() async throws {
        // Given
        try await givenCharacterDetailSucceeds()

        // When
        launch(deepLink: "/character/999")

        // Then
        notFound { robot in
            robot.verifyIsVisible()
            robot.verifyMessageMentions("/character/999")
        }

        let asked = await serverMock.didReceive(method: .GET, path: "/character/999")
        XCTAssertTrue(asked, "the app asks the API before deciding the character does not exist")
    }

    @MainActor
    func testDeepLinkToUnknownRouteShowsNotFoundWithoutCallingTheAPI() async throws {
        // Given
        await givenAllRequestsReturnNotFound()

        // When
        launch(deepLink: "/episodes/1")

        // Then
        notFound { robot in
            robot.verifyIsVisible()
            robot.verifyMessageMentions("/episodes/1")
        }

        let requests = await serverMock.requests
        XCTAssertEqual(requests.map(\.request.requestLine), [])
    }

    @MainActor
    func testDeepLinkWithMalformedIDShowsNotFound() async throws {
        // Given
        try await givenCharacterDetailSucceeds()

        // When
        launch(deepLink: "/character/rick")

        // Then
        notFound { $0.verifyIsVisible().verifyMessageMentions("/character/rick") }
    }

    @MainActor
    func testDeepLinkWhenAllRequestsReturnNotFoundShowsNotFound() async throws {
        // Given
        await givenAllRequestsReturnNotFound()

        // When
        launch(deepLink: "/character/1")

        // Then
        notFound { $0.verifyIsVisible() }
    }

    @MainActor
    func testNotFoundGoHomeShowsHome() async throws {
        // Given
        await givenAllRequestsReturnNotFound()

        // When
        launch(deepLink: "/nowhere")

        // Then
        notFound { $0.verifyIsVisible().tapHomeButton() }
        home { $0.verifyIsVisible().tapCharacterButton() }
        characterList { $0.verifyErrorIsVisible() }
    }

    @MainActor
    func testDeepLinkDetailFailureRecoversOnRetry() async throws {
        // Given
        await givenAllRequestsFail()

        // When
        launch(deepLink: "/character/1")

        // Then
        characterDetail { $0.verifyErrorIsVisible() }

        try await givenCharacterDetailRecovers()

        characterDetail { robot in
            robot.tapRetry()
            robot.verifyCharacterName("Rick Sanchez")
            robot.verifyStatus("Alive")
        }
    }
}
