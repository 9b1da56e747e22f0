import Foundation
import XCTest

extension E2E {
    /// The text form of a stored id (`{"test", "repetition", "browser"}`, results format v3):
    /// `test (repeat k of n) [browser]`, the way the console and JUnit show it, so a test can
    /// key its expectations by what a person reads. Not an identity: two ids may share a text.
    static func idText(_ value: Any?) -> String? {
        guard let id = value as? [String: Any], let test = id["test"] as? String else { return nil }
        let r = id["repetition"] as? [String: Any]
        let repetition = (r?["index"] as? Int).flatMap { k in (r?["count"] as? Int).map { (k, $0) } }
        return idText(test: test, repetition: repetition, browser: id["browser"] as? String)
    }

    /// `test (repeat k of n) [browser]`, the text form `TestID.description` writes.
    static func idText(test: String, repetition: (index: Int, count: Int)?, browser: String?) -> String {
        var text = test
        if let repetition { text += " (repeat \(repetition.index) of \(repetition.count))" }
        if let browser { text += " [\(browser)]" }
        return text
    }

    /// `idText` of each id in a stored list (a plan's or a batch's tests).
    static func idTexts(_ value: Any?) -> [String] { (value as? [Any] ?? []).compactMap(idText) }

    /// `results.json` of a report folder as plain JSON: every test's attempts by test id.
    static func attemptsByTest(in report: URL) throws -> [String: [[String: Any]]] {
        let data = try Data(contentsOf: report.appendingPathComponent("results.json"))
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        var out: [String: [[String: Any]]] = [:]
        for t in try XCTUnwrap(json["tests"] as? [[String: Any]]) { out[idText(t["id"]) ?? ""] = t["attempts"] as? [[String: Any]] ?? [] }
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
        struct ID: Decodable {
            struct Repetition: Decodable {
                let index: Int
                let count: Int
            }
            let test: String
            let repetition: Repetition?
            let browser: String?
        }
        let id: ID
        let outcome: String
        let attempts: [Attempt]
    }

    /// `results.json`'s tests by id.
    static func reportedTests(in report: URL) throws -> [String: ReportedTest] {
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: report.appendingPathComponent("results.json"))) as? [String: Any])
        let tests = try JSONDecoder().decode([ReportedTest].self, from: JSONSerialization.data(withJSONObject: object["tests"] ?? []))
        return Dictionary(uniqueKeysWithValues: tests.map { ($0.id.text, $0) })
    }
}

extension E2E.ReportedTest.ID {
    /// The text form, as `E2E.idText` writes it.
    var text: String { E2E.idText(test: test, repetition: repetition.map { ($0.index, $0.count) }, browser: browser) }
}
