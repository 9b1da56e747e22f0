import RobotCICore

/// How long a run has left, for the progress line: the work its unfinished tests are expected
/// to take, divided over the shards running now.
///
/// Why not "elapsed ÷ finished × unfinished": the plan runs the longest tests first, so the first
/// tests to finish are the slow ones, and the first minutes of a warm run are spent inside them.
/// On swift-subprocess's suite (170 tests, a 9 s test first on each shard) that rule printed
/// "ETA 1738s" ten seconds into a run that took 20 s.
///
/// - With history, every unfinished test counts what the plan expects of it (its own time, its
///   class's median, or for a new test the suite's median), scaled by how much slower or faster
///   the passed tests with history ran than expected (a busy machine, a build alongside; a
///   test that hung until its deadline says nothing of the others).
/// - Without any history (a first run), each unfinished test counts the mean time the finished
///   ones took; before any finished there is nothing to go by, and no estimate.
/// - What the running tests have done already comes off: on each busy shard, the time since
///   its batch started or its last attempt ended, whichever is later. Without it the run's
///   longest test counts whole until the second it ends.
/// - Each unfinished test also counts what a test has cost its shard beyond its own time so far
///   (process starts, set-up between tests): the shards' busy time less their attempts' time,
///   per attempt. On swift-argument-parser's 549 tests of a few milliseconds, that is most of
///   the run: 12 ms a test, the tests' own times 15 s of 20 shard-seconds.
/// - The work is divided by the shards running a batch now (at least one): under the
///   concurrency governor that is fewer than `--shards`. Until the first attempt ends, by the
///   shards expected to run at once: the first shard's start would otherwise show the whole
///   suite's time, and a test process reports its results when it ends.
struct RunETA: Sendable {
    /// Unfinished planned tests and what the plan expects of each.
    private var unfinished: [TestID: Double]
    private var unfinishedSum: Double
    /// Tests whose expectation came from history: theirs or their class's.
    private let trusted: Set<TestID>
    private var total: Int
    /// Shards expected to run at once (the governor's start).
    private let atOnce: Int
    private var finished = 0
    /// Passed trusted tests: what they were expected to take and took.
    private var expectedOfFinished = 0.0
    private var tookOfFinished = 0.0
    /// Every finished test's time.
    private var tookAll = 0.0
    /// Per busy shard (run clock, seconds): when its batch began, and since when it has been
    /// on the test it runs now.
    private var busy: [Int: (began: Double, onTestSince: Double)] = [:]
    /// The busy time of the batches that ended; the time every attempt took, retried ones too.
    private var busyOfEndedBatches = 0.0
    private var attemptSeconds = 0.0
    private var attempts = 0

    init(planned: [PlannedTest], total: Int, atOnce: Int = 1) {
        self.atOnce = max(1, atOnce)
        var unfinished: [TestID: Double] = [:]
        for test in planned { unfinished[test.id] = max(0, test.expected) }
        self.unfinished = unfinished
        unfinishedSum = unfinished.values.reduce(0, +)
        trusted = Set(planned.filter { !$0.isBlindGuess }.map(\.id))
        self.total = max(total, unfinished.count)
    }

    /// `shard` started a batch at `time`.
    mutating func batchStarted(shard: Int, at time: Double) {
        busy[shard] = (began: time, onTestSince: time)
    }

    /// `shard`'s batch ended at `time`.
    mutating func batchFinished(shard: Int, at time: Double) {
        if let ended = busy.removeValue(forKey: shard) { busyOfEndedBatches += max(0, time - ended.began) }
    }

    /// An attempt on `shard` (finished or to be retried) took `took` seconds and ended at
    /// `time`: the shard is on its next test since.
    mutating func attemptEnded(shard: Int, at time: Double, took: Double) {
        if took.isFinite { attemptSeconds += max(0, took) }
        attempts += 1
        if let since = busy[shard]?.onTestSince, time.isFinite { busy[shard]?.onTestSince = max(since, time) }
    }

    /// `test` has its verdict after its last attempt took `took` seconds (and `passed`).
    mutating func finished(_ test: TestID, took: Double, passed: Bool = true) {
        let took = took.isFinite ? max(0, took) : 0
        finished += 1
        tookAll += took
        guard let expected = unfinished.removeValue(forKey: test) else { return }
        unfinishedSum -= expected
        if passed && trusted.contains(test) {
            expectedOfFinished += expected
            tookOfFinished += took
        }
    }

    /// Planned tests left the run without running (`--until-failure`'s repetitions).
    mutating func withdraw(_ tests: [TestID]) {
        for test in tests {
            if let expected = unfinished.removeValue(forKey: test) { unfinishedSum -= expected }
        }
        total = max(finished + unfinished.count, total - tests.count)
    }

    /// Seconds left at `now`, or nil when nothing tells yet.
    func seconds(now: Double) -> Double? {
        let running = busy.count
        let done = busy.values.reduce(0) { $0 + max(0, now - $1.onTestSince) }
        let busyTime = busyOfEndedBatches + busy.values.reduce(0) { $0 + max(0, now - $1.began) }
        // Per attempt, but over at least 20: the first batches' process starts are not yet
        // spread over the tests that later share them (one 10 s test ended, its shard's 0.1 s
        // start would count 0.1 s for each of 169 tests).
        let perTest = max(0, busyTime - attemptSeconds - done) / Double(max(attempts, 20))
        // Tests the plan did not list (a progress line made without one) count as blind.
        let unlisted = max(0, total - finished - unfinished.count)
        let meanTook = finished > 0 ? tookAll / Double(finished) : nil
        let work: Double
        if !trusted.isEmpty {
            let pace = expectedOfFinished > 0.05 ? tookOfFinished / expectedOfFinished : 1
            guard unlisted == 0 || meanTook != nil else { return nil }
            work = max(0, unfinishedSum) * pace + Double(unlisted) * (meanTook ?? 0)
        } else {
            guard let meanTook else { return unfinished.isEmpty && unlisted == 0 ? 0 : nil }
            work = Double(unfinished.count + unlisted) * meanTook
        }
        let left = unfinished.count + unlisted
        let parallel = attempts == 0 ? max(running, min(atOnce, left)) : running
        return max(0, work + Double(left) * perTest - done) / Double(max(1, parallel))
    }
}
