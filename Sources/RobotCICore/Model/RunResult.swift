/// One child process that ran a batch of tests on a shard.
public struct BatchRecord: Codable, Sendable, Equatable {
    public var id: Int
    /// Which shard ran it; `worker` in results.json (the format's name).
    public var shard: Int
    public var machine: String?
    /// Seconds from the run's start.
    public var start: Double
    public var end: Double
    public var tests: [TestID]
    /// How the process ended (written as its text: `exit 0`, `signal 11`, `killed (…)`).
    public var termination: BatchEnd
    public var mockPort: Int?
    public var webDriverPort: Int?

    /// results.json keeps the format's field names (`worker` is the shard).
    enum CodingKeys: String, CodingKey {
        case id, shard = "worker", machine, start, end, tests, termination, mockPort, webDriverPort
    }

    /// A batch with what every batch has; its machine (in a merge or a queue) and its ports
    /// (when robotci gave it some) are set on the value.
    public init(id: Int, shard: Int, start: Double, end: Double, tests: [TestID], termination: BatchEnd) {
        self.id = id
        self.shard = shard
        self.start = start
        self.end = end
        self.tests = tests
        self.termination = termination
    }
}

/// Per-outcome counts of a run.
public struct OutcomeCounts: Codable, Sendable, Equatable {
    public var total = 0
    public var passed = 0
    public var failed = 0
    public var flaky = 0
    public var skipped = 0
    public var timedOut = 0
    public var crashed = 0
    public var quarantined = 0
    public var notRun = 0

    public init() {}

    public init(_ tests: [TestRecord]) {
        for t in tests { add(t.outcome) }
    }

    public mutating func add(_ outcome: Outcome) {
        total += 1
        switch outcome {
        case .passed: passed += 1
        case .failed: failed += 1
        case .flaky: flaky += 1
        case .skipped: skipped += 1
        case .timedOut: timedOut += 1
        case .crashed: crashed += 1
        case .quarantined: quarantined += 1
        case .notRun: notRun += 1
        }
    }

    /// Tests whose verdict fails the build.
    public var failing: Int { failed + timedOut + crashed + notRun }
}

/// Where a run happened and how it was asked for (shown in the report's summary).
public struct RunMetadata: Codable, Sendable, Equatable {
    public var runID: String
    /// Where `runID` came from (`ROBOTCI_RUN_ID`, `CI_PIPELINE_ID (GitLab)`, …); nil when robotci
    /// made it up. `robotci merge` names it when partitions' run ids differ.
    public var runIDSource: String?
    /// Seconds since 1970 when the run started.
    public var startedAt: Double
    public var wallTime: Double
    public var shards: Int
    public var retries: Int
    public var robotciVersion: String
    /// robotci's arguments, passwords in URLs masked as they are set (`--queue
    /// redis://:***@host/run`): this is written to results.json and shown in the report.
    public var commandLine: [String] = [] {
        didSet { commandLine = commandLine.map(URLCredentials.masked) }
    }
    public var gitCommit: String?
    public var gitBranch: String?
    public var hostname: String?
    /// `K/N` when this run was one partition of several.
    public var partition: String?
    /// With `partition`: a digest of what the split was computed from (the selected tests,
    /// their durations in timings.json, N). Partitions of one run must agree on it, or a test
    /// may have run on no machine or on two; `robotci merge` checks.
    public var partitionPlan: String?
    /// Labels of the machines whose reports were merged into this one.
    public var machines: [String]?
    /// True when the report is partial: the run was interrupted (`stop` is `.signal`), or, in a
    /// merged or queue report, a machine was or tests have no result.
    public var interrupted = false
    /// How many batches ran at once over the run (the adaptive concurrency's effect); nil in
    /// reports written before it existed and in merged reports.
    public var concurrency: [ConcurrencySample]?
    /// Where the adaptive concurrency would start the next run on as many shards (nil when it
    /// did not govern this one): `RunHistory.HeldConcurrency.held`.
    public var nextConcurrency: Int?
    /// Why the run stopped before its plan ran out (a signal, `--max-failures`, another
    /// machine of its queue), if it did: data, decided once (`RunStop`). A stopped run's
    /// durations are not timings.
    public var stop: RunStop?
    /// With `--last-failed`: the run whose tests that did not pass this run ran again.
    public var rerunOf: String?
    /// With `--repeat-each`/`--until-failure`: how the tests were repeated (each repetition is
    /// a test of its own, `id (repeat k of n)`).
    public var repetitions: RepetitionSummary?
    /// True when the commit's tree had uncommitted changes to tracked files (no CI variable
    /// named the commit): runs of such a tree are not runs of `gitCommit`, so the flake ledger
    /// does not compare them with other runs of it.
    public var gitTreeDirty: Bool?

    /// A run with what every run has; the rest (the command line, the commit, the machine, the
    /// partition, …) is set on the value, as a run learns it.
    public init(runID: String, startedAt: Double, wallTime: Double, shards: Int, retries: Int, robotciVersion: String) {
        self.runID = runID
        self.startedAt = startedAt
        self.wallTime = wallTime
        self.shards = shards
        self.retries = retries
        self.robotciVersion = robotciVersion
    }
}

/// One point of the run's concurrency series: from `time` (seconds since the run started)
/// on, `running` batches ran at once. Written as `[time, running]` to keep reports small.
public struct ConcurrencySample: Codable, Sendable, Equatable {
    public var time: Double
    public var running: Int

    public init(time: Double, running: Int) {
        self.time = time
        self.running = running
    }

    public init(from decoder: Decoder) throws {
        var c = try decoder.unkeyedContainer()
        time = try c.decode(Double.self)
        running = try c.decode(Int.self)
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.unkeyedContainer()
        try c.encode(time)
        try c.encode(running)
    }
}

/// The whole run: what `results.json` holds and every report is rendered from.
public struct RunResult: Codable, Sendable, Equatable {
    /// Format marker so `robotci merge`/`report` can reject foreign JSON.
    public var format: String = RunResult.formatName
    public var metadata: RunMetadata
    public var tests: [TestRecord]
    public var batches: [BatchRecord]
    /// The tests this run had to account for (nil for results without one: older robotci,
    /// foreign JUnit). With a plan, every planned test is in `tests` exactly once.
    public var plan: RunPlan?
    /// Results that arrived for tests outside the plan, refused (their ids).
    public var refused: [TestID]?

    public static let formatName = "robotci-results-v3"
    /// The newest results/journal format this robotci reads (the N of `robotci-results-vN`).
    /// v3 writes each test id as structure (`TestID`: test, repetition, browser); v2 added
    /// `notRun`, `plan` and `refused` and wrote ids as text; v1 files read as v2 files without
    /// a plan.
    public static let formatVersion = 3
    /// The last format that wrote test ids as text (`ReportReader` reads it with `TestID.textForm`).
    public static let lastTextIDVersion = 2

    /// The N of a `robotci-results-vN` marker; nil for any other text.
    public static func version(of marker: String) -> Int? {
        let prefix = "robotci-results-v"
        guard marker.hasPrefix(prefix), let version = Int(marker.dropFirst(prefix.count)) else { return nil }
        return version
    }

    /// Whether `marker` is a results format this robotci reads.
    public static func isReadableFormat(_ marker: String) -> Bool {
        guard let version = version(of: marker) else { return false }
        return version >= 1 && version <= formatVersion
    }

    /// For a `robotci-results-vN` marker newer than this robotci reads, the sentence that says
    /// so (a newer file is not "foreign", it needs a newer robotci); nil otherwise.
    public static func newerFormatMessage(_ marker: String) -> String? {
        guard let version = version(of: marker), version > formatVersion else { return nil }
        return "written by a newer robotci (format '\(marker)'; this robotci reads up to '\(formatName)'): "
            + "use a robotci at least as new as the one that wrote it"
    }

    public init(metadata: RunMetadata, tests: [TestRecord], batches: [BatchRecord], plan: RunPlan? = nil, refused: [TestID]? = nil) {
        self.metadata = metadata
        self.tests = tests
        self.batches = batches
        self.plan = plan
        self.refused = refused
    }

    public var counts: OutcomeCounts { OutcomeCounts(tests) }

    /// How the planned tests were accounted for (the line every run and merge ends with).
    public var accounting: Accounting {
        Accounting(planned: plan?.tests.count, tests: tests.count, notRun: counts.notRun, refused: refused?.count ?? 0)
    }

    /// Sum of every attempt's duration: what one serial worker would have needed.
    public var serialTime: Double { tests.reduce(0) { $0 + $1.attempts.reduce(0) { $0 + $1.duration } } }

    /// Busy time of all batches over (shards × wall time); 1.0 means no shard ever idled.
    public var shardEfficiency: Double {
        let shards = max(1, Set(batches.map { "\($0.machine ?? "")#\($0.shard)" }).count)
        let busy = batches.reduce(0) { $0 + max(0, $1.end - $1.start) }
        guard metadata.wallTime > 0 else { return 0 }
        return min(1, busy / (Double(shards) * metadata.wallTime))
    }
}

extension Array where Element == ConcurrencySample {
    /// The most batches that ran at once.
    public var peak: Int { map(\.running).max() ?? 0 }

    /// Time-weighted mean of running batches from the first point to the last (the last is
    /// when the last batch ended): the run's effective concurrency. 0 when nothing ran.
    public var mean: Double {
        guard let first = self.first, let last = self.last, last.time > first.time else { return 0 }
        var area = 0.0
        for i in 0..<(count - 1) {
            area += Double(self[i].running) * Swift.max(0, self[i + 1].time - self[i].time)
        }
        return area / (last.time - first.time)
    }
}

extension RunResult {
    /// The same result with every test id passed through `rename`: its records, batches, plan,
    /// refused ids and first failing repetition. A rename that makes two ids one is the
    /// caller's to avoid (`SecretRedactor` masks ids; a clash keeps the real ids).
    public func renamingTests(_ rename: (TestID) -> TestID) -> RunResult {
        var r = self
        r.tests = tests.map { t in
            var t = t
            t.id = rename(t.id)
            return t
        }
        r.batches = batches.map { b in
            var b = b
            b.tests = b.tests.map(rename)
            return b
        }
        r.plan = plan?.renamingTests(rename)
        r.refused = refused?.map(rename)
        r.metadata.repetitions?.firstFailure = metadata.repetitions?.firstFailure.map(rename)
        return r
    }
}
