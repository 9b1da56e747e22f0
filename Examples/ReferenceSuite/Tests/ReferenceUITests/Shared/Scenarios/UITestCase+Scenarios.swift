import Foundation
import XCTest

// MARK: - Initial scenarios (before launch())

extension UITestCase {
    func givenCharacterListSucceeds() async throws {
        let baseURL = try XCTUnwrap(serverBaseURL)
        let charactersData = Data.fixture("characters_response", baseURL: baseURL)
        let imageData = Data.stubAvatarImage

        await serverMock.registerCatchAll { request in
            if request.path.contains("/avatar/") {
                return .image(imageData)
            }
            if request.path.contains("/character") {
                return .json(charactersData)
            }
            return .status(.notFound)
        }
    }

    func givenCharacterListAndDetailSucceeds() async throws {
        let baseURL = try XCTUnwrap(serverBaseURL)
        let charactersData = Data.fixture("characters_response", baseURL: baseURL)
        let detailData = try XCTUnwrap(Data.characterFixture(id: 1, baseURL: baseURL))
        let imageData = Data.stubAvatarImage

        await serverMock.registerCatchAll { request in
            if request.path.contains("/avatar/") {
                return .image(imageData)
            }
            if request.path == "/character/1" {
                return .json(detailData)
            }
            if request.path.contains("/character") {
                return .json(charactersData)
            }
            return .status(.notFound)
        }
    }

    func givenCharacterListWithEmptySearchSucceeds() async throws {
        let baseURL = try XCTUnwrap(serverBaseURL)
        let charactersData = Data.fixture("characters_response", baseURL: baseURL)
        let emptyData = Data.fixture("characters_empty_response", baseURL: baseURL)
        let imageData = Data.stubAvatarImage

        await serverMock.registerCatchAll { request in
            if request.path.contains("/avatar/") {
                return .image(imageData)
            }
            if request.path.contains("/character") {
                return .json(request.queryParameters["name"] == nil ? charactersData : emptyData)
            }
            return .status(.notFound)
        }
    }

    func givenAllRequestsFail() async {
        await serverMock.registerCatchAll { _ in
            .status(.internalServerError)
        }
    }

    func givenAllRequestsReturnNotFound() async {
        await serverMock.registerCatchAll { _ in
            .status(.notFound)
        }
    }
}

// MARK: - Recovery scenarios (mid-test, after an initial failure)

extension UITestCase {
    func givenCharacterListRecovers() async throws {
        let baseURL = try XCTUnwrap(serverBaseURL)
        let charactersData = Data.fixture("characters_response", baseURL: baseURL)
        let imageData = Data.stubAvatarImage

        await serverMock.registerPrefix(.GET, "/avatar/") { _ in .image(imageData) }
        await serverMock.register(.GET, "/character") { _ in .json(charactersData) }
    }
}
