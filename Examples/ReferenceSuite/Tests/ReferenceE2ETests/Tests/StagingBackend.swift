import Foundation
import MockServer

/// The E2E suite's backend, standing in for a staging server: one MockServer per test
/// process, serving the example app's fixtures, its URL handed to the app in the app's
/// location (`index.html?API_BASE_URL=…`), since an E2E test does not configure a mock.
actor StagingBackend {
    static let shared = StagingBackend()

    private var server: MockServer?

    /// `Examples/CharacterApp/app/index.html?API_BASE_URL=<backend>`.
    func appURL() async throws -> URL {
        let server = try await running()
        var components = URLComponents(url: Self.exampleApp.appendingPathComponent("app/index.html"), resolvingAgainstBaseURL: false)
        components?.queryItems = [URLQueryItem(name: "API_BASE_URL", value: await server.baseURL)]
        guard let url = components?.url else { throw URLError(.badURL) }
        return url
    }

    private func running() async throws -> MockServer {
        if let server { return server }
        // Port 0: any free port (the worker's ROBOTCI_MOCK_PORT belongs to the UI tests' mocks).
        let server = try await MockServer.create(port: 0)
        let baseURL = await server.baseURL
        let list = try Self.fixture("characters_response", baseURL: baseURL)
        let results = (try JSONSerialization.jsonObject(with: list) as? [String: Any])?["results"] as? [[String: Any]] ?? []
        var details: [String: Data] = [:]
        for character in results {
            if let id = character["id"] as? Int {
                details["/character/\(id)"] = try JSONSerialization.data(withJSONObject: character)
            }
        }
        let avatar = Data(
            base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAIAAABLbSncAAAAEUlEQVR42mOYfs4HK2IYWhIAXv5sQTm2UQ0AAAAASUVORK5CYII="
        ) ?? Data()
        let detailsByPath = details
        await server.registerPrefix(.GET, "/avatar/") { _ in .image(avatar) }
        await server.register(.GET, "/character") { _ in .json(list) }
        await server.registerParameterized(.GET, "/character/:id") { request in
            detailsByPath[request.path].map { .json($0) } ?? .status(.notFound)
        }
        self.server = server
        return server
    }

    private static let exampleApp = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()  // ReferenceE2ETests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()  // ReferenceSuite
        .deletingLastPathComponent()  // Examples
        .appendingPathComponent("CharacterApp", isDirectory: true)

    private static func fixture(_ name: String, baseURL: String) throws -> Data {
        let url = exampleApp.appendingPathComponent("Tests/CharacterAppUITests/Fixtures/\(name).json")
        let text = try String(contentsOf: url, encoding: .utf8)
        return Data(text.replacingOccurrences(of: "{{BASE_URL}}", with: baseURL).utf8)
    }
}
