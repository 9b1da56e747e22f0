import Foundation
import ProcessToolkit
import RobotCICore
import RobotCIQueue

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
    }

    private let state = LockedCondition(State())

    /// Why the queue was lost, if it was.
    var lost: QueueLost? { state.withLock { $0.lost } }
    /// Batches this machine leased (a run that leased none and lost Redis exits 2).
    var leasedCount: Int { state.withLock { $0.leasedCount } }

    /// Whether a test is quarantined (stored with its results, for the merged report).
    let quarantine: @Sendable (TestID) -> Bool
    /// The tests this machine discovered: it runs no other id, whatever a batch says.
    let discovered: Set<TestID>

    init(queue: RedisQueue, rules: TestRules, discovered: [TestID], quarantine: @escaping @Sendable (TestID) -> Bool) {
        self.queue = queue
        self.rules = rules
        self.discovered = Set(discovered)
        self.quarantine = quarantine
    }

    /// Starts extending this machine's leases every third of the lease timeout.
    func startHeartbeat() {
        let interval = max(0.05, queue.leaseTimeout / 3)
        let thread = Thread { [weak self] in
            while let self, self.beat() {
                Thread.sleep(forTimeInterval: interval)
            }
        }
        thread.name = "robotci-queue-heartbeat"
        thread.stackSize = 1 << 20
        thread.start()
    }

    /// One heartbeat; false once the run is over or the queue is lost.
    private func beat() -> Bool {
        guard let ids: [Int] = state.withLock({ $0.finished || $0.lost != nil ? nil : Array($0.held.values) }) else { return false }
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
            FileHandle.standardError.write(Data(("robotci: error: \(message.message); no more batches are leased: "
                + "finishing the \(running) running, their results go to this machine's journal\n").utf8))
        }
    }

    private var isLost: Bool { state.withLock { $0.lost != nil } }

    func next(shard: Int) -> WorkItem? {
        while true {
            if state.withLock({ $0.stopped || $0.lost != nil }) { return nil }
            let lease: RedisQueue.Lease
            do { lease = try queue.lease() } catch {
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
                let foreign = batch.tests.filter { !discovered.contains($0) }
                guard foreign.isEmpty else {
                    // Running an id this machine never listed would run code nobody asked
                    // for, and its result could not be trusted: the queue was tampered with.
                    let names = foreign.prefix(5).map(\.rawValue).joined(separator: ", ")
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
                    s.leasedCount += 1
                    return WorkItem(id: local, tests: batch.tests, attempt: batch.attempt)
                }
            }
        }
    }

    func attemptFinished(_ test: TestID, attempt: Attempt) -> Bool {
        if isLost { return false }
        let stopping = state.withLock { $0.stopped }
        let retry = rules.retries(test, after: attempt) && !stopping
            ? QueuedBatch(tests: [test], attempt: attempt.number + 1, avoid: queue.machine) : nil
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

    func finish(_ item: WorkItem, unstarted: [TestID], noTestStarted: Bool, isolate: [TestID]) -> [TestID] {
        let (id, record, stopping, plan): (Int?, BatchRecord?, Bool, LeftoverPolicy.Plan) = state.withLock { s in
            let plan = s.leftoverPolicy.plan(attempt: item.attempt, unstarted: unstarted, noTestStarted: noTestStarted,
                                             isolate: isolate, stopped: s.stopped)
            return (s.held.removeValue(forKey: item.id), s.records.removeValue(forKey: item.id), s.stopped, plan)
        }
        // Interrupted: no ack, so the lease expires and another machine runs the batch.
        guard let id, let record, !stopping, !isLost else { return plan.givenUp }
        // A first run's leftovers stay one batch; the rest run alone.
        let group = plan.replanned.isEmpty ? [] : [QueuedBatch(tests: plan.replanned, attempt: item.attempt)]
        let leftovers = group + plan.alone.map { QueuedBatch(tests: [$0], attempt: item.attempt) }
        do {
            try queue.ack(id, record: record, leftovers: leftovers)
        } catch {
            markLost(error)
        }
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
        state.withLock { $0.finished = true }
        guard !isLost else { return }
        do { try queue.leave(metadata) } catch { markLost(error) }
    }
}
