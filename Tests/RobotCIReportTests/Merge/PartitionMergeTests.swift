import Foundation
import RobotCICore
@testable import RobotCIReport
import XCTest

/// `robotci merge`'s checks of partitions (MergeCheck) and the run it assembles from them.
final class PartitionMergeTests: XCTestCase {
    private let suite = (1...40).map { TestID(String(format: "M.Group%d/test%02d", $0 % 4, $0)) }

    /// Partition k/n of `suite` as a report folder would hold it: the share it recorded
    /// (`share`, default: the even split's), results for `ran` (default: all of it).
    private func input(_ k: Int, of n: Int, suite: [TestID]? = nil, runID: String = "ci-7", split: Partitioner.Split = .even,
                       share: [TestID]? = nil, ran: [TestID]? = nil, interrupted: Bool = false) -> MergeInput {
        let (computed, partition) = Partitioner.plan(suite: suite ?? self.suite, index: k, count: n, split: split)
        let plan = RunPlan(tests: share ?? computed, partition: partition)
        var assembly = RunAssembly(plan: plan)
        for t in ran ?? plan.tests {
            assembly.add(t, quarantined: false, attempt: Attempt(number: 1, outcome: .passed, duration: 0.1, start: 0,
                                                                 placement: .init(shard: 0, batch: 0)))
        }
        var meta = RunMetadata(runID: runID, startedAt: 1_700_000_000, wallTime: 1, shards: 1, retries: 0, robotciVersion: "t")
        meta.partition = "\(k)/\(n)"
        meta.interrupted = interrupted
        meta.runIDSource = "CI_PIPELINE_ID (GitLab)"
        let result = assembly.result(metadata: meta) { _ in "the run was interrupted (SIGINT/SIGTERM) before this test had a result" }
        return MergeInput(path: URL(fileURLWithPath: "/reports/m\(k)/results.json"), machine: "partition \(k)/\(n)", result: result,
                          reportDirectory: nil, timings: nil)
    }

    private func merged(_ inputs: [MergeInput]) throws -> (RunResult, MergeCheck) {
        let check = try MergeCheck.check(inputs)
        return (ReportMerger.mergeRuns(inputs, check: check).result, check)
    }

    private func refusal(_ inputs: [MergeInput], file: StaticString = #filePath, line: UInt = #line) -> String {
        do {
            _ = try MergeCheck.check(inputs)
            XCTFail("expected merge to refuse the inputs", file: file, line: line)
            return ""
        } catch let e as MergeError {
            XCTAssertTrue(e.message.hasSuffix("Nothing was written."), e.message, file: file, line: line)
            return e.message
        } catch {
            XCTFail("\(error)", file: file, line: line)
            return ""
        }
    }

    func testCompletePartitionsAccountForEveryTestOnce() throws {
        let (result, check) = try merged((1...3).map { input($0, of: 3) })
        XCTAssertEqual(result.tests.map(\.id), suite.sorted())
        XCTAssertEqual(result.counts.passed, 40)
        XCTAssertEqual(result.accounting.description, "40 planned, 40 accounted for")
        XCTAssertTrue(result.accounting.isComplete)
        XCTAssertEqual(check.notes, [])
        XCTAssertEqual(result.metadata.runID, "ci-7", "partitions of one run are one run id, not ci-7+ci-7+ci-7")
    }

    /// Merged timings: the run's own durations for what it measured, else the last input's.
    func testMergedTimingsTakeTheRunsDurationsThenTheLastInputs() throws {
        var first = input(1, of: 2), second = input(2, of: 2)
        let ran = suite[0].description
        first.timings = Data("{\"tests\":{\"\(ran)\":7,\"Gone/old\":1,\"Gone/both\":2},\"version\":1}".utf8)
        // Not robotci's shape (an escaped id): read by JSONDecoder, folded all the same.
        second.timings = Data("{\"version\":1,\"tests\":{\"\(ran)\":8,\"Gone\\/both\":3,\"Gone/late\":4}}".utf8)
        let check = try MergeCheck.check([first, second])
        let merged = ReportMerger.mergeRuns([first, second], check: check)
        let timings = merged.timings
        XCTAssertEqual(merged.warnings, [])
        XCTAssertEqual(timings.tests[ran], 0.1, "measured in the run")
        XCTAssertEqual(timings.tests["Gone/old"], 1)
        XCTAssertEqual(timings.tests["Gone/both"], 3, "the later input wins")
        XCTAssertEqual(timings.tests["Gone/late"], 4)
        XCTAssertEqual(timings.tests.count, suite.count + 3)
        // A timings.json that is no timings is left out, with a warning naming it.
        second.timings = Data("{\"tests\":[]}".utf8)
        let warned = ReportMerger.mergeRuns([first, second], check: check)
        XCTAssertEqual(warned.timings.tests["Gone/both"], 2)
        XCTAssertEqual(warned.warnings.count, 1)
        XCTAssertTrue(warned.warnings.first?.hasPrefix("/reports/m2/timings.json: not a robotci timings.json") == true, "\(warned.warnings)")
        XCTAssertTrue(warned.warnings.first?.hasSuffix("; merging without it") == true)
    }

    func testAMissingPartitionsShareIsNotRunWithTheReason() throws {
        let (result, check) = try merged([input(1, of: 3), input(3, of: 3)])
        let share2 = Partitioner.evenShares(of: suite, count: 3)[1]
        let notRun = result.tests.filter { $0.outcome == .notRun }
        XCTAssertEqual(notRun.map(\.id), share2)
        XCTAssertEqual(Set(notRun.compactMap(\.reason)), ["partition 2/3 is missing (no input for it was merged)"])
        XCTAssertEqual(result.accounting.description, "40 planned, 40 accounted for (27 with a result, 13 not run)")
        XCTAssertTrue(check.notes.contains("partition 2/3 is missing: no input for it; 13 tests are reported not run"), "\(check.notes)")
        XCTAssertEqual(result.counts.failing, 13, "merge exits 1")
    }

    func testAMissingPartitionOfATimingsSplitIsTheSuiteMinusTheOthers() throws {
        let timings = Timings(tests: Dictionary(uniqueKeysWithValues: suite.enumerated().map { ($1.description, Double($0 % 7) + 0.5) }))
        let split = Partitioner.Split.timings(timings, source: "cache/timings.json")
        let (result, _) = try merged([input(1, of: 3, split: split), input(2, of: 3, split: split)])
        let notRun = result.tests.filter { $0.outcome == .notRun }
        XCTAssertEqual(notRun.map(\.id), Partitioner.shares(of: suite, timings: timings, count: 3)[2])
        XCTAssertEqual(Set(notRun.compactMap(\.reason)), ["partition 3/3 is missing (no input for it was merged) and no present partition ran it"])
    }

    func testATestInNoShareIsNotRunNamingTheShareThatShouldHaveHadIt() throws {
        var share = Partitioner.evenShares(of: suite, count: 2)[1]
        let dropped = share.removeFirst()
        let (result, check) = try merged([input(1, of: 2), input(2, of: 2, share: share)])
        let notRun = result.tests.filter { $0.outcome == .notRun }
        XCTAssertEqual(notRun.map(\.id), [dropped])
        XCTAssertEqual(notRun.first?.reason, "no partition ran it (in the suite of partitions 1/2, 2/2, in none's share; "
                       + "the recorded split gives it to partition 2/2, which did not list it)")
        XCTAssertTrue(check.notes.contains { $0.contains("ran a share other than the one its recorded split gives partition 2/2: 1 of its tests missing") },
                      "\(check.notes)")
    }

    func testPartitionsOfDifferentRunsAreRefusedNamingEachInputAndItsRunID() {
        let message = refusal([input(1, of: 2, runID: "ci-7"), input(2, of: 2, runID: "ci-6")])
        XCTAssertTrue(message.hasPrefix("the partitions are not from one run:"), message)
        XCTAssertTrue(message.contains("partition 1/2 (/reports/m1/results.json): run id 'ci-7' (from CI_PIPELINE_ID (GitLab)), started 2023-11-14T22:13:20Z"), message)
        XCTAssertTrue(message.contains("partition 2/2 (/reports/m2/results.json): run id 'ci-6'"), message)
        XCTAssertTrue(message.contains("reused from an earlier run"), message)
    }

    func testDifferentSuitesSplitsCountsAndDuplicatesAreRefused() {
        let fewer = Array(suite.dropLast(2))
        let suites = refusal([input(1, of: 2), input(2, of: 2, suite: fewer)])
        XCTAssertTrue(suites.contains("the partitions cut different suites") && suites.contains("38 tests"), suites)
        XCTAssertTrue(suites.contains("Not in every partition's suite: M.Group3/test39, M.Group0/test40") || suites.contains("M.Group0/test40"), suites)

        let timings = Timings(tests: [suite[0].description: 9])
        let splits = refusal([input(1, of: 2), input(2, of: 2, split: .timings(timings, source: "t.json"))])
        XCTAssertTrue(splits.contains("split the suite differently") && splits.contains("durations from t.json") && splits.contains("an even split"), splits)

        let counts = refusal([input(1, of: 2), input(2, of: 3)])
        XCTAssertTrue(counts.contains("disagree on N"), counts)

        let twice = refusal([input(1, of: 2), input(1, of: 2), input(2, of: 2)])
        XCTAssertTrue(twice.contains("partition 1/2 is given twice"), twice)

        let shares = Partitioner.evenShares(of: suite, count: 2)
        let overlap = refusal([input(1, of: 2), input(2, of: 2, share: shares[1] + [shares[0][0]])])
        XCTAssertTrue(overlap.contains("1 test is in the share of more than one partition: \(shares[0][0].description) (1/2, 2/2)"), overlap)
    }

    func testAnInterruptedPartitionsUnfinishedTestsAreNotRun() throws {
        let share = Partitioner.evenShares(of: suite, count: 2)[0]
        let (result, check) = try merged([input(1, of: 2, ran: Array(share.prefix(5)), interrupted: true), input(2, of: 2)])
        XCTAssertTrue(result.metadata.interrupted, "the merged report says so")
        let notRun = result.tests.filter { $0.outcome == .notRun }
        XCTAssertEqual(notRun.count, 15)
        XCTAssertEqual(notRun.first?.reason, "partition 1/2: the run was interrupted (SIGINT/SIGTERM) before this test had a result")
        XCTAssertTrue(check.notes.contains { $0.contains("was interrupted before it finished: 15 of its 20 tests have no result") }, "\(check.notes)")
    }

    func testInputsWithoutAPlanMergeWithALineSayingTheyCannotBeChecked() throws {
        var old = input(1, of: 2)
        old.result.plan = nil
        let junit = MergeInput(path: URL(fileURLWithPath: "/x/py.xml"), machine: "py",
                               result: RunResult(metadata: old.result.metadata, tests: [TestRecord(id: TestID("py.mod::test_a"), attempts: [
                                   Attempt(number: 1, outcome: .passed, duration: 0.1, start: 0,
                                           placement: .init(shard: 0, batch: 0))])], batches: []),
                               reportDirectory: nil, timings: nil)
        let (result, check) = try merged([old, input(2, of: 2), junit])
        XCTAssertTrue(check.notes.contains { $0.hasPrefix("partition 1/2 (/reports/m1/results.json) has no plan") && $0.contains("cannot be checked") },
                      "\(check.notes)")
        XCTAssertEqual(result.tests.count, 41)
        XCTAssertEqual(result.accounting.description, "41 planned, 41 accounted for")

        let (alone, _) = try merged([junit])
        XCTAssertNil(alone.plan)
        XCTAssertTrue(alone.accounting.description.contains("no plan recorded"), alone.accounting.description)
    }
}
