import Foundation
import RobotCICore
@testable import RobotCIReport
import XCTest

/// `robotci merge` of queue machines' folders: each carries the queue run's plan
/// (`plan.queue`), so a folder left out is noticed and two runs' folders are refused.
final class QueueFolderMergeTests: XCTestCase {
    private let suite = (1...6).map { TestID("M.Queue/test\($0)") }

    /// A queue machine's results.json: what it ran, and the queue run it was part of.
    private func machine(_ name: String, ran: [TestID], nonce: String = "n-1") -> MergeInput {
        var assembly = RunAssembly()
        for t in ran {
            assembly.add(t, quarantined: false, attempt: Attempt(number: 1, outcome: .passed, duration: 0.1, start: 0,
                                                                 placement: .init(shard: 0, batch: 0)))
        }
        let meta = RunMetadata(runID: "run-\(name)", startedAt: 1_700_000_000, wallTime: 1, shards: 1, retries: 0, robotciVersion: "t")
        var result = assembly.result(metadata: meta) { _ in "" }
        result.plan = RunPlan(tests: ran, queue: QueueRunPlan(name: "pipeline", nonce: nonce, suite: suite))
        return MergeInput(path: URL(fileURLWithPath: "/reports/\(name)/results.json"), machine: name, result: result,
                          reportDirectory: nil, timings: nil)
    }

    func testEveryMachinesFolderAccountsForTheWholeRun() throws {
        let inputs = [machine("m1", ran: Array(suite[0..<3])), machine("m2", ran: Array(suite[3...]))]
        let check = try MergeCheck.check(inputs)
        let result = ReportMerger.mergeRuns(inputs, check: check).result
        XCTAssertEqual(result.accounting.description, "6 planned, 6 accounted for")
        XCTAssertEqual(result.counts.passed, 6)
    }

    func testAFolderLeftOutIsNoticedAndItsTestsAreNotRun() throws {
        let inputs = [machine("m1", ran: Array(suite[0..<3]))]
        let check = try MergeCheck.check(inputs)
        let result = ReportMerger.mergeRuns(inputs, check: check).result
        XCTAssertEqual(result.accounting.description, "6 planned, 6 accounted for (3 with a result, 3 not run)")
        let notRun = result.tests.filter { $0.outcome == .notRun }
        XCTAssertEqual(notRun.map(\.id), Array(suite[3...]))
        XCTAssertTrue(notRun.allSatisfy { $0.reason?.contains("a machine's folder is missing from the merge") == true }, "\(notRun.map(\.reason))")
    }

    func testFoldersOfTwoQueueRunsAreRefused() {
        let inputs = [machine("m1", ran: Array(suite[0..<3])), machine("m2", ran: Array(suite[3...]), nonce: "n-2")]
        XCTAssertThrowsError(try MergeCheck.check(inputs)) { error in
            let message = (error as? MergeError)?.message ?? "\(error)"
            XCTAssertTrue(message.contains("not from one queue run") && message.contains("run n-1") && message.contains("run n-2"), message)
        }
    }
}
