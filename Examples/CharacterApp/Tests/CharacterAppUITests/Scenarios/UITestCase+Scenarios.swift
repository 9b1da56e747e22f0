import Foundation
import MockServer
import RobotKit
import XCTest

// Mock backends for the tests. Initial scenarios (before `launch()`) answer
// everything with `registerCatchAll`; recovery scenarios (mid-test) override single
// routes with `register`/`registerPrefix`/`registerParameterized`, which win over
// the catch-all. `@MainActor` like the tests that call them, so `self` stays on one actor.

// MARK: - Initial scenarios

extension UITestCase {
    /// Avatars + character list (page 1).
    @MainActor
    func givenCharacterListSucceeds() async throws {
        let baseURL = try XCTUnwrap(serverBaseURL)
        let charactersData = Data.fixture("characters_response", baseURL: baseURL)
        let imageData = Data.stubAvatarImage

        await serverMock.registerCatchAll { request in
            if request.path.hasPrefix("/avatar/") { return .image(imageData) }
            if request.path == "/character" { return .json(charactersData) }
            return .status(.notFound)
        }
    }

    /// Avatars + character list + character detail.
    @MainActor
    func givenCharacterListAndDetailSucceeds() async throws {
        let baseURL = try XCTUnwrap(serverBaseURL)
        let charactersData = Data.fixture("characters_response", baseURL: baseURL)
        let details = Data.characterFixtures(Self.allPages, baseURL: baseURL)
        let imageData = Data.stubAvatarImage

        await serverMock.registerCatchAll { request in
            if request.path.hasPrefix("/avatar/") { return .image(imageData) }
            if request.path == "/character" { return .json(charactersData) }
            if let id = Self.characterID(in: request.path) { return Self.detail(id, in: details) }
            return .status(.notFound)
        }
    }

    /// Avatars + character list + its second (last) page.
    @MainActor
    func givenCharacterListWithPaginationSucceeds() async throws {
        let baseURL = try XCTUnwrap(serverBaseURL)
        let firstPage = Data.fixture("characters_response", baseURL: baseURL)
        let secondPage = Data.fixture("characters_page_2_response", baseURL: baseURL)
        let imageData = Data.stubAvatarImage

        await serverMock.registerCatchAll { request in
            if request.path.hasPrefix("/avatar/") { return .image(imageData) }
            if request.path == "/character" {
                return .json(request.queryParameters["page"] == "2" ? secondPage : firstPage)
            }
            return .status(.notFound)
        }
    }

    /// Avatars + character list with its second page + character detail.
    @MainActor
    func givenCharacterListWithPaginationAndDetailSucceeds() async throws {
        let baseURL = try XCTUnwrap(serverBaseURL)
        let firstPage = Data.fixture("characters_response", baseURL: baseURL)
        let secondPage = Data.fixture("characters_page_2_response", baseURL: baseURL)
        let details = Data.characterFixtures(Self.allPages, baseURL: baseURL)
        let imageData = Data.stubAvatarImage

        await serverMock.registerCatchAll { request in
            if request.path.hasPrefix("/avatar/") { return .image(imageData) }
            if request.path == "/character" {
                return .json(request.queryParameters["page"] == "2" ? secondPage : firstPage)
            }
            if let id = Self.characterID(in: request.path) { return Self.detail(id, in: details) }
            return .status(.notFound)
        }
    }

    /// Avatars + character list; any search by name finds nothing.
    @MainActor
    func givenCharacterListWithEmptySearchSucceeds() async throws {
        let baseURL = try XCTUnwrap(serverBaseURL)
        let charactersData = Data.fixture("characters_response", baseURL: baseURL)
        let emptyData = Data.fixture("characters_empty_response", baseURL: baseURL)
        let imageData = Data.stubAvatarImage

        await serverMock.registerCatchAll { request in
            if request.path.hasPrefix("/avatar/") { return .image(imageData) }
            if request.path == "/character" {
                let name = request.queryParameters["name"] ?? ""
                return .json(name.isEmpty ? charactersData : emptyData)
            }
            return .status(.notFound)
        }
    }

    /// Avatars + character detail (no list); unknown ids answer 404 like the real API.
    @MainActor
    func givenCharacterDetailSucceeds() async throws {
        let baseURL = try XCTUnwrap(serverBaseURL)
        let details = Data.characterFixtures(Self.allPages, baseURL: baseURL)
        let imageData = Data.stubAvatarImage

        await serverMock.registerCatchAll { request in
            if request.path.hasPrefix("/avatar/") { return .image(imageData) }
            if let id = Self.characterID(in: request.path) { return Self.detail(id, in: details) }
            return .status(.notFound)
        }
    }

    /// Avatars + character list succeed, every character detail fails with 500.
    @MainActor
    func givenCharacterDetailFailsButListSucceeds() async throws {
        let baseURL = try XCTUnwrap(serverBaseURL)
        let charactersData = Data.fixture("characters_response", baseURL: baseURL)
        let imageData = Data.stubAvatarImage

        await serverMock.registerCatchAll { request in
            if request.path.hasPrefix("/avatar/") { return .image(imageData) }
            if request.path == "/character" { return .json(charactersData) }
            return .status(.internalServerError)
        }
    }

    /// Every request fails with 500.
    @MainActor
    func givenAllRequestsFail() async {
        await serverMock.registerCatchAll { _ in .status(.internalServerError) }
    }

    /// Every request answers 404.
    @MainActor
    func givenAllRequestsReturnNotFound() async {
        await serverMock.registerCatchAll { _ in .status(.notFound) }
    }
}

// MARK: - Recovery scenarios

extension UITestCase {
    /// Avatars + character list start working (after a failure).
    @MainActor
    func givenCharacterListRecovers() async throws {
        let baseURL = try XCTUnwrap(serverBaseURL)
        let charactersData = Data.fixture("characters_response", baseURL: baseURL)
        let imageData = Data.stubAvatarImage

        await serverMock.registerPrefix(.GET, "/avatar/") { _ in .image(imageData) }
        await serverMock.register(.GET, "/character") { _ in .json(charactersData) }
    }

    /// Avatars + character detail start working (after a failure).
    @MainActor
    func givenCharacterDetailRecovers() async throws {
        let baseURL = try XCTUnwrap(serverBaseURL)
        let details = Data.characterFixtures(Self.allPages, baseURL: baseURL)
        let imageData = Data.stubAvatarImage

        await serverMock.registerPrefix(.GET, "/avatar/") { _ in .image(imageData) }
        await serverMock.registerParameterized(.GET, "/character/:id") { request in
            Self.detail(Int(request.pathParameters["id"] ?? "") ?? 0, in: details)
        }
    }
}

// MARK: - Helpers

extension UITestCase {
    fileprivate static let allPages = ["characters_response", "characters_page_2_response"]

    /// `42` for `/character/42`.
    fileprivate nonisolated static func characterID(in path: String) -> Int? {
        guard path.hasPrefix("/character/") else { return nil }
        return Int(path.dropFirst("/character/".count))
    }

    fileprivate nonisolated static func detail(_ id: Int, in details: [Int: Data]) -> MockResponse {
        guard let data = details[id] else { return .json(#"{"error":"Character not found"}"#, status: .notFound) }
        return .json(data)
    }
}
