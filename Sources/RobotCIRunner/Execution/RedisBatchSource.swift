import Foundation
import RobotCICore
import RobotCIQueue

/// Batches leased from the shared Redis queue (`--queue`), for this machine's shards.
/// Leases are extended by a heartbeat thread while their batches run. When Redis stays
/// unreachable after the back-off, the source is *lost*: shards get no new work, the
/// batches already running finish into this machine's journal, and the run ends.
final class RedisBatchSource: BatchSource, @unchecked Sendable {
    let queue: RedisQueue
    /// Retries per test (`--retries`, `rules:`), and which failures earn one.
    let rules: TestRules
    private let condition = NSCondition()
    private var nextLocalID = 0
    /// Local batch id → queue batch id, for batches this machine runs now.
    private var held: [Int: Int] = [:]
    private var records: [Int: BatchRecord] = [:]
    /// What runs again of a batch's tests without a result.
    private var leftoverPolicy = LeftoverPolicy()
    private var stopped = false
    private var finished = false
    private(set) var lost: QueueLost?
    /// Batches this machine leased (a run that leased none and lost Redis exits 2).
    private(set) var leasedCount = 0

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
        guard let ids: [Int] = condition.withLock({ finished || lost != nil ? nil : Array(held.values) }) else { return false }
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
        let first: Bool = condition.withLock {
            guard lost == nil else { return false }
            lost = message
            condition.broadcast()
            return true
        }
        if first {
            let running = condition.withLock { held.count }
            FileHandle.standardError.write(Data(("robotci: error: \(message.message); no more batches are leased: "
                + "finishing the \(running) running, their results go to this machine's journal\n").utf8))
        }
    }

    private var isLost: Bool { condition.withLock { lost != nil } }

    func next(shard: Int) -> WorkItem? {
        while true {
            if condition.withLock({ stopped || lost != nil }) { return nil }
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
                condition.withLock { _ = condition.wait(until: Date().addingTimeInterval(0.2)) }
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
                return condition.withLock {
                    let local = nextLocalID
                    nextLocalID += 1
                    held[local] = id
                    leasedCount += 1
                    return WorkItem(id: local, tests: batch.tests, attempt: batch.attempt)
                }
            }
        }
    }

    func attemptFinished(_ test: TestID, attempt: Attempt) -> Bool {
        if isLost { return false }
        let stopping = condition.withLock { stopped }
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
        condition.withLock { records[record.id] = record }
    }

    func finish(_ item: WorkItem, unstarted: [TestID], noTestStarted: Bool, isolate: [TestID]) -> [TestID] {
        let (id, record, stopping, plan): (Int?, BatchRecord?, Bool, LeftoverPolicy.Plan) = condition.withLock {
            let plan = leftoverPolicy.plan(attempt: item.attempt, unstarted: unstarted, noTestStarted: noTestStarted,
                                           isolate: isolate, stopped: stopped)
            return (held.removeValue(forKey: item.id), records.removeValue(forKey: item.id), stopped, plan)
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
    var onRemoteStop: (@Sendable (String) -> Void)?
    private var heardStop = false

    private func remoteStop(_ reason: String) {
        let first: Bool = condition.withLock {
            defer { heardStop = true }
            return !heardStop
        }
        if first { onRemoteStop?(reason) }
    }

    /// Stops this machine and tells every other machine of the queue to stop.
    func stopRun(reason: String) {
        stop()
        condition.withLock { heardStop = true }
        guard !isLost else { return }
        do { try queue.stop(reason: reason) } catch { markLost(error) }
    }

    func stop() {
        condition.withLock {
            stopped = true
            condition.broadcast()
        }
    }

    /// Ends the heartbeat and tells the queue this machine left (metadata for the lanes).
    func close(_ metadata: RunMetadata) {
        condition.withLock { finished = true }
        guard !isLost else { return }
        do { try queue.leave(metadata) } catch { markLost(error) }
    }
}
