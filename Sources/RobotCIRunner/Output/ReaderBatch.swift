import RobotCICore

/// What a reader knows of its batch: the tests, whose attempt this is, and each test's
/// deadline. A value, so a reader can be made without a `BatchRun`.
struct ReaderBatch {
    /// The batch's tests in its order, by the id their runner knows.
    var tests: [TestID]
    /// 1 for first runs, 2… for retries.
    var attempt: Int
    var id: Int
    var shard: Int
    /// Relative path (in the report) of the batch's full log, named by truncated output.
    var logPath: String
    /// When the batch started (run clock).
    var start: Double
    /// Each test's deadline (`--test-timeout`, its rule's, or its history's).
    var rules: TestRules

    /// The batch of `item` (its tests, attempt and id) on `shard`, started at `start`.
    init(item: WorkItem, shard: Int, logPath: String, start: Double, rules: TestRules) {
        self.tests = item.tests
        self.attempt = item.attempt
        self.id = item.id
        self.shard = shard
        self.logPath = logPath
        self.start = start
        self.rules = rules
    }
}
