import Foundation
import RobotCICore
import RobotCIQueue
import RobotCIReport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `--queue`: joining the shared queue, the source that leases from it, and the exit code
/// and re-opening that depend on the whole run rather than this machine's share.
extension Runner {
    /// Joins the queue: the first machine plans the run as small chunks of the longest-first
    /// order (`QueueChunks`); each lease merges chunks into a batch sized for the machines
    /// live at that moment, so batches shrink towards the end however many machines join.
    func joinQueue(_ redis: RedisQueue, tests: [TestID], driver: any TestDriver) throws -> (join: QueueJoin, batches: Int) {
        let cutter = BatchCutter(maximumTests: config.maxBatchSize)
        redis.shape = BatchShape(shards: max(1, config.shards), batchesPerShard: cutter.batchesPerShard,
                                 minimumBatchSeconds: cutter.minimumBatchSeconds, maximumTests: config.maxBatchSize)
        let chunks = QueueChunks.cut(Planner.order(tests, timings: previousTimings), maximumTests: min(QueueChunks.maximumTests, config.maxBatchSize),
                                     group: { driver.batchGroup(of: $0) })
        return (try redis.join(tests: tests, plan: chunks), chunks.count)
    }

    /// The local queue of `planned`, its batches cut for `cutFor` shards at once, or with
    /// `--queue` the shared one (`setup`'s, already joined).
    func batchSource(_ setup: RunSetup, planned: [PlannedTest], shards: Int, metadata: RunMetadata,
                     quarantined: @escaping @Sendable (TestID) -> Bool, cutFor: Int) throws
        -> (source: BatchSource, shared: RedisBatchSource?)
    {
        let (driver, rules) = (setup.driver, setup.rules)
        guard let redis = setup.redis, let joined = setup.joined else {
            return (WorkQueue(planned: planned, shards: shards, rules: rules, cutter: BatchCutter(maximumTests: config.maxBatchSize),
                              cutFor: cutFor, group: { driver.batchGroup(of: $0) }), nil)
        }
        try redis.announce(metadata)
        let what: String
        if case .planned = joined.join { what = "planned \(joined.batches) chunks" } else { what = "joined" }
        say("robotci: queue \(redis.address) as \(redis.machine): \(what) (run \(joined.join.nonce))")
        let source = RedisBatchSource(queue: redis, rules: rules, discovered: setup.tests, quarantine: quarantined)
        source.startHeartbeat()
        return (source, source)
    }

    /// The whole run's verdict, assembled from what the queue holds against its plan: a test
    /// without a result there is `notRun` and fails the run. Never this machine's own
    /// verdict: it ran only a share, and the rest may have run nowhere.
    func queueExitCode(local: RunResult, shared: RedisBatchSource, redis: RedisQueue) -> Int32 {
        if shared.lost == nil {
            // The queue is empty and nothing is leased: every machine's results are in Redis.
            // A test that failed here may have passed its retry elsewhere.
            do {
                let snapshot = try redis.snapshot(nonce: redis.nonce)
                if snapshot.lost {
                    throw QueueLost(.marked, "lost the queue \(redis.address): another machine found this run lost mid-run (its keys vanished or were evicted)")
                }
                let whole = snapshot.result(runName: redis.address.name, commandLine: commandLine)
                describe(whole, of: redis)
                let code = verdict(whole.counts)
                say("robotci: queue verdict (the whole run): " + (code == 0 ? "PASSED" : "FAILED")
                    + " (`robotci report --queue \(redis.address) --output DIR` writes its report)")
                return code
            } catch {
                shared.markLost(error)
            }
        }
        guard let lost = shared.lost else { return 2 }
        // Put this machine's results back when Redis lost the run's keys, so the queue (and
        // `robotci report --queue`) knows what ran on the machines that came back.
        if lost.canSalvage {
            do {
                say("robotci: queue \(redis.address): " + (try redis.salvage(tests: Array(shared.discovered), result: local, metadata: local.metadata)))
            } catch {
                say("robotci: queue \(redis.address): cannot put this machine's results back (\(error))")
            }
        }
        // What is known now: the queue's view of this run if it still has one, else this
        // machine's own results against the whole plan (every machine has the same tests).
        var whole: RunResult
        if let snapshot = try? redis.snapshot(nonce: redis.nonce) {
            whole = snapshot.result(runName: redis.address.name, commandLine: commandLine)
        } else {
            var assembly = RunAssembly(plan: RunPlan(tests: Array(shared.discovered)))
            for t in local.tests { for a in t.attempts { assembly.add(t.id, quarantined: t.quarantined, attempt: a) } }
            whole = assembly.result(metadata: local.metadata) { _ in
                "the queue was lost before this machine saw a result for it (it may have run on another machine; the queue held that result)"
            }
        }
        say("robotci: error: the run is incomplete: \(lost.message)")
        describe(whole, of: redis)
        say("robotci: queue verdict (the whole run): FAILED (lost queue, exit 2). This machine's results are in \(config.reportDir)/ "
            + "(\(local.counts.total) tests); `robotci report --queue \(redis.address) --output DIR` collects what the queue has")
        return 2
    }

    /// The whole run, as the queue has it: counts, the accounting line, what never ran.
    func describe(_ whole: RunResult, of redis: RedisQueue) {
        let c = whole.counts
        say("robotci: queue \(redis.address): \(c.total) tests on \((whole.metadata.machines ?? []).count) machines, "
            + "\(c.passed) passed, \(c.failing) failing, \(c.flaky) flaky, \(c.skipped) skipped, \(c.notRun) not run (the whole run)")
        say("robotci: queue: \(whole.accounting)")
        if let lines = Self.notRunLines(whole) { say(lines) }
        if let refused = whole.refused, !refused.isEmpty {
            say("robotci: warning: the queue holds results for \(refused.count) test\(refused.count == 1 ? "" : "s") outside its plan, refused: "
                + refused.prefix(20).map(\.description).joined(separator: ", ") + (refused.count > 20 ? ", …" : ""))
        }
    }

    /// CI re-ran a job of a queue run that is over (the queue name is the same): the run's
    /// tests that did not pass run again, in the same run at their next attempt numbers, so
    /// the queue's report shows both. Returns the number of batches queued (by this machine
    /// or another that re-opened first), nil when nothing needs to run again.
    func reopenQueue(_ redis: RedisQueue, nonce: String, at: Date, shards: Int) throws -> Int? {
        let whole = try redis.snapshot(nonce: nonce).result(runName: redis.address.name, commandLine: commandLine)
        let again = whole.tests.filter { $0.outcome.failsBuild }
        guard !again.isEmpty else { return nil }
        // Each test at its next attempt number; tests of one attempt number (and one
        // repetition: a process runs an id once) share batches.
        struct Group: Hashable, Comparable {
            var attempt: Int
            var repetition: Int
            static func < (a: Group, b: Group) -> Bool { (a.attempt, a.repetition) < (b.attempt, b.repetition) }
        }
        let byAttempt = Dictionary(grouping: again) {
            Group(attempt: ($0.attempts.map(\.number).max() ?? 0) + 1, repetition: $0.id.repetition?.index ?? 0)
        }
        let size = max(1, min(config.maxBatchSize, (again.count + shards * 2 - 1) / (shards * 2)))
        var batches: [QueuedBatch] = []
        for group in byAttempt.keys.sorted() {
            let attempt = group.attempt
            let ids = (byAttempt[group] ?? []).map(\.id)
            for start in stride(from: 0, to: ids.count, by: size) {
                batches.append(QueuedBatch(tests: Array(ids[start..<min(ids.count, start + size)]), attempt: attempt))
            }
        }
        let first = try redis.reopen(batches)
        say("robotci: the queue \(redis.address.name) finished earlier (run \(nonce), at \(ISO8601DateFormatter().string(from: at))) with "
            + "\(again.count) test\(again.count == 1 ? "" : "s") that did not pass; " + (first ? "re-opened it: " : "another machine re-opened it: ")
            + "they run again in the same run (new attempts), the rest keep their verdicts")
        return batches.count
    }

    /// `--queue` found its run already over with nothing to re-run (or lost): say so plainly
    /// and exit with that run's verdict, never repeating it silently.
    func finishedQueue(_ redis: RedisQueue, nonce: String, at: Date, lost: Bool) -> Int32 {
        let when = ISO8601DateFormatter().string(from: at)
        let advice = "use a new queue name per CI attempt (e.g. include the CI attempt number: GITHUB_RUN_ATTEMPT, CI_PIPELINE_ID) to run again"
        let whole: RunResult
        do {
            whole = try redis.snapshot(nonce: nonce).result(runName: redis.address.name, commandLine: commandLine)
        } catch {
            say("robotci: error: the queue \(redis.address) already finished (run \(nonce), at \(when)) and its results cannot be read (\(error)); this machine ran nothing; \(advice)")
            return 2
        }
        let c = whole.counts
        let code: Int32 = lost ? 2 : verdict(c)
        let verdictText = (code == 0 ? "PASSED" : "FAILED") + (lost ? " (the run was lost mid-run)" : "")
        say("robotci: the queue \(redis.address.name) already \(lost ? "ended lost" : "finished") (run \(nonce), at \(when)); this machine ran nothing; "
            + "its verdict: \(verdictText): \(c.passed) passed, \(c.failing) failing, \(c.flaky) flaky, \(c.notRun) not run; "
            + "\(whole.accounting); \(advice)")
        if let lines = Self.notRunLines(whole) { say(lines) }
        return code
    }
}
