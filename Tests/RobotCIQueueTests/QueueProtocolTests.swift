import Foundation
import TestSupport
import XCTest
import RobotCICore
@testable import RobotCIQueue

/// The queue's Lua scripts against a real redis-server, with two "machines" as two clients.
final class QueueProtocolTests: XCTestCase {
    private var server: RedisServer!

    override func setUpWithError() throws { server = try RedisServer() }
    override func tearDown() { server?.stop() }

    private func machine(_ name: String, lease: Double = 30, run: String = "run") throws -> RedisQueue {
        try RedisQueue(address: QueueAddress(host: "127.0.0.1", port: server.port, name: run), machine: name, leaseTimeout: lease)
    }

    private let tests = ["M.A/test1", "M.A/test2", "M.B/test3"].map { TestID($0) }
    private var plan: [QueuedBatch] { [QueuedBatch(tests: Array(tests.prefix(2)), attempt: 1), QueuedBatch(tests: [tests[2]], attempt: 1)] }

    private func attempt(_ n: Int, _ outcome: AttemptOutcome, batch: Int = 0) -> Attempt {
        Attempt(number: n, outcome: outcome, duration: 0.1, start: 0, placement: .init(shard: 0, batch: batch))
    }

    private func record(_ id: Int) -> BatchRecord {
        BatchRecord(id: id, shard: 0, start: 0, end: 1, tests: [], termination: "exit 0")
    }

    func testFirstMachinePlansOthersJoinAndADifferentTestListIsRefused() throws {
        let a = try machine("a"), b = try machine("b"), c = try machine("c")
        guard case .planned(let nonce) = try a.join(tests: tests, plan: plan) else { return XCTFail("a plans") }
        XCTAssertEqual(try b.join(tests: tests.reversed(), plan: plan), .joined(nonce: nonce), "same tests in another order: joins run \(nonce)")
        XCTAssertThrowsError(try c.join(tests: Array(tests.prefix(2)), plan: [])) { error in
            let m = "\(error)"
            XCTAssertTrue(m.contains("planned for another test list (3 tests") && m.contains("this machine has 2 tests"), m)
        }
        // The plan was pushed once: two batches, not four.
        guard case .batch(let first, let b1) = try a.lease(), case .batch(let second, let b2) = try b.lease() else { return XCTFail("two batches") }
        XCTAssertEqual([b1.tests, b2.tests], plan.map(\.tests))
        XCTAssertNotEqual(first, second)
        let d = try machine("d")
        try d.join(tests: tests, plan: plan)
        XCTAssertEqual(try d.lease(), .wait, "queue empty but two batches leased")
    }

    func testAckedBatchesEndTheRunAndEveryKeyHasATTL() throws {
        let a = try machine("a"), b = try machine("b")
        try a.join(tests: tests, plan: plan)
        try b.join(tests: tests, plan: plan)
        guard case .batch(let x, _) = try a.lease(), case .batch(let y, _) = try b.lease() else { return XCTFail() }
        XCTAssertTrue(try a.ack(x, record: record(0), leftovers: []))
        XCTAssertEqual(try a.lease(), .wait)
        XCTAssertTrue(try b.ack(y, record: record(0), leftovers: []))
        XCTAssertEqual(try a.lease(), .done)
        XCTAssertEqual(try b.lease(), .done)
        try a.leave(RunMetadata(runID: "r", startedAt: 1, wallTime: 2, shards: 1, retries: 0, robotciVersion: ""))
        let c = try RedisConnection(host: "127.0.0.1", port: server.port)
        for key in [a.plan, a.batches, a.records, a.machines, a.done, a.seq, a.since] {
            let ttl = try c.command(["TTL", key]).integer ?? -9
            XCTAssertTrue(ttl > 0 && ttl <= RedisQueue.ttlSeconds, "\(key): TTL \(ttl)")
        }
    }

    func testAnExpiredLeaseRunsOnAnotherMachineAndTheLateFinishQueuesNothing() throws {
        let a = try machine("a", lease: 0.3), b = try machine("b", lease: 0.3)
        try a.join(tests: tests, plan: [plan[0]])
        try b.join(tests: tests, plan: [])
        guard case .batch(let id, _) = try a.lease() else { return XCTFail() }
        XCTAssertEqual(try b.lease(), .wait, "leased by a")
        usleep(500_000)  // a stops heartbeating (killed)
        guard case .batch(let again, let batch) = try b.lease() else { return XCTFail("the expired lease is re-leased") }
        XCTAssertEqual(again, id)
        XCTAssertEqual(batch.tests, plan[0].tests)
        XCTAssertEqual(try a.heartbeat([id]), [id], "a learns it lost the lease")
        XCTAssertTrue(try b.ack(id, record: record(0), leftovers: []))
        XCTAssertFalse(try a.ack(id, record: record(0), leftovers: [QueuedBatch(tests: [tests[1]], attempt: 1)]),
                       "a second finish of the same batch queues no leftovers")
        XCTAssertEqual(try b.lease(), .done)
    }

    /// Ten one-test chunks of 100 ms. A lease merges chunks of one group up to the plan's
    /// remaining work / (live machines × shards × batches per shard): the batch is sized for
    /// the fleet that is there when it is asked for.
    private func chunked(_ count: Int, group: (Int) -> String = { _ in "0.0" }) -> (tests: [TestID], chunks: [QueuedBatch]) {
        let tests = (0..<count).map { TestID("M.C/test\($0)") }
        return (tests, tests.enumerated().map { QueuedBatch.chunk([$1], group: group($0), expectedSeconds: 0.1) })
    }

    func testALeaseMergesChunksIntoABatchSizedForTheLiveMachines() throws {
        let (tests, chunks) = chunked(10)
        func joined(_ name: String, run: String) throws -> RedisQueue {
            let m = try machine(name, run: run)
            m.shape = BatchShape(shards: 1, batchesPerShard: 1, minimumBatchSeconds: 0.05)
            try m.join(tests: tests, plan: chunks)
            return m
        }
        // a alone: 1 000 ms left / 1 shard = the whole plan in one batch…
        let a = try joined("a", run: "one")
        guard case .batch(_, let whole) = try a.lease() else { return XCTFail("a leases") }
        XCTAssertEqual(whole.tests, tests, "one live machine: every chunk merged")
        XCTAssertNil(whole.group, "a merged batch is a plain batch: if its lease expires it runs again whole")
        XCTAssertEqual(whole.expected, 1_000)
        XCTAssertEqual(try a.lease(), .wait, "the merged chunks left the queue")

        // …two machines live from their join: each lease takes about half of what is left…
        let c = try joined("c", run: "two"), d = try joined("d", run: "two")
        guard case .batch(_, let half) = try c.lease(), case .batch(_, let quarter) = try d.lease() else { return XCTFail("two leases") }
        XCTAssertEqual(half.tests, Array(tests[0..<5]), "1 000 ms / 2 live shards")
        XCTAssertEqual(quarter.tests, Array(tests[5..<7]), "then 500 ms left / 2 live shards: two chunks")

        // …and a shard's batch is at most twice its last (slow start).
        let e = try joined("e", run: "three")
        guard case .batch(_, let small) = try e.lease(finishing: nil, longest: 0.2).lease else { return XCTFail("e leases") }
        XCTAssertEqual(small.tests, Array(tests[0..<2]), "its first batch: at most 200 ms")
        guard case .batch(_, let next) = try e.lease(finishing: nil, longest: e.shape.longest(after: 0.2)).lease else { return XCTFail() }
        XCTAssertEqual(next.tests, Array(tests[2..<6]), "then twice that")
    }

    func testChunksOfAnotherGroupRetriesAndTheCapsAreNeverMerged() throws {
        let (tests, chunks) = chunked(6) { $0 < 4 ? "0.0" : "1.0" }
        let a = try machine("a")
        a.shape = BatchShape(shards: 1, batchesPerShard: 1, minimumBatchSeconds: 0, maximumTests: 3)
        try a.join(tests: tests, plan: chunks)
        XCTAssertTrue(try a.record(tests[5], quarantined: false, attempt: attempt(1, .failed),
                                   retry: QueuedBatch(tests: [tests[5]], attempt: 2)))
        var leased: [[TestID]] = []
        while case .batch(let id, let batch) = try a.lease() {
            leased.append(batch.tests)
            try a.ack(id, record: record(0), leftovers: [])
        }
        XCTAssertEqual(leased, [[tests[5]], Array(tests[0..<3]), [tests[3]], Array(tests[4..<6])],
                       "the retry alone first; then at most 3 tests; a group never shares a batch with another")
    }

    /// One round trip per batch: the lease carries the previous batch's results, record and
    /// leftovers. Only the first finish of a batch queues its leftovers.
    func testALeaseCarriesThePreviousBatchsResultsAndAck() throws {
        let a = try machine("a")
        try a.join(tests: tests, plan: plan)
        guard case .batch(let id, _) = try a.lease() else { return XCTFail() }
        let finished = FinishedBatch(id: id, record: record(0), leftovers: [QueuedBatch(tests: [tests[1]], attempt: 1)],
                                     results: [StoredResult(test: tests[0], quarantined: false, attempt: attempt(1, .passed))])
        let (next, first) = try a.lease(finishing: finished)
        XCTAssertEqual(first, true)
        guard case .batch(let leftover, let body) = next else { return XCTFail("the leftover comes first") }
        XCTAssertEqual(body.tests, [tests[1]])
        XCTAssertFalse(try a.finish(finished), "a second finish of the batch queues nothing")
        try a.ack(leftover, record: record(1), leftovers: [])
        let snapshot = try a.snapshot()
        XCTAssertEqual(snapshot.attempts.map(\.test), [tests[0]])
        XCTAssertEqual(snapshot.attempts.first?.attempt.machine, "a")
        XCTAssertEqual(snapshot.batches.count, 3, "the record of each finish, the late one too")
    }

    func testAScriptRedisForgotIsLoadedAgain() throws {
        let a = try machine("a")
        try a.join(tests: tests, plan: plan)
        guard case .batch = try a.lease() else { return XCTFail() }
        let c = try RedisConnection(host: "127.0.0.1", port: server.port)
        XCTAssertEqual(try c.command(["SCRIPT", "FLUSH"]).text, "OK")
        guard case .batch = try a.lease() else { return XCTFail("NOSCRIPT: loaded again, leased") }
    }

    func testHeartbeatsKeepALease() throws {
        let a = try machine("a", lease: 0.4), b = try machine("b", lease: 0.4)
        try a.join(tests: tests, plan: [plan[0]])
        try b.join(tests: tests, plan: [])
        guard case .batch(let id, _) = try a.lease() else { return XCTFail() }
        for _ in 0..<8 {
            usleep(100_000)
            XCTAssertEqual(try a.heartbeat([id]), [])
        }
        XCTAssertEqual(try b.lease(), .wait, "0.8 s after leasing, a's heartbeats kept it")
    }

    /// Every result counts (issue 36): a second result of an attempt (a machine whose lease ran
    /// out) is kept and queues nothing; the same entry sent again is kept once.
    func testEveryResultIsKeptAndItsRetryQueuedOnceForAnotherMachine() throws {
        let a = try machine("a"), b = try machine("b")
        try a.join(tests: tests, plan: [])
        try b.join(tests: tests, plan: [])
        XCTAssertEqual(try b.lease(), .done)  // b is alive (leased once) and idle
        let retry = QueuedBatch(tests: [tests[0]], attempt: 2, avoid: "a")
        XCTAssertTrue(try a.record(tests[0], quarantined: false, attempt: attempt(1, .failed), retry: retry))
        XCTAssertFalse(try b.record(tests[0], quarantined: false, attempt: attempt(1, .failed), retry: retry), "a second result of attempt 1")
        XCTAssertFalse(try a.record(tests[0], quarantined: false, attempt: attempt(1, .failed), retry: retry), "the same entry sent again")
        XCTAssertEqual(try a.lease(), .wait, "a's own retry waits for another machine")
        guard case .batch(let id, let got) = try b.lease() else { return XCTFail("b takes a's retry") }
        XCTAssertEqual(got, retry)
        XCTAssertEqual(try a.lease(), .wait, "one retry queued, not two")
        XCTAssertTrue(try b.record(tests[0], quarantined: false, attempt: attempt(2, .passed), retry: nil))
        XCTAssertTrue(try b.ack(id, record: record(0), leftovers: []))
        XCTAssertEqual(try a.lease(), .done)
        let snapshot = try a.snapshot()
        XCTAssertEqual(snapshot.attempts.count, 3, "a's and b's attempt 1 (a's sent twice, kept once), b's attempt 2")
        let result = snapshot.result(runName: "run", commandLine: [])
        XCTAssertEqual(result.tests.map(\.outcome), [.flaky, .notRun, .notRun], "the plan's two other tests never ran: not run")
        XCTAssertEqual(result.tests[0].attempts.map(\.machine), ["a", "b", "b"])
        XCTAssertEqual(result.tests[0].attempts.map(\.number), [1, 1, 2])
    }

    func testARetryRunsOnItsOwnMachineWhenNoOtherLives() throws {
        let a = try machine("a"), b = try machine("b", lease: 0.2)
        try a.join(tests: tests, plan: [])
        try b.join(tests: tests, plan: [])
        XCTAssertEqual(try b.lease(), .done)
        try b.leave(RunMetadata(runID: "r", startedAt: 1, wallTime: 2, shards: 1, retries: 0, robotciVersion: ""))
        XCTAssertTrue(try a.record(tests[0], quarantined: false, attempt: attempt(1, .failed), retry: QueuedBatch(tests: [tests[0]], attempt: 2, avoid: "a")))
        guard case .batch = try a.lease() else { return XCTFail("no other machine left: a takes its own retry") }
    }

    func testALostRedisIsReportedAfterTheBackOff() throws {
        let a = try machine("a")
        a.backOff = [0.05, 0.05]
        try a.join(tests: tests, plan: plan)
        server.stop()
        XCTAssertThrowsError(try a.lease()) { error in
            XCTAssertTrue("\(error)".contains("lost the queue redis://127.0.0.1:\(server.port)/run") && "\(error)".contains("gave up after 2 reconnects"), "\(error)")
        }
    }

    func testUnreachableAtStartNamesTheAddress() throws {
        let port = RedisServer.freePort()
        XCTAssertThrowsError(try RedisQueue(address: QueueAddress(host: "127.0.0.1", port: port, name: "x"), machine: "a")) { error in
            XCTAssertTrue("\(error)".contains("127.0.0.1:\(port)") && "\(error)".contains("--queue"), "\(error)")
        }
    }

    // MARK: issue 25: a lost, replaced or finished queue

    private func redis() throws -> RedisConnection { try RedisConnection(host: "127.0.0.1", port: server.port) }

    private func lostKind(_ body: () throws -> Void) -> QueueLost.Kind? {
        do { try body() } catch let e as QueueLost { return e.kind } catch { XCTFail("not QueueLost: \(error)") }
        return nil
    }

    func testFlushAllMidRunIsALostQueueForEveryScript() throws {
        let a = try machine("a")
        try a.join(tests: tests, plan: plan)
        guard case .batch(let id, _) = try a.lease() else { return XCTFail() }
        _ = try redis().command(["FLUSHALL"])
        XCTAssertEqual(lostKind { _ = try a.lease() }, .vanished, "an empty Redis is not an empty queue")
        XCTAssertEqual(lostKind { try a.heartbeat([id]) }, .vanished)
        XCTAssertEqual(lostKind { try a.record(tests[0], quarantined: false, attempt: attempt(1, .passed), retry: nil) }, .vanished)
        XCTAssertEqual(lostKind { try a.ack(id, record: record(0), leftovers: []) }, .vanished)
        let keys = try redis().command(["KEYS", "*"]).array ?? []
        XCTAssertEqual(keys, [], "a lost script writes nothing")
        XCTAssertThrowsError(try a.snapshot(nonce: a.nonce)) { XCTAssertEqual(($0 as? QueueLost)?.kind, .vanished) }
    }

    func testAStalePlanOfAnotherRunCannotBeWrittenIntoAndItsResultsAreNotRead() throws {
        let a = try machine("a"), b = try machine("b")
        try a.join(tests: tests, plan: plan)
        XCTAssertTrue(try a.record(tests[0], quarantined: false, attempt: attempt(1, .failed), retry: nil))
        // Redis rolled back / the name reused: run 2 is planned under the same name.
        _ = try redis().command(["DEL", a.plan, a.queue, a.batches])
        guard case .planned(let second) = try b.join(tests: tests, plan: plan) else { return XCTFail("b plans run 2") }
        XCTAssertNotEqual(second, a.nonce)
        XCTAssertEqual(lostKind { try a.record(tests[1], quarantined: false, attempt: attempt(1, .passed), retry: nil) }, .replaced(nonce: second))
        XCTAssertEqual(lostKind { _ = try a.lease() }, .replaced(nonce: second), "a cannot lease run 2's batches")
        // Run 2's view: run 1's result (same test, same attempt number) is not its own.
        let snapshot = try b.snapshot(nonce: second)
        XCTAssertEqual(snapshot.attempts.count, 0, "run 1's result is not read into run 2")
        let result = snapshot.result(runName: "run", commandLine: [])
        XCTAssertEqual(result.tests.map(\.outcome), [.notRun, .notRun, .notRun])
        XCTAssertEqual(result.accounting.description, "3 planned, 3 accounted for (0 with a result, 3 not run)")
        // And a's salvage never writes over another run's plan.
        XCTAssertEqual(try a.salvage(tests: tests, result: RunResult(metadata: meta, tests: [], batches: []), metadata: meta),
                       "nothing: the queue now holds another run")
    }

    private var meta: RunMetadata { RunMetadata(runID: "r", startedAt: 1, wallTime: 2, shards: 1, retries: 0, robotciVersion: "") }

    func testADeletedQueueKeyLeavesTestsNotRunWithAReasonAndTheRunFinished() throws {
        let a = try machine("a")
        try a.join(tests: tests, plan: plan)
        guard case .batch(let id, let batch) = try a.lease() else { return XCTFail() }
        for t in batch.tests { XCTAssertTrue(try a.record(t, quarantined: false, attempt: attempt(1, .passed), retry: nil)) }
        _ = try redis().command(["DEL", a.queue])  // evicted: the second batch is gone
        XCTAssertTrue(try a.ack(id, record: record(0), leftovers: []))
        XCTAssertEqual(try a.lease(), .done)
        let snapshot = try a.snapshot(nonce: a.nonce)
        XCTAssertNotNil(snapshot.finishedAt, "the first done marks the plan finished")
        let result = snapshot.result(runName: "run", commandLine: [])
        XCTAssertEqual(result.tests.map(\.outcome), [.passed, .passed, .notRun])
        XCTAssertEqual(result.tests[2].reason, "the queue has no result for it: its batch was lost (an evicted or deleted key?)")
        XCTAssertEqual(result.counts.failing, 1, "a test that never ran fails the run")
        XCTAssertEqual(result.accounting.description, "3 planned, 3 accounted for (2 with a result, 1 not run)")

        // Joining it again (CI re-runs a job with the same queue name) says it is over.
        let late = try machine("late")
        guard case .finished(let nonce, let at, let lost) = try late.join(tests: tests, plan: plan) else { return XCTFail("finished") }
        XCTAssertEqual(nonce, a.nonce)
        XCTAssertFalse(lost)
        XCTAssertLessThan(abs(at.timeIntervalSinceNow), 60)
        XCTAssertEqual(try redis().command(["LLEN", a.queue]).integer, 0, "a finished queue gets no new batches")
    }

    func testAnEvictedBatchesKeyMarksTheRunLostForEveryMachine() throws {
        let a = try machine("a"), b = try machine("b")
        try a.join(tests: tests, plan: plan)
        try b.join(tests: tests, plan: plan)
        _ = try redis().command(["DEL", a.batches])
        guard case .batchMissing? = lostKind({ _ = try a.lease() }) else { return XCTFail("a batch without its tests") }
        XCTAssertEqual(lostKind { _ = try b.lease() }, .marked, "b learns the run is lost")
    }

    func testLostMachinesPutTheirResultsBackAndTheRestIsNotRun() throws {
        let a = try machine("a"), b = try machine("b")
        try a.join(tests: tests, plan: plan)
        try b.join(tests: tests, plan: plan)
        _ = try redis().command(["FLUSHALL"])  // or a restart without persistence
        func ran(_ t: TestID, _ outcome: AttemptOutcome) -> RunResult {
            RunResult(metadata: meta, tests: [TestRecord(id: t, attempts: [attempt(1, outcome)])], batches: [record(0)])
        }
        XCTAssertEqual(try a.salvage(tests: tests, result: ran(tests[0], .passed), metadata: meta),
                       "restored the run's plan (marked lost) with this machine's 1 results")
        XCTAssertEqual(lostKind { _ = try b.lease() }, .marked, "the restored plan is not a live queue")
        XCTAssertEqual(try b.salvage(tests: tests, result: ran(tests[1], .failed), metadata: meta),
                       "added this machine's 1 results to the run (marked lost)")
        let snapshot = try a.snapshot()
        XCTAssertTrue(snapshot.lost)
        let result = snapshot.result(runName: "run", commandLine: [])
        XCTAssertEqual(result.tests.map(\.outcome), [.passed, .failed, .notRun])
        XCTAssertEqual(result.tests[2].reason, "the queue was lost mid-run (Redis lost its keys) and no machine put back a result for it")
        XCTAssertEqual(result.metadata.machines, ["a", "b"])
        guard case .finished(_, _, true) = try machine("c").join(tests: tests, plan: plan) else { return XCTFail("a lost run is over") }
    }

    func testAResultForATestOutsideThePlanIsRefusedNotReported() throws {
        let a = try machine("a")
        try a.join(tests: tests, plan: [])
        let evil = TestID("Evil.Tests/testRm")
        XCTAssertTrue(try a.record(evil, quarantined: false, attempt: attempt(1, .passed), retry: nil))
        XCTAssertTrue(try a.record(tests[0], quarantined: false, attempt: attempt(1, .passed), retry: nil))
        let result = try a.snapshot(nonce: a.nonce).result(runName: "run", commandLine: [])
        XCTAssertEqual(result.tests.map(\.id), tests, "every planned test once, nothing else")
        XCTAssertEqual(result.refused, [evil])
        XCTAssertEqual(result.accounting.description,
                       "3 planned, 3 accounted for (1 with a result, 2 not run); 1 result for unplanned tests refused")
    }
}
