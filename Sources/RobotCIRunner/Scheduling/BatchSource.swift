import RobotCICore

/// Where shards get their batches from, and where they report back: the local
/// `WorkQueue` (one machine) or `RedisBatchSource` (many machines, one Redis queue).
/// `ShardPool`, `AttemptRouter` and `StopSwitch` only talk to this.
protocol BatchSource: AnyObject, Sendable {
    /// Blocks until there is work for `shard`, or returns nil when the run is over.
    func next(shard: Int) -> WorkItem?
    /// An attempt ended (already in this machine's journal); returns whether it will be retried.
    func attemptFinished(_ test: TestID, attempt: Attempt) -> Bool
    /// The batch's process record, just before `finish` for the same batch.
    func batchFinished(_ record: BatchRecord)
    /// Ends a batch; `unstarted` tests go back to the queue, `isolate` tests run again alone at
    /// the same attempt. Returns tests that failed to launch twice (recorded as crashed).
    func finish(_ item: WorkItem, unstarted: [TestID], noTestStarted: Bool, isolate: [TestID]) -> [TestID]
    /// Stops handing out work (interrupt); blocked shards return nil.
    func stop()
    /// Stops the whole run early (`--max-failures`): like `stop`, and a shared queue tells
    /// every other machine to stop too.
    func stopRun(reason: String)
    /// `--until-failure`: starts no new repetition; returns the tests of those that never
    /// began (no longer part of the run) and how many began.
    func stopNewRepetitions() -> (dropped: [TestID], begun: Int)
}

extension BatchSource {
    func stopRun(reason: String) { stop() }
    func stopNewRepetitions() -> (dropped: [TestID], begun: Int) { ([], 0) }
}

extension WorkQueue {
    func attemptFinished(_ test: TestID, attempt: Attempt) -> Bool {
        rules.retries(test, after: attempt) && shouldRetry(test, attempt: attempt.number, shard: attempt.shard)
    }

    func batchFinished(_ record: BatchRecord) {}
}
