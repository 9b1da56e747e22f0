import Foundation

/// The suite's fixtures: the example app's JSON answers (in ../CharacterApp), with
/// `{{BASE_URL}}` pointing at the test's mock server, and a tiny avatar image.
extension Data {
    private static let fixturesDirectory = AppLocation.exampleApp
        .appendingPathComponent("Tests/CharacterAppUITests/Fixtures", isDirectory: true)

    static func fixture(_ name: String, baseURL: String) -> Data {
        let url = fixturesDirectory.appendingPathComponent("\(name).json")
        guard let text = try? String(contentsOf: url, encoding: .utf8) else {
            preconditionFailure("missing fixture \(url.path)")
        }
        return Data(text.replacingOccurrences(of: "{{BASE_URL}}", with: baseURL).utf8)
    }

    /// Character `id` of a list fixture, as `/character/{id}` answers it.
    static func characterFixture(id: Int, baseURL: String) -> Data? {
        let page = try? JSONSerialization.jsonObject(with: fixture("characters_response", baseURL: baseURL))
        let results = (page as? [String: Any])?["results"] as? [[String: Any]] ?? []
        guard let character = results.first(where: { $0["id"] as? Int == id }) else { return nil }
        return try? JSONSerialization.data(withJSONObject: character)
    }

    /// An 8×8 green PNG.
    static let stubAvatarImage = Data(
        base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAIAAABLbSncAAAAEUlEQVR42mOYfs4HK2IYWhIAXv5sQTm2UQ0AAAAASUVORK5CYII="
    ) ?? Data()
}
