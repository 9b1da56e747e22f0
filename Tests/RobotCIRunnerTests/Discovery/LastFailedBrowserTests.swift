import Foundation
import RobotCICore
import RobotCIReport
@testable import RobotCIRunner
import XCTest

/// `--last-failed` from a history (`--history`): a test that failed on one engine only runs
/// again on that engine (results.json's path: `BrowserMatrixEndToEndTests`).
final class LastFailedBrowserTests: XCTestCase {
    func testATestFailedOnWebKitOnlyRunsAgainOnWebKitOnly() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("robotci-last-failed-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        func test(_ id: TestID, _ outcome: AttemptOutcome) -> TestRecord {
            TestRecord(id: id, attempts: [Attempt(number: 1, outcome: outcome, duration: 1, start: 0, placement: .init(shard: 0, batch: 0))])
        }
        let meta = RunMetadata(runID: "r1", startedAt: 1, wallTime: 1, shards: 1, retries: 0, robotciVersion: "t")
        let run = RunResult(metadata: meta, tests: [
            test(TestID("M.C/a"), .passed), test(TestID("M.C/a", repetition: nil, browser: "webkit"), .failed),
            test(TestID("M.C/b"), .failed), test(TestID("M.C/b", repetition: nil, browser: "webkit"), .passed),
        ], batches: [])
        let history = folder.appendingPathComponent("history.json")
        try RunHistory().recording(run).encoded().write(to: history)

        let last = try LastFailed.load(reportDir: folder, history: history, withFlaky: false)
        XCTAssertEqual(Set(last.previous.keys), [TestID("M.C/a", repetition: nil, browser: "webkit"), TestID("M.C/b")])
        let planned = ["M.C/a", "M.C/b"].flatMap { [TestID($0), TestID($0, repetition: nil, browser: "webkit")] }
        XCTAssertEqual(last.select(planned).map(\.description), ["M.C/a [webkit]", "M.C/b"])
    }
}
