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

    /// A test of a report as stored: its id object (`{test, repetition, browser}`), verdict
    /// and number of attempts.
    typealias StoredTest = (id: [String: Any], outcome: String, attempts: Int)

    /// Every test of `report`'s results.json (format v3), as stored.
    static func storedTests(in report: URL) throws -> [StoredTest] {
        let data = try Data(contentsOf: report.appendingPathComponent("results.json"))
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
        XCTAssertEqual(json["format"] as? String, "robotci-results-v3")
        return try XCTUnwrap(json["tests"] as? [[String: Any]]).map { t in
            (t["id"] as? [String: Any] ?? [:], t["outcome"] as? String ?? "?", (t["attempts"] as? [Any])?.count ?? 0)
        }
    }

    /// Runs partitions 1/2 and 2/2 of one run (`runPartition(k, folder)` runs one and returns
    /// its result; each may pass or fail) under `root`, then `robotci merge` of the two into
    /// `root/merged`: the merge's result and folder.
    static func mergedPartitions(under root: URL, _ runPartition: (Int, URL) throws -> Result) throws -> (result: Result, folder: URL) {
        var folders: [String] = []
        for k in 1...2 {
            let dir = root.appendingPathComponent("p\(k)")
            let r = try runPartition(k, dir)
            XCTAssertTrue([0, 1].contains(r.status), r.stderr)
            folders.append(dir.path)
        }
        let merged = root.appendingPathComponent("merged")
        return (try run(["merge"] + folders + ["--output", merged.path]), merged)
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
