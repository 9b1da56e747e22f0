import Foundation

/// The JSON fixtures in `Fixtures/` (read from the source tree, found through this
/// file's path) and a tiny avatar image.
extension Data {
    private static let fixturesDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // Scenarios
        .deletingLastPathComponent()  // CharacterAppUITests
        .appendingPathComponent("Fixtures", isDirectory: true)

    /// `Fixtures/NAME.json` with every `{{BASE_URL}}` replaced by `baseURL`, so the
    /// image and next-page links point at the test's own mock server.
    static func fixture(_ name: String, baseURL: String) -> Data {
        let url = fixturesDirectory.appendingPathComponent("\(name).json")
        guard let text = try? String(contentsOf: url, encoding: .utf8) else {
            preconditionFailure("missing fixture \(url.path)")
        }
        return Data(text.replacingOccurrences(of: "{{BASE_URL}}", with: baseURL).utf8)
    }

    /// Each character of a list fixture as its own JSON document (what `/character/{id}` answers), by id.
    static func characterFixtures(_ names: [String], baseURL: String) -> [Int: Data] {
        var characters: [Int: Data] = [:]
        for name in names {
            let page = try? JSONSerialization.jsonObject(with: fixture(name, baseURL: baseURL)) as? [String: Any]
            for character in page?["results"] as? [[String: Any]] ?? [] {
                guard let id = character["id"] as? Int,
                    let data = try? JSONSerialization.data(withJSONObject: character, options: [.sortedKeys])
                else { continue }
                characters[id] = data
            }
        }
        return characters
    }

    /// An 8×8 green PNG, served for every avatar.
    static let stubAvatarImage = Data(
        base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAIAAABLbSncAAAAEUlEQVR42mOYfs4HK2IYWhIAXv5sQTm2UQ0AAAAASUVORK5CYII="
    ) ?? Data()
}
