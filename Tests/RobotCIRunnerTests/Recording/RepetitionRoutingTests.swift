import Foundation
import RobotCICore
import RobotCIReport
@testable import RobotCIRunner
import TestSupport
import XCTest

/// Repetitions in the queue (never two of one test in a batch; `--until-failure` stops new
/// ones), and the router's retry decision per test (`rules:` retries and `retry-on`).
/// Single-threaded: every batch is finished before the next is asked for.
final class RepetitionRoutingTests: FolderTestCase {
    private let a = TestID("M.C/a"), b = TestID("M.C/b"), c = TestID("M.C/c")
    private var directory: URL { folder }

    private func queue(_ tests: [TestID], repetitions: Int, shards: Int = 1, rules: TestRules = TestRules(retries: 0),
                       cutter: BatchCutter = BatchCutter(batchesPerShard: 0.5)) -> WorkQueue {
        WorkQueue(planned: Planner.order(TestID.repeating(tests, count: repetitions), timings: Timings()), shards: shards,
                  rules: rules, cutter: cutter)
    }

    private func failed(_ number: Int, _ message: String, shard: Int = 0) -> Attempt {
        Attempt(number: number, outcome: .failed, duration: 0.1, start: 0, placement: .init(shard: shard, batch: 0),
                evidence: .init(failures: [FailureMessage(message: message)]))
    }

    private func passed(_ number: Int = 1) -> Attempt {
        Attempt(number: number, outcome: .passed, duration: 0.1, start: 0, placement: .init(shard: 0, batch: 0))
    }

    func testNoBatchHoldsTwoRepetitionsOrTwoRepetitionIndexes() {
        // One shard and a cutter that would put everything in one batch: the repetitions still part.
        let q = queue([a, b, c], repetitions: 3)
        var batches: [[TestID]] = []
        while let item = q.next(shard: 0) {
            batches.append(item.tests)
            _ = q.finish(item, unstarted: [], noTestStarted: false)
        }
        XCTAssertEqual(batches.count, 3, "\(batches)")
        for (k, batch) in batches.enumerated() {
            XCTAssertEqual(Set(batch.map(\.unrepeated)), [a, b, c])
            XCTAssertEqual(Set(batch.compactMap(\.repetition?.index)), [k + 1], "one repetition per batch, in order")
        }
    }

    func testUntilFailureDropsTheRepetitionsThatHaveNotBegun() {
        let q = queue([a, b], repetitions: 5, cutter: BatchCutter(maximumTests: 1))
        // Repetition 1 runs whole; repetition 2 begins (one batch of it is out).
        for _ in 0..<2 {
            guard let item = q.next(shard: 0) else { return XCTFail("no batch") }
            _ = q.finish(item, unstarted: [], noTestStarted: false)
        }
        guard let running = q.next(shard: 0) else { return XCTFail("no batch") }
        XCTAssertEqual(running.tests.first?.repetition?.index, 2)
        let (dropped, begun) = q.stopNewRepetitions()
        XCTAssertEqual(begun, 2)
        XCTAssertEqual(Set(dropped), Set([3, 4, 5].flatMap { k in [a, b].map { $0.repetition(k, of: 5) } }))
        // The rest of repetition 2 still runs (a begun repetition runs to its end), then nothing.
        _ = q.finish(running, unstarted: [], noTestStarted: false)
        guard let rest = q.next(shard: 0) else { return XCTFail("repetition 2 was cut short") }
        XCTAssertEqual(rest.tests.compactMap(\.repetition?.index), [2])
        XCTAssertNotEqual(rest.tests, running.tests)
        _ = q.finish(rest, unstarted: [], noTestStarted: false)
        XCTAssertNil(q.next(shard: 0))
    }

    func testATestsUnstartedRepetitionGoesBackAndStaysWhenItsRepetitionBegan() {
        let q = queue([a, b], repetitions: 2, cutter: BatchCutter(maximumTests: 2))
        guard let first = q.next(shard: 0) else { return XCTFail("no batch") }
        // The process died after a: b of repetition 1 goes back to the queue's front.
        let unstarted = first.tests.filter { $0.unrepeated == b }
        _ = q.finish(first, unstarted: unstarted, noTestStarted: false)
        XCTAssertEqual(q.stopNewRepetitions().begun, 1)
        guard let again = q.next(shard: 0) else { return XCTFail("repetition 1's leftover was dropped") }
        XCTAssertEqual(again.tests, [b.repetition(1, of: 2)])
    }

    // MARK: the router

    private func router(_ q: WorkQueue, plan: [TestID], rules: TestRules, untilFailure: Bool = false) throws -> (AttemptRouter, RunRecorder, URL) {
        let layout = ReportLayout(directory: directory)
        let journalURL = directory.appendingPathComponent("results.jsonl")
        let journal = try JournalWriter(url: journalURL)
        let recorder = RunRecorder(journal: journal, plan: RunPlan(tests: plan), quarantine: { _ in false },
                                   progress: Progress(total: plan.count, shards: 1, clock: RunClock(), environment: ["CI": "true"]))
        return (AttemptRouter(recorder: recorder, queue: q, layout: layout,
                               policy: AttemptRouter.Policy(rules: rules, untilFailure: untilFailure)), recorder, journalURL)
    }

    private func run(_ recorder: RunRecorder) -> RunResult {
        recorder.result(metadata: RunMetadata(runID: "r", startedAt: 0, wallTime: 1, shards: 1, retries: 0, robotciVersion: "t")) { _ in "no result" }
    }

    func testRetryOnDecidesWhichFailuresRunAgain() throws {
        let rules = try TestRules(retries: 0, testTimeout: 300, rules: [TestRule(match: "/a$", retries: 2, retryOn: "ECONNRESET")])
        let q = WorkQueue(planned: Planner.order([a, b], timings: Timings()), shards: 1, rules: rules, cutter: BatchCutter(batchesPerShard: 0.5))
        let (router, recorder, _) = try router(q, plan: [a, b], rules: rules)
        guard let item = q.next(shard: 0) else { return XCTFail("no batch") }
        XCTAssertEqual(item.tests, [a, b])

        router.attemptFinished(a, failed(1, "socket: ECONNRESET"))
        router.attemptFinished(b, failed(1, "socket: ECONNRESET"))
        _ = q.finish(item, unstarted: [], noTestStarted: false)
        guard let retry = q.next(shard: 0) else { return XCTFail("a's ECONNRESET earns a retry") }
        XCTAssertEqual(retry.tests, [a])
        XCTAssertEqual(retry.attempt, 2)
        XCTAssertTrue(router.isFinalFailure(b, failed(1, "ECONNRESET")), "b has no rule: global retries 0")

        router.attemptFinished(a, failed(2, "XCTAssertEqual failed: (\"1\") is not equal to (\"2\")"))
        _ = q.finish(retry, unstarted: [], noTestStarted: false)
        XCTAssertNil(q.next(shard: 0), "an assertion is not what retry-on retries: final, though a retry was left")
        let result = run(recorder)
        XCTAssertEqual(result.tests.map(\.outcome), [.failed, .failed])
        XCTAssertEqual(result.tests.map(\.attempts.count), [2, 1])
    }

    func testUntilFailureStopsNewRepetitionsAndShrinksThePlan() throws {
        let plan = TestID.repeating([a, b], count: 4)
        let q = WorkQueue(planned: Planner.order(plan, timings: Timings()), shards: 1, rules: TestRules(retries: 0),
                          cutter: BatchCutter(maximumTests: 1))
        let (router, recorder, journalURL) = try router(q, plan: plan, rules: TestRules(retries: 0), untilFailure: true)
        var ran: [TestID] = []
        while let item = q.next(shard: 0) {
            for test in item.tests {
                ran.append(test)
                // b fails on its second repetition.
                router.attemptFinished(test, test == b.repetition(2, of: 4) ? failed(1, "boom") : passed())
            }
            router.batchFinished(item, shard: 0, BatchOutcome(record: BatchRecord(id: item.id, shard: 0, start: 0, end: 0.1, tests: item.tests,
                                                                                   termination: "exit 0"), unstarted: [], noTestStarted: false))
        }
        XCTAssertEqual(ran, TestID.repeating([a, b], count: 4).prefix(4).map { $0 }, "repetitions 1 and 2, nothing after")
        XCTAssertEqual(router.firstFailure, b.repetition(2, of: 4))
        XCTAssertEqual(recorder.highestRepetition, 2)
        let result = run(recorder)
        XCTAssertEqual(result.plan?.tests.count, 4, "repetitions 3 and 4 never began: no longer planned")
        XCTAssertEqual(result.accounting.description, "4 planned, 4 accounted for")
        XCTAssertEqual(result.counts.failed, 1)
        XCTAssertEqual(result.counts.notRun, 0)
        // The journal says so too: a rebuild accounts for the same four.
        let lines = try String(contentsOf: journalURL, encoding: .utf8).split(separator: "\n")
        let entries = try lines.map { try JSONDecoder().decode(JournalEntry.self, from: Data($0.utf8)) }
        let rebuilt = RunResult(journal: entries)
        XCTAssertEqual(rebuilt.plan?.tests, result.plan?.tests)
        XCTAssertEqual(rebuilt.tests.map(\.outcome), result.tests.map(\.outcome))
    }
}

/// `--tag`: Swift Testing's `--list-tests` event stream names each test's tags, and a suite's
/// tags belong to the tests inside it.
final class SwiftTestingTagsTests: XCTestCase {
    func testTagsComeFromTheTestAndItsSuites() {
        let stream = """
            {"kind":"test","payload":{"id":"M.Outer\\/test()\\/T.swift:4:4","kind":"function","name":"test()","_tags":[".smoke"]},"version":0}
            {"kind":"test","payload":{"id":"M.Outer","kind":"suite","name":"Outer","_tags":[".slow"]},"version":0}
            {"kind":"test","payload":{"id":"M.Outer\\/Inner","kind":"suite","name":"Inner","_tags":[".ui"]},"version":0}
            {"kind":"test","payload":{"id":"M.Outer\\/Inner\\/deep()\\/T.swift:9:6","kind":"function","name":"deep()"},"version":0}
            {"kind":"test","payload":{"id":"M.free()\\/T.swift:12:2","kind":"function","name":"free()","_tags":[".smoke",".fast"]},"version":0}
            {"kind":"test","payload":{"id":"M.untagged()\\/T.swift:13:2","kind":"function","name":"untagged()"},"version":0}
            {"kind":"event","payload":{"kind":"runStarted"},"version":0}
            not json at all
            """
        let listing = "M.Outer/test()\nM.Outer/Inner/deep()\nM.free()\nM.untagged()\n"
        let tags = try? TestListing.swiftTesting(listing: listing, records: stream).tags
        XCTAssertEqual(tags, [
            TestID("M.Outer/test()"): ["smoke", "slow"],
            TestID("M.Outer/Inner/deep()"): ["slow", "ui"],
            TestID("M.free()"): ["smoke", "fast"],
            TestID("M.untagged()"): [],
        ])
    }
}
