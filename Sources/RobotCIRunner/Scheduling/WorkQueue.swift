import Foundation
import ProcessToolkit
import RobotCICore

/// A batch handed to a shard: tests that run together in one child process.
struct WorkItem: Sendable {
    var id: Int
    var tests: [TestID]
    /// 1 for first runs, 2… when this is a retry (retries always run alone).
    var attempt: Int
}

/// The queue all shards pull from (work stealing), and the bookkeeping that
/// decides retries and re-queues. One lock guards it; shards block on its condition.
final class WorkQueue: BatchSource {
    private struct Retry {
        var test: TestID
        var attempt: Int
        var avoidShard: Int
    }

    /// What the shards share: the tests not yet cut, the retries, and who runs or waits.
    private struct State {
        var queue: [PlannedTest]
        var head = 0
        var remainingSeconds: Double
        var retries: [Retry] = []
        var inFlight = 0
        var idleShards = 0
        var nextBatchID = 0
        var stopped = false
        /// The highest repetition (`--repeat-each`) a batch was cut from; 0 without repetitions.
        var highestRepetitionBegun = 0
        /// What runs again of a batch's tests without a result.
        var leftovers = LeftoverPolicy()

        mutating func issue(_ item: WorkItem) -> WorkItem {
            var item = item
            item.id = nextBatchID
            nextBatchID += 1
            inFlight += 1
            return item
        }
    }

    private let state: LockedCondition<State>

    /// How many shards the batches are cut for: the shards, or in a warm run as many as the
    /// governor will let run at once (`ConcurrencyGovernor.shardsAtOnce`).
    let cutFor: Int
    /// Retries per test (`--retries`, `rules:`), and which failures earn one.
    let rules: TestRules
    let cutter: BatchCutter
    /// A single XCTest filter argument must stay under Linux's 128 KiB per-argument limit.
    let maxFilterBytes = 100_000

    private let estimates: [TestID: Double]

    /// Tests of different groups never share a batch (`TestDriver.batchGroup`: a bundle's
    /// Swift Testing tests run with another command line than its XCTest ones).
    private let group: @Sendable (TestID) -> Int

    convenience init(planned: [PlannedTest], shards: Int, maxRetries: Int, cutter: BatchCutter, group: @escaping @Sendable (TestID) -> Int = { _ in 0 }) {
        self.init(planned: planned, shards: shards, rules: TestRules(retries: maxRetries), cutter: cutter, group: group)
    }

    init(planned: [PlannedTest], shards: Int, rules: TestRules, cutter: BatchCutter, cutFor: Int? = nil,
         group: @escaping @Sendable (TestID) -> Int = { _ in 0 }) {
        self.group = group
        self.estimates = Dictionary(planned.map { ($0.id, $0.expected) }, uniquingKeysWith: { a, _ in a })
        self.state = LockedCondition(State(queue: planned, remainingSeconds: planned.reduce(0) { $0 + $1.expected }))
        self.cutFor = max(1, min(shards, cutFor ?? shards))
        self.rules = rules
        self.cutter = cutter
    }

    /// Blocks until there is work for `shard`, or returns nil when the run is over.
    func next(shard: Int) -> WorkItem? {
        var idle = false
        // The body's nil means "wait for a change"; `.some(nil)` means the run is over.
        return state.wait { s -> WorkItem?? in
            if idle {
                s.idleShards -= 1
                idle = false
            }
            if s.stopped { return .some(nil) }
            // Retries first: they are single tests and decide flaky vs broken early.
            // A retry prefers another shard than the one it failed on, unless no other is idle.
            if let i = s.retries.firstIndex(where: { $0.avoidShard != shard })
                ?? (s.idleShards == 0 && !s.retries.isEmpty ? s.retries.indices.first : nil) {
                let r = s.retries.remove(at: i)
                return s.issue(WorkItem(id: 0, tests: [r.test], attempt: r.attempt))
            }
            if let batch = cutNext(&s) {
                return s.issue(WorkItem(id: 0, tests: batch, attempt: 1))
            }
            if s.inFlight == 0 && s.retries.isEmpty {
                s.stopped = true
                state.broadcast()
                return .some(nil)
            }
            s.idleShards += 1
            idle = true
            return nil
        }
    }

    /// Cuts the next first-run batch off the front of the queue (lock held), nil when empty.
    private func cutNext(_ s: inout State) -> [TestID]? {
        guard s.head < s.queue.count else { return nil }
        let pending = s.queue[s.head...]
        var n = cutter.nextBatchSize(queue: pending, remainingSeconds: s.remainingSeconds, shards: cutFor)
        var bytes = 0
        let library = group(pending[pending.startIndex].id)
        // Two repetitions of a test never share a batch (one process runs an id once): a
        // batch holds one repetition, the next one starts another batch.
        // Nor do two browsers (`--browsers`): a process runs on the one its environment names.
        let repetition = pending[pending.startIndex].id.repetition?.index ?? 0
        let browser = pending[pending.startIndex].id.browser
        for (k, t) in pending.prefix(n).enumerated() {
            bytes += t.id.test.utf8.count + 1
            if bytes > maxFilterBytes || group(t.id) != library || (t.id.repetition?.index ?? 0) != repetition || t.id.browser != browser {
                n = max(1, k)
                break
            }
        }
        s.highestRepetitionBegun = max(s.highestRepetitionBegun, repetition)
        let batch = Array(pending.prefix(n))
        s.head += n
        s.remainingSeconds -= batch.reduce(0) { $0 + $1.expected }
        if s.head > 4096 && s.head * 2 > s.queue.count {
            s.queue.removeFirst(s.head)
            s.head = 0
        }
        return batch.map(\.id)
    }


    /// Reports that a test attempt ended badly; returns whether it was re-queued as a retry.
    func shouldRetry(_ test: TestID, attempt: Int, shard: Int) -> Bool {
        state.withLock { s in
            guard !s.stopped, attempt <= rules.retries(for: test) else { return false }
            s.retries.append(Retry(test: test, attempt: attempt + 1, avoidShard: shard))
            state.broadcast()
            return true
        }
    }

    /// Ends a batch; `unstarted` tests (the rest after a crash or a hang) go back in the queue.
    /// Returns tests that failed to launch twice, which the caller records as crashed.
    /// `isolate` tests run again alone at the same attempt (a command-driver batch ended without them).
    func finish(_ item: WorkItem, unstarted: [TestID], noTestStarted: Bool, isolate: [TestID] = []) -> [TestID] {
        state.withLock { s in
            s.inFlight -= 1
            let plan = s.leftovers.plan(attempt: item.attempt, unstarted: unstarted, noTestStarted: noTestStarted,
                                        isolate: isolate, stopped: s.stopped)
            for t in plan.alone { s.retries.append(Retry(test: t, attempt: item.attempt, avoidShard: -1)) }
            // Back at the front: they were cut from the long end of the queue.
            let planned = plan.replanned.map { PlannedTest(id: $0, expected: estimates[$0] ?? 0, known: false) }
            s.queue.insert(contentsOf: planned, at: s.head)
            s.remainingSeconds += planned.reduce(0) { $0 + $1.expected }
            state.broadcast()
            return plan.givenUp
        }
    }

    /// `--until-failure`: no repetition begins any more; the ones begun run to their end
    /// (retries and leftovers included). Returns the tests of the repetitions that never
    /// began, taken out of the queue.
    func stopNewRepetitions() -> (dropped: [TestID], begun: Int) {
        state.withLock { s in
            let pending = s.queue[s.head...]
            let keep = pending.filter { ($0.id.repetition?.index ?? 0) <= s.highestRepetitionBegun }
            let dropped = pending.filter { ($0.id.repetition?.index ?? 0) > s.highestRepetitionBegun }.map(\.id)
            s.queue = Array(keep)
            s.head = 0
            s.remainingSeconds = keep.reduce(0) { $0 + $1.expected }
            state.broadcast()
            return (dropped, s.highestRepetitionBegun)
        }
    }

    /// Stops handing out work (interrupt); blocked shards return nil.
    func stop() {
        state.withLock { s in
            s.stopped = true
            state.broadcast()
        }
    }
}
