import Foundation
import TestSupport
import RobotCICore
import RobotCIQueue
@testable import RobotCIRunner
import XCTest

/// The queue-mode batch source against a real redis-server on loopback: leases become local
/// work items, attempts are stored with their retries, finished batches are acknowledged with
/// their leftovers, and stops reach every machine. `next` waits while others hold leases, so
/// each test finishes its batches before asking again.
final class RedisBatchSourceTests: XCTestCase {
    private let a = TestID("M.C/testA"), b = TestID("M.C/testB"), c = TestID("M.C/testC")
    private var server: RedisServer!

    override func setUpWithError() throws { server = try RedisServer() }
    override func tearDown() { server?.stop() }

    /// One machine of the run `unit` over `tests`, joined (the first to join plans `plan`).
    private func machine(_ name: String, tests: [TestID], plan: [QueuedBatch], rules: TestRules = TestRules(retries: 0),
                         discovered: [TestID]? = nil, quarantined: Set<TestID> = [], lease: Double = 30) throws -> RedisBatchSource {
        let queue = try RedisQueue(address: QueueAddress(host: "127.0.0.1", port: server.port, name: "unit"), machine: name,
                                   leaseTimeout: lease)
        try queue.join(tests: tests, plan: plan)
        return RedisBatchSource(queue: queue, rules: rules, discovered: discovered ?? tests, quarantine: { quarantined.contains($0) })
    }

    private func next(_ s: RedisBatchSource, file: StaticString = #filePath, line: UInt = #line) throws -> WorkItem {
        try XCTUnwrap(s.next(shard: 0), "no batch leased", file: file, line: line)
    }

    /// Reports `item`'s process record, then finishes it.
    @discardableResult
    private func finish(_ s: RedisBatchSource, _ item: WorkItem, unstarted: [TestID] = [], noTestStarted: Bool = false,
                        isolate: [TestID] = []) -> [TestID] {
        s.batchFinished(BatchRecord(id: item.id, shard: 0, start: 0, end: 1, tests: item.tests, termination: .exited(0)))
        return s.finish(item, unstarted: unstarted, noTestStarted: noTestStarted, isolate: isolate)
    }

    func testLeasesBecomeLocalWorkItemsAndTheRunEndsWhenEveryBatchIsFinished() throws {
        let s = try machine("m1", tests: [a, b, c], plan: [QueuedBatch(tests: [a, b], attempt: 1), QueuedBatch(tests: [c], attempt: 1)])
        let first = try next(s), second = try next(s)
        XCTAssertEqual([first.id, second.id], [0, 1], "local ids count up from 0, whatever the queue's ids")
        XCTAssertEqual([first.tests, second.tests], [[a, b], [c]])
        XCTAssertEqual([first.attempt, second.attempt], [1, 1])
        XCTAssertEqual(s.leasedCount, 2)
        for test in [a, b, c] { XCTAssertFalse(s.attemptFinished(test, attempt: Attempts.passed(1)), "a pass is not retried") }
        XCTAssertEqual(finish(s, first), [])
        XCTAssertEqual(finish(s, second), [])
        XCTAssertNil(s.next(shard: 0), "every batch acknowledged: the run is over")

        let snapshot = try s.queue.snapshot()
        XCTAssertEqual(snapshot.attempts.map(\.test).sorted(), [a, b, c])
        XCTAssertEqual(Set(snapshot.attempts.map(\.attempt.machine)), ["m1"], "stored with the machine that ran them")
        XCTAssertEqual(snapshot.batches.map(\.tests), [[a, b], [c]])
        XCTAssertNil(s.lost)
    }

    /// The queue names tests by text; a machine reads a leased id back as its own test, so a
    /// repetition stays that repetition and a test whose own name ends like one stays itself.
    func testLeasedIDsAreThisMachinesOwnTests() throws {
        let named = TestID("M.C/x (repeat 1 of 2)"), repetition = a.repetition(2, of: 3)
        let s = try machine("m1", tests: [named, repetition], plan: [QueuedBatch(tests: [named, repetition], attempt: 1)])
        let item = try next(s)
        XCTAssertEqual(item.tests, [named, repetition])
        XCTAssertNil(item.tests[0].repetition, "its own test, not x's repetition")
        XCTAssertEqual(item.tests[1].repetition, TestID.Repetition(index: 2, count: 3))
        XCTAssertNil(s.lost, "nothing was taken for a test this machine did not discover")
    }

    /// One round trip per batch: a pass waits for its batch's finish, which waits for the
    /// shard's next lease; a failure that earns a retry is stored at once (its retry is queued
    /// for another machine now).
    func testPassesTravelWithTheNextLeaseAndARetriedFailureIsStoredAtOnce() throws {
        let s = try machine("m1", tests: [a, b, c], plan: [QueuedBatch(tests: [a, b], attempt: 1), QueuedBatch(tests: [c], attempt: 1)],
                            rules: TestRules(retries: 1))
        let first = try next(s)
        XCTAssertFalse(s.attemptFinished(a, attempt: Attempts.passed(1, batch: first.id)))
        XCTAssertTrue(s.attemptFinished(b, attempt: Attempts.failed(1, batch: first.id)))
        XCTAssertEqual(try s.queue.snapshot().attempts.map(\.test), [b], "the failure is stored, the pass waits")
        finish(s, first)
        XCTAssertEqual(try s.queue.snapshot().batches.count, 0, "the finish waits for the shard's next lease")
        _ = try next(s)
        let snapshot = try s.queue.snapshot()
        XCTAssertEqual(snapshot.attempts.map(\.test).sorted(), [a, b], "the lease carried the pass…")
        XCTAssertEqual(snapshot.batches.map(\.tests), [[a, b]], "…and the batch's record")
    }

    /// A shard held back (the concurrency governor) does not hold its finished batch: the
    /// heartbeat thread sends it once it waited `flushAfter`; closing sends what is left.
    func testAFinishedBatchWhoseShardDoesNotLeaseAgainIsSentAnyway() throws {
        let s = try machine("m1", tests: [a, b, c], plan: [QueuedBatch(tests: [a], attempt: 1), QueuedBatch(tests: [b], attempt: 1)])
        s.startHeartbeat()
        let first = try next(s)
        XCTAssertEqual(try XCTUnwrap(s.next(shard: 1)).tests, [b])
        XCTAssertFalse(s.attemptFinished(a, attempt: Attempts.passed(1, batch: first.id)))
        finish(s, first)
        let deadline = Date().addingTimeInterval(5)
        while try s.queue.snapshot().attempts.isEmpty, Date() < deadline { usleep(50_000) }
        XCTAssertEqual(try s.queue.snapshot().attempts.map(\.test), [a], "sent by the heartbeat thread, within seconds")
        XCTAssertEqual(try s.queue.snapshot().batches.count, 1)
        s.close(RunMetadata(runID: "r", startedAt: 1, wallTime: 2, shards: 2, retries: 0, robotciVersion: ""))
    }

    func testAFailureWithARetryLeftIsStoredOnceAndRunsAgainAtTheNextAttempt() throws {
        let s = try machine("m1", tests: [a], plan: [QueuedBatch(tests: [a], attempt: 1)], rules: TestRules(retries: 1),
                            quarantined: [a])
        let first = try next(s)
        XCTAssertTrue(s.attemptFinished(a, attempt: Attempts.failed(1)), "retried")
        XCTAssertFalse(s.attemptFinished(a, attempt: Attempts.failed(1)), "the same attempt again is a duplicate: stored once, no second retry")
        finish(s, first)
        let retry = try next(s)
        XCTAssertEqual(retry.tests, [a])
        XCTAssertEqual(retry.attempt, 2)
        XCTAssertFalse(s.attemptFinished(a, attempt: Attempts.failed(2)), "--retries 1: no third attempt")
        finish(s, retry)
        XCTAssertNil(s.next(shard: 0))

        let stored = try s.queue.snapshot().attempts
        XCTAssertEqual(stored.map(\.attempt.number).sorted(), [1, 2])
        XCTAssertEqual(stored.map(\.quarantined), [true, true])
    }

    func testAFirstRunsUnstartedTestsGoBackAsOneBatch() throws {
        let s = try machine("m1", tests: [a, b, c], plan: [QueuedBatch(tests: [a, b, c], attempt: 1)])
        let first = try next(s)
        _ = s.attemptFinished(a, attempt: Attempts.passed(1))
        XCTAssertEqual(finish(s, first, unstarted: [b, c]), [])
        let rest = try next(s)
        XCTAssertEqual(rest.tests, [b, c])
        XCTAssertEqual(rest.attempt, 1)
        XCTAssertEqual(finish(s, rest), [])
        XCTAssertNil(s.next(shard: 0))
    }

    func testARetrysUnstartedTestsAndIsolatedTestsRunAloneAtTheSameAttempt() throws {
        let s = try machine("m1", tests: [a, b, c], plan: [QueuedBatch(tests: [a, b], attempt: 2), QueuedBatch(tests: [c], attempt: 1)])
        let retry = try next(s)
        XCTAssertEqual(retry.tests, [a, b])
        XCTAssertEqual(retry.attempt, 2)
        finish(s, retry, unstarted: [a, b])
        var ran: [String] = []
        var isolated = false
        while let item = s.next(shard: 0) {
            ran.append("\(item.tests) @\(item.attempt)")
            // c's batch ends without its result: it runs again alone.
            finish(s, item, isolate: item.tests == [c] && !isolated ? [c] : [])
            if item.tests == [c] { isolated = true }
        }
        XCTAssertEqual(ran.sorted(), ["[M.C/testA] @2", "[M.C/testB] @2", "[M.C/testC] @1", "[M.C/testC] @1"])
    }

    func testATestThatFailsToLaunchTwiceIsGivenUp() throws {
        let s = try machine("m1", tests: [a], plan: [QueuedBatch(tests: [a], attempt: 1)])
        let first = try next(s)
        XCTAssertEqual(finish(s, first, unstarted: [a], noTestStarted: true), [], "once: it goes back")
        let second = try next(s)
        XCTAssertEqual(second.tests, [a])
        XCTAssertEqual(finish(s, second, unstarted: [a], noTestStarted: true), [a], "twice: given up, for the router to record as crashed")
        XCTAssertNil(s.next(shard: 0))
    }

    func testABatchWithATestThisMachineDidNotDiscoverIsNeverRun() throws {
        let stranger = TestID("M.Evil/testInjected")
        let s = try machine("m1", tests: [a, stranger], plan: [QueuedBatch(tests: [a, stranger], attempt: 1)], discovered: [a])
        XCTAssertNil(s.next(shard: 0))
        XCTAssertEqual(s.leasedCount, 0)
        let message = try XCTUnwrap(s.lost).message
        XCTAssertTrue(message.contains("handed this machine batch 1 with 1 test it did not discover (M.Evil/testInjected)"), message)
        XCTAssertTrue(message.contains("nothing of that batch ran here"), message)
        XCTAssertFalse(s.attemptFinished(a, attempt: Attempts.failed(1)), "a lost queue stores nothing")
    }

    func testStopRunStopsThisMachineAndTellsTheOthers() throws {
        let plan = [QueuedBatch(tests: [a], attempt: 1), QueuedBatch(tests: [b], attempt: 1)]
        let one = try machine("m1", tests: [a, b], plan: plan)
        let two = try machine("m2", tests: [a, b], plan: plan)
        let heard = HeardStop()
        two.onRemoteStop = { heard.reason = $0 }
        one.stopRun(reason: "--max-failures 1 reached")
        XCTAssertNil(one.next(shard: 0))
        XCTAssertNil(two.next(shard: 0), "the other machine leases nothing any more")
        XCTAssertEqual(heard.reason, "--max-failures 1 reached")
        XCTAssertEqual(try one.queue.snapshot().stopped, "--max-failures 1 reached")
    }

    func testAfterAStopNothingIsRetriedOrAcknowledgedSoTheLeaseGoesToAnotherMachine() throws {
        let plan = [QueuedBatch(tests: [a], attempt: 1)]
        let one = try machine("m1", tests: [a], plan: plan, rules: TestRules(retries: 2), lease: 0.3)
        let item = try next(one)
        one.stop()
        XCTAssertFalse(one.attemptFinished(a, attempt: Attempts.failed(1)), "interrupted: no retry queued")
        XCTAssertEqual(finish(one, item, unstarted: []), [])
        XCTAssertNil(one.next(shard: 0))

        usleep(500_000)  // one's lease expires: it was never acknowledged
        let two = try machine("m2", tests: [a], plan: plan, lease: 0.3)
        let again = try next(two)
        XCTAssertEqual(again.tests, [a])
        XCTAssertEqual(again.attempt, 1)
        XCTAssertEqual(try two.queue.snapshot().batches, [], "no record acknowledged the batch")
    }

    func testWhenRedisIsGoneTheSourceIsLostAndLeasesNothingMore() throws {
        let s = try machine("m1", tests: [a, b], plan: [QueuedBatch(tests: [a], attempt: 1), QueuedBatch(tests: [b], attempt: 1)],
                            rules: TestRules(retries: 1))
        s.queue.backOff = []  // give up at the first failed reconnect
        let item = try next(s)
        server.stop()
        XCTAssertFalse(s.attemptFinished(a, attempt: Attempts.failed(1)), "no retry can be queued")
        let lost = try XCTUnwrap(s.lost, "an unreachable Redis makes the source lost")
        XCTAssertTrue(lost.message.hasPrefix("lost the queue redis://127.0.0.1:\(server.port)/unit"), lost.message)
        XCTAssertEqual(finish(s, item), [], "the running batch still finishes, into this machine's journal")
        XCTAssertNil(s.next(shard: 0), "no more leases")
        XCTAssertEqual(s.leasedCount, 1)
    }
}

/// The reason `onRemoteStop` was called with (set from the leasing thread).
private final class HeardStop: @unchecked Sendable {
    private let lock = NSLock()
    private var value: String?
    var reason: String? {
        get { lock.withLock { value } }
        set { lock.withLock { value = newValue } }
    }
}
