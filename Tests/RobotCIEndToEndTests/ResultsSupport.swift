import Foundation
import XCTest

extension E2E {
    /// `results.json` of a report folder as plain JSON: every test's attempts by test id.
    static func attemptsByTest(in report: URL) throws -> [String: [[String: Any]]] {
        let data = try Data(contentsOf: report.appendingPathComponent("results.json"))
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        var out: [String: [[String: Any]]] = [:]
        for t in try XCTUnwrap(json["tests"] as? [[String: Any]]) { out[t["id"] as? String ?? ""] = t["attempts"] as? [[String: Any]] ?? [] }
        return out
    }

    /// A test of `results.json` with its attempts' outcomes and artifacts.
    struct ReportedTest: Decodable {
        struct Attempt: Decodable {
            struct Artifact: Decodable {
                let kind: String
                let path: String
            }
            let outcome: String
            let artifacts: [Artifact]
        }
        let id: String
        let outcome: String
        let attempts: [Attempt]
    }

    /// `results.json`'s tests by id.
    static func reportedTests(in report: URL) throws -> [String: ReportedTest] {
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: report.appendingPathComponent("results.json"))) as? [String: Any])
        let tests = try JSONDecoder().decode([ReportedTest].self, from: JSONSerialization.data(withJSONObject: object["tests"] ?? []))
        return Dictionary(uniqueKeysWithValues: tests.map { ($0.id, $0) })
    }
}
