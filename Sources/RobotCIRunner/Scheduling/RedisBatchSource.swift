import Foundation
import ProcessToolkit
import RobotCICore
import RobotCIQueue
import StandardStreams

/// Batches leased from the shared Redis queue (`--queue`), for this machine's shards.
/// Leases are extended by a heartbeat thread while their batches run. When Redis stays
/// unreachable after the back-off, the source is *lost*: shards get no new work, the
/// batches already running finish into this machine's journal, and the run ends.
final class RedisBatchSource: BatchSource {
    let queue: RedisQueue
    /// Retries per test (`--retries`, `rules:`), and which failures earn one.
    let rules: TestRules

    /// What this machine's shards and its heartbeat share.
    private struct State {
        var nextLocalID = 0
        /// Local batch id → queue batch id, for batches this machine runs now.
        var held: [Int: Int] = [:]
        var records: [Int: BatchRecord] = [:]
        /// What runs again of a batch's tests without a result.
        var leftoverPolicy = LeftoverPolicy()
        var stopped = false
        var finished = false
        var lost: QueueLost?
        /// Batches this machine leased (a run that leased none and lost Redis exits 2).
        var leasedCount = 0
        var onRemoteStop: (@Sendable (String) -> Void)?
        var heardStop = false
        /// Local batch id → the shard running it (its finish waits for that shard's next lease).
        var shardOf: [Int: Int] = [:]
        /// Results of running batches that earn no retry, by local batch id: they travel with
        /// the batch's finish.
        var buffered: [Int: [StoredResult]] = [:]
        /// A shard's finished batch, sent with its next lease (one round trip), or by the
        /// heartbeat thread when that lease is late (`flushAfter`).
        var pending: [Int: (batch: FinishedBatch, since: Date)] = [:]
        /// Each shard's last merged batch, expected seconds (slow start: the next is at most twice).
        var lastExpected: [Int: Double] = [:]
    }

    /// A finished batch waits at most this long for its shard's next lease (held back by the
    /// concurrency governor, say) before the heartbeat thread sends it alone.
    static let flushAfter = 1.0

    private let state = LockedCondition(State())

    /// Why the queue was lost, if it was.
    var lost: QueueLost? { state.withLock { $0.lost } }
    /// Batches this machine leased (a run that leased none and lost Redis exits 2).
    var leasedCount: Int { state.withLock { $0.leasedCount } }

    /// Whether a test is quarantined (stored with its results, for the merged report).
    let quarantine: @Sendable (TestID) -> Bool
    /// The identities this machine discovered (repetitions and browsers included): it runs no
    /// other, whatever a batch says.
    let discovered: Set<TestID>

    init(queue: RedisQueue, rules: TestRules, discovered: [TestID], quarantine: @escaping @Sendable (TestID) -> Bool) {
        self.queue = queue
        self.rules = rules
        self.discovered = Set(discovered)
        self.quarantine = quarantine
    }

    /// Starts extending this machine's leases every third of the lease timeout; between
    /// beats, sends finished batches whose shard has not leased again within `flushAfter`.
    func startHeartbeat() {
        let interval = max(0.05, queue.leaseTimeout / 3)
        let tick = min(interval, Self.flushAfter / 2)
        let thread = Thread { [weak self] in
            var lastBeat = Date.distantPast
            while let self {
                if Date().timeIntervalSince(lastBeat) >= interval {
                    guard self.beat() else { break }
                    lastBeat = Date()
                }
                self.flushLate()
                Thread.sleep(forTimeInterval: tick)
            }
        }
        thread.name = "robotci-queue-heartbeat"
        thread.stackSize = 1 << 20
        thread.start()
    }

    /// One heartbeat; false once the run is over or the queue is lost.
    private func beat() -> Bool {
        // A finished batch not yet acknowledged is still this machine's lease.
        guard let ids: [Int] = state.withLock({ $0.finished || $0.lost != nil ? nil : Array($0.held.values) + $0.pending.values.map(\.batch.id) })
        else { return false }
        do {
            try queue.heartbeat(ids)
            if let reason = try queue.stopReason() {
                remoteStop(reason)
                return false
            }
        } catch {
            markLost(error)
            return false
        }
        return true
    }

    /// The queue cannot be trusted any more (its run vanished or changed, Redis is gone, a
    /// batch was forged): no more leases; the first cause is kept and printed once.
    func markLost(_ error: Error) {
        let message = (error as? QueueLost) ?? QueueLost(.unreachable, "lost the queue \(queue.address): \(error)")
        let first: Bool = state.withLock { s in
            guard s.lost == nil else { return false }
            s.lost = message
            state.broadcast()
            return true
        }
        if first {
            let running = state.withLock { $0.held.count }
            StandardStream.error.write("robotci: error: \(message.message); no more batches are leased: "
                + "finishing the \(running) running, their results go to this machine's journal\n")
        }
    }

    private var isLost: Bool { state.withLock { $0.lost != nil } }

    /// Sends the finished batches that waited past `flushAfter` for their shard's next lease.
    private func flushLate() {
        let late: [FinishedBatch] = state.withLock { s in
            let due = s.pending.filter { Date().timeIntervalSince($0.value.since) >= Self.flushAfter }
            for shard in due.keys { s.pending.removeValue(forKey: shard) }
            return due.values.map(\.batch)
        }
        for batch in late { send(batch) }
    }

    /// Sends a finished batch without a lease.
    private func send(_ batch: FinishedBatch) {
        guard !isLost else { return }
        do { try queue.finish(batch) } catch { markLost(error) }
    }

    func next(shard: Int) -> WorkItem? {
        while true {
            let (stop, finished, last): (Bool, FinishedBatch?, Double?) = state.withLock { s in
                (s.stopped || s.lost != nil, s.pending.removeValue(forKey: shard)?.batch, s.lastExpected[shard])
            }
            if stop {
                // A batch that finished before the stop is acknowledged, as it would have been.
                if let finished { send(finished) }
                return nil
            }
            let lease: RedisQueue.Lease
            do { lease = try queue.lease(finishing: finished, longest: queue.shape.longest(after: last)).lease } catch {
                markLost(error)
                return nil
            }
            switch lease {
            case .done:
                return nil
            case .stopped(let reason):
                remoteStop(reason)
                return nil
            case .wait:
                state.sleep(atMost: 0.2)
            case .batch(let id, let batch):
                let tests = batch.tests.filter { discovered.contains($0) }
                let foreign = batch.tests.filter { !discovered.contains($0) }
                guard foreign.isEmpty else {
                    // Running an id this machine never listed would run code nobody asked
                    // for, and its result could not be trusted: the queue was tampered with.
                    let names = foreign.prefix(5).map(\.description).joined(separator: ", ")
                    markLost(QueueLost(.tampered, "the queue \(queue.address) handed this machine batch \(id) with "
                        + "\(foreign.count) test\(foreign.count == 1 ? "" : "s") it did not discover (\(names)\(foreign.count > 5 ? ", …" : "")): "
                        + "the queue was tampered with or another run wrote into it; nothing of that batch ran here. "
                        + "Use a new queue name, on a Redis only this run's machines write to"))
                    return nil
                }
                return state.withLock { s in
                    let local = s.nextLocalID
                    s.nextLocalID += 1
                    s.held[local] = id
                    s.shardOf[local] = shard
                    if let ms = batch.expected { s.lastExpected[shard] = Double(ms) / 1000 }
                    s.leasedCount += 1
                    return WorkItem(id: local, tests: tests, attempt: batch.attempt)
                }
            }
        }
    }

    /// A result that earns no retry travels with its batch's finish (one round trip per
    /// batch); a failure is stored at once, so its retry is queued for another machine now.
    func attemptFinished(_ test: TestID, attempt: Attempt) -> Bool {
        if isLost { return false }
        let stopping = state.withLock { $0.stopped }
        let retry = rules.retries(test, after: attempt) && !stopping
            ? QueuedBatch(tests: [test], attempt: attempt.number + 1, avoid: queue.machine) : nil
        if retry == nil && !attempt.outcome.isFailure {
            let result = StoredResult(test: test, quarantined: quarantine(test), attempt: attempt)
            let buffered: Bool = state.withLock { s in
                guard s.held[attempt.batch] != nil else { return false }
                s.buffered[attempt.batch, default: []].append(result)
                return true
            }
            if buffered { return false }
        }
        do {
            let stored = try queue.record(test, quarantined: quarantine(test), attempt: attempt, retry: retry)
            return stored && retry != nil
        } catch {
            markLost(error)
            return false
        }
    }

    func batchFinished(_ record: BatchRecord) {
        state.withLock { $0.records[record.id] = record }
    }

    /// The batch's finish waits for its shard's next lease, which carries it (one round trip).
    func finish(_ item: WorkItem, unstarted: [TestID], noTestStarted: Bool, isolate: [TestID]) -> [TestID] {
        let (id, record, stopping, plan, results, shard) = state.withLock { s in
            let plan = s.leftoverPolicy.plan(attempt: item.attempt, unstarted: unstarted, noTestStarted: noTestStarted,
                                             isolate: isolate, stopped: s.stopped)
            return (s.held.removeValue(forKey: item.id), s.records.removeValue(forKey: item.id), s.stopped, plan,
                    s.buffered.removeValue(forKey: item.id) ?? [], s.shardOf.removeValue(forKey: item.id))
        }
        if isLost { return plan.givenUp }
        guard let id, let record, let shard, !stopping else {
            // Interrupted: no ack, so the lease expires and another machine runs the batch;
            // the results it has are stored all the same.
            do { try queue.store(results) } catch { markLost(error) }
            return plan.givenUp
        }
        // A first run's leftovers stay one batch; the rest run alone.
        let group = plan.replanned.isEmpty ? [] : [QueuedBatch(tests: plan.replanned, attempt: item.attempt)]
        let leftovers = group + plan.alone.map { QueuedBatch(tests: [$0], attempt: item.attempt) }
        let finished = FinishedBatch(id: id, record: record, leftovers: leftovers, results: results)
        let earlier: FinishedBatch? = state.withLock { s in
            defer { s.pending[shard] = (finished, Date()) }
            return s.pending[shard]?.batch
        }
        if let earlier { send(earlier) }
        return plan.givenUp
    }

    /// Called once when another machine stopped the run (`--max-failures`): the runner stops
    /// this machine's run the same way.
    var onRemoteStop: (@Sendable (String) -> Void)? {
        get { state.withLock { $0.onRemoteStop } }
        set { state.withLock { $0.onRemoteStop = newValue } }
    }

    private func remoteStop(_ reason: String) {
        let first: Bool = state.withLock { s in
            defer { s.heardStop = true }
            return !s.heardStop
        }
        // Outside the lock: the callback stops this source too.
        if first { onRemoteStop?(reason) }
    }

    /// Stops this machine and tells every other machine of the queue to stop.
    func stopRun(reason: String) {
        stop()
        state.withLock { $0.heardStop = true }
        guard !isLost else { return }
        do { try queue.stop(reason: reason) } catch { markLost(error) }
    }

    func stop() {
        state.withLock { s in
            s.stopped = true
            state.broadcast()
        }
    }

    /// Ends the heartbeat and tells the queue this machine left (metadata for the lanes).
    func close(_ metadata: RunMetadata) {
        let unsent: [FinishedBatch] = state.withLock { s in
            s.finished = true
            defer { s.pending = [:] }
            return s.pending.values.map(\.batch)
        }
        for batch in unsent { send(batch) }
        guard !isLost else { return }
        do { try queue.leave(metadata) } catch { markLost(error) }
    }
}
