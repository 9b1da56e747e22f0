import Foundation
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
final class WorkQueue: BatchSource, @unchecked Sendable {
    private struct Retry {
        var test: TestID
        var attempt: Int
        var avoidShard: Int
    }

    private let condition = NSCondition()
    private var queue: [PlannedTest]
    private var head = 0
    private var remainingSeconds: Double
    private var retries: [Retry] = []
    private var inFlight = 0
    private var idleShards = 0
    private var nextBatchID = 0
    private var stopped = false
    /// The highest repetition (`--repeat-each`) a batch was cut from; 0 without repetitions.
    private var highestRepetitionBegun = 0
    /// What runs again of a batch's tests without a result.
    private var leftovers = LeftoverPolicy()

    let shards: Int
    /// Retries per test (`--retries`, `rules:`), and which failures earn one.
    let rules: TestRules
    let cutter: BatchCutter
    /// A single XCTest filter argument must stay under Linux's 128 KiB per-argument limit.
    let maxFilterBytes = 100_000

    private let estimates: [TestID: Double]

    /// Tests of different groups never share a batch (`TestDriver.batchGroup`: a bundle's
    /// Swift Testing tests run with another command line than its XCTest ones).
    private let group: (TestID) -> Int

    convenience init(planned: [PlannedTest], shards: Int, maxRetries: Int, cutter: BatchCutter, group: @escaping (TestID) -> Int = { _ in 0 }) {
        self.init(planned: planned, shards: shards, rules: TestRules(retries: maxRetries), cutter: cutter, group: group)
    }

    init(planned: [PlannedTest], shards: Int, rules: TestRules, cutter: BatchCutter, group: @escaping (TestID) -> Int = { _ in 0 }) {
        self.group = group
        self.queue = planned
        self.estimates = Dictionary(planned.map { ($0.id, $0.expected) }, uniquingKeysWith: { a, _ in a })
        self.remainingSeconds = planned.reduce(0) { $0 + $1.expected }
        self.shards = shards
        self.rules = rules
        self.cutter = cutter
    }

    /// Blocks until there is work for `shard`, or returns nil when the run is over.
    func next(shard: Int) -> WorkItem? {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if stopped { return nil }
            // Retries first: they are single tests and decide flaky vs broken early.
            // A retry prefers another shard than the one it failed on, unless no other is idle.
            if let i = retries.firstIndex(where: { $0.avoidShard != shard })
                ?? (idleShards == 0 && !retries.isEmpty ? retries.indices.first : nil) {
                let r = retries.remove(at: i)
                return issue(WorkItem(id: 0, tests: [r.test], attempt: r.attempt))
            }
            if let batch = cutNext() {
                return issue(WorkItem(id: 0, tests: batch, attempt: 1))
            }
            if inFlight == 0 && retries.isEmpty {
                stopped = true
                condition.broadcast()
                return nil
            }
            idleShards += 1
            condition.wait()
            idleShards -= 1
        }
    }

    /// Cuts the next first-run batch off the front of the queue (lock held), nil when empty.
    private func cutNext() -> [TestID]? {
        guard head < queue.count else { return nil }
        let pending = queue[head...]
        var n = cutter.nextBatchSize(queue: pending, remainingSeconds: remainingSeconds, shards: shards)
        var bytes = 0
        let library = group(pending[pending.startIndex].id)
        // Two repetitions of a test never share a batch (one process runs an id once): a
        // batch holds one repetition, the next one starts another batch.
        let repetition = pending[pending.startIndex].id.repetition?.index ?? 0
        for (k, t) in pending.prefix(n).enumerated() {
            bytes += t.id.rawValue.utf8.count + 1
            if bytes > maxFilterBytes || group(t.id) != library || (t.id.repetition?.index ?? 0) != repetition { n = max(1, k); break }
        }
        highestRepetitionBegun = max(highestRepetitionBegun, repetition)
        let batch = Array(pending.prefix(n))
        head += n
        remainingSeconds -= batch.reduce(0) { $0 + $1.expected }
        if head > 4096 && head * 2 > queue.count {
            queue.removeFirst(head)
            head = 0
        }
        return batch.map(\.id)
    }

    /// Every batch, cut now as shards would ask for them one after another (longest first,
    /// shrinking towards the end): the plan a queue-mode run pushes to Redis.
    func cutAll() -> [[TestID]] {
        condition.lock()
        defer { condition.unlock() }
        var out: [[TestID]] = []
        while let batch = cutNext() { out.append(batch) }
        return out
    }

    private func issue(_ item: WorkItem) -> WorkItem {
        var item = item
        item.id = nextBatchID
        nextBatchID += 1
        inFlight += 1
        return item
    }

    /// Reports that a test attempt ended badly; returns whether it was re-queued as a retry.
    func shouldRetry(_ test: TestID, attempt: Int, shard: Int) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard !stopped, attempt <= rules.retries(for: test) else { return false }
        retries.append(Retry(test: test, attempt: attempt + 1, avoidShard: shard))
        condition.broadcast()
        return true
    }

    /// Ends a batch; `unstarted` tests (the rest after a crash or a hang) go back in the queue.
    /// Returns tests that failed to launch twice, which the caller records as crashed.
    /// `isolate` tests run again alone at the same attempt (a command-driver batch ended without them).
    func finish(_ item: WorkItem, unstarted: [TestID], noTestStarted: Bool, isolate: [TestID] = []) -> [TestID] {
        condition.lock()
        defer { condition.unlock() }
        inFlight -= 1
        let plan = leftovers.plan(attempt: item.attempt, unstarted: unstarted, noTestStarted: noTestStarted,
                                  isolate: isolate, stopped: stopped)
        for t in plan.alone { retries.append(Retry(test: t, attempt: item.attempt, avoidShard: -1)) }
        // Back at the front: they were cut from the long end of the queue.
        let planned = plan.replanned.map { PlannedTest(id: $0, expected: estimates[$0] ?? 0, known: false) }
        queue.insert(contentsOf: planned, at: head)
        remainingSeconds += planned.reduce(0) { $0 + $1.expected }
        condition.broadcast()
        return plan.givenUp
    }

    /// `--until-failure`: no repetition begins any more; the ones begun run to their end
    /// (retries and leftovers included). Returns the tests of the repetitions that never
    /// began, taken out of the queue.
    func stopNewRepetitions() -> (dropped: [TestID], begun: Int) {
        condition.lock()
        defer { condition.unlock() }
        let pending = queue[head...]
        let keep = pending.filter { ($0.id.repetition?.index ?? 0) <= highestRepetitionBegun }
        let dropped = pending.filter { ($0.id.repetition?.index ?? 0) > highestRepetitionBegun }.map(\.id)
        queue = Array(keep)
        head = 0
        remainingSeconds = keep.reduce(0) { $0 + $1.expected }
        condition.broadcast()
        return (dropped, highestRepetitionBegun)
    }

    /// Stops handing out work (interrupt); blocked shards return nil.
    func stop() {
        condition.lock()
        stopped = true
        condition.broadcast()
        condition.unlock()
    }
}
