import Foundation
import XCTest

/// `history.json` across real runs of the built robotci on `Tests/Fixtures/History`
/// (command driver; `test_wobbly` fails the first attempt of every other run).
final class HistoryEndToEndTests: XCTestCase {
    private let wobbly = "Suite.Checkout/test_wobbly"
    private let steady = "Suite.Checkout/test_steady"

    private func history(_ url: URL) throws -> [String: Any] {
        try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
    }
    private func letters(_ h: [String: Any], _ id: String) -> String? {
        ((h["tests"] as? [String: Any])?[id] as? [String: Any])?["o"] as? String
    }

    func testFiveRunsShowTheFlakeRateStripAndQuarantineSuggestion() throws {
        let root = E2E.temporaryDirectory("history")
        let report = root.appendingPathComponent("report")
        let env = ["HISTORY_COUNTER": root.appendingPathComponent("counter").path]
        var last: E2E.Result?
        for k in 1...5 {
            let r = try E2E.run(["run", "--package", E2E.fixture("History"), "--shards", "1", "--retries", "1", "--report-dir", report.path],
                                env: env.merging(["ROBOTCI_RUN_ID": "run-\(k)"]) { $1 })
            XCTAssertEqual(r.status, 0, r.stderr)
            last = r
        }
        let h = try history(report.appendingPathComponent("history.json"))
        XCTAssertEqual((h["runs"] as? [[String: Any]])?.compactMap { $0["id"] as? String }, (1...5).map { "run-\($0)" })
        XCTAssertEqual(letters(h, wobbly), "KPKPK")
        XCTAssertEqual(letters(h, steady), "PPPPP")
        let stderr = try XCTUnwrap(last?.stderr)
        XCTAssertTrue(stderr.contains("\(wobbly): flaky in 3 of 5 runs (60%)"), stderr)
        XCTAssertTrue(stderr.contains("quarantine:\n  - '^Suite\\.Checkout/test_wobbly$'"), stderr)
        XCTAssertFalse(stderr.contains("\(steady): flaky"), stderr)
        // The page carries the strip of both tests (the browser tests check how it is drawn).
        let html = try String(contentsOf: report.appendingPathComponent("index.html"), encoding: .utf8)
        XCTAssertTrue(html.contains("\"KPKPK\""), "wobbly's strip is in the page")
        XCTAssertTrue(html.contains("\"current\":4"), "the page knows which run is this one")

        // A corrupt history costs nothing but the history: warned, set aside, a fresh one begun.
        try Data("{not json".utf8).write(to: report.appendingPathComponent("history.json"))
        let r = try E2E.run(["run", "--package", E2E.fixture("History"), "--shards", "1", "--retries", "1", "--report-dir", report.path],
                            env: env.merging(["ROBOTCI_RUN_ID": "run-6"]) { $1 })
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("history.json is unreadable"), r.stderr)
        XCTAssertTrue(r.stderr.contains("starting a fresh history"), r.stderr)
        XCTAssertEqual(letters(try history(report.appendingPathComponent("history.json")), wobbly), "P")
        let kept = try FileManager.default.contentsOfDirectory(atPath: report.path).filter { $0.hasPrefix("history.json.corrupt-") }
        XCTAssertEqual(kept.count, 1)
        XCTAssertTrue(FileManager.default.fileExists(atPath: report.appendingPathComponent("junit.xml").path))
    }

    func testMergeOfTwoPartitionsKeepsTheHistoryOfBothAndHistoryFlagWritesElsewhere() throws {
        let root = E2E.temporaryDirectory("history-merge")
        let env = ["HISTORY_COUNTER": root.appendingPathComponent("counter").path]
        var dirs: [String] = []
        for k in 1...2 {
            let dir = root.appendingPathComponent("p\(k)")
            dirs.append(dir.path)
            for run in ["ci-1", "ci-2"] {
                // Each partition plans from its own folder's timings, which know only its own
                // tests; without them both machines compute the same split again.
                try? FileManager.default.removeItem(at: dir.appendingPathComponent("timings.json"))
                let r = try E2E.run(["run", "--package", E2E.fixture("History"), "--partition", "\(k)/2", "--retries", "1",
                                     "--report-dir", dir.path], env: env.merging(["ROBOTCI_RUN_ID": run]) { $1 })
                XCTAssertEqual(r.status, 0, r.stderr)
            }
        }
        let merged = root.appendingPathComponent("merged")
        let m = try E2E.run(["merge"] + dirs + ["--output", merged.path])
        XCTAssertEqual(m.status, 0, m.stderr)
        let h = try history(merged.appendingPathComponent("history.json"))
        XCTAssertEqual((h["runs"] as? [[String: Any]])?.compactMap { $0["id"] as? String }, ["ci-1", "ci-2"], "one entry per run id")
        XCTAssertEqual(letters(h, wobbly), "KP")
        XCTAssertEqual(letters(h, steady), "PP")

        // --history keeps the file out of the report folder (e.g. in a CI cache).
        let cache = root.appendingPathComponent("cache/history.json")
        let report = root.appendingPathComponent("elsewhere")
        for run in ["a", "b"] {
            let r = try E2E.run(["run", "--package", E2E.fixture("History"), "--retries", "1", "--report-dir", report.path,
                                 "--history", cache.path], env: env.merging(["ROBOTCI_RUN_ID": run]) { $1 })
            XCTAssertEqual(r.status, 0, r.stderr)
        }
        XCTAssertEqual((try history(cache)["runs"] as? [Any])?.count, 2)
        XCTAssertFalse(FileManager.default.fileExists(atPath: report.appendingPathComponent("history.json").path))
    }
}
