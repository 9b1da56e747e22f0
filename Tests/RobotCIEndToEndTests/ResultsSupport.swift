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
}
