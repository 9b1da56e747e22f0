/// Cuts the next batch off a longest-first queue when a shard asks for work.
///
/// A batch is one child process, so big batches amortise process start-up, while the
/// last batches must be small so that no shard idles while another still has a long
/// queue. The cut is made at the moment a shard is free, from what is left, which
/// adapts to tests that ran longer or shorter than expected. One shard has no other to even
/// out with: its batch is all that fits (`maximumTests`), one process start instead of a
/// halving series of them (a UI test process's start costs about 0.1 CPU-s, bench/RESULTS.md).
public struct BatchCutter: Sendable, Equatable {
    /// How many batches each shard should get out of the remaining work (more = smaller tail);
    /// with one shard, one.
    public var batchesPerShard: Double
    /// A batch is never planned shorter than this (seconds), unless the work runs out:
    /// below it, process start-up would dominate.
    public var minimumBatchSeconds: Double
    /// Hard cap on tests per batch (keeps a crash's re-queue and a log's size bounded).
    public var maximumTests: Int

    public init(batchesPerShard: Double = 2, minimumBatchSeconds: Double = 0.5, maximumTests: Int = 2_000) {
        self.batchesPerShard = batchesPerShard
        self.minimumBatchSeconds = minimumBatchSeconds
        self.maximumTests = maximumTests
    }

    /// How many tests from the front of `queue` (longest-first) make the next batch.
    /// - Parameters:
    ///   - remainingSeconds: expected time of everything in `queue`.
    ///   - shards: number of shards sharing the queue.
    public func nextBatchSize(queue: ArraySlice<PlannedTest>, remainingSeconds: Double, shards: Int) -> Int {
        guard !queue.isEmpty else { return 0 }
        let shards = max(1, shards)
        let perShard = shards == 1 ? 1 : batchesPerShard
        let target = max(remainingSeconds / (Double(shards) * perShard), minimumBatchSeconds)
        // Without history the time target is a guess, so every shard gets a share of the
        // tests by count too; with history, tiny tests may all share one process.
        let countCap = min(maximumTests, max(1, (queue.count + shards - 1) / shards))
        var sum = 0.0
        var n = 0
        for test in queue {
            if n >= maximumTests || (n >= countCap && !test.known) { break }
            if n > 0 && sum + test.expected > target { break }
            sum += test.expected
            n += 1
        }
        return max(1, n)
    }
}
