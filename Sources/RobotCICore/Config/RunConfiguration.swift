import Foundation

/// Everything `robotci run` needs to know, after defaults, `robotci.yml`,
/// `ROBOTCI_*` environment variables and flags have been layered (in that order).
public struct RunConfiguration: Sendable, Equatable {
    /// Path of the SwiftPM package under test.
    public var package = "."
    /// Number of shards (parallel child processes).
    public var shards: Int
    /// Extra attempts for a failing test.
    public var retries = 2
    /// Seconds one test may run before its process group is killed.
    public var testTimeout = 300.0
    public var reportDir = "robotci-report"
    /// The run history file (`history.json`); nil: `history.json` in the report folder.
    public var history: String?
    public var skipBuild = false
    /// Start fewer batches than shards while the CPU is saturated (`ConcurrencyGovernor`).
    public var adaptiveConcurrency = true
    /// Which step traces RobotKit records and robotci keeps (`--trace`).
    public var trace: TraceMode = .onFailure
    /// What separates two launches in a shard's warm browser (`--isolation`).
    public var isolation: BrowserIsolation = .context
    /// Which snapshot baselines RobotKit writes (`--update-snapshots`).
    public var updateSnapshots: SnapshotUpdate = .none
    /// The default colour tolerance of snapshot comparisons, 0…1 (`--snapshot-tolerance`).
    public var snapshotTolerance = 0.1
    /// A network namespace per shard (`--network-isolation`); nil when not given
    /// (`effectiveNetworkIsolation` decides).
    public var networkIsolation: NetworkIsolation?
    /// The engines each test runs on (`--browsers`); empty: the default engine, as the test
    /// process picks it (ids carry no browser).
    public var browsers: [BrowserTarget] = []
    /// Regexes a test id must match one of (empty: all).
    public var filter: [String] = []
    /// Regexes that exclude a test id.
    public var skip: [String] = []
    public var failOnFlaky = false
    /// After this many tests failed for good (no retry left), start nothing new and stop the
    /// running batches; the rest are `notRun`. nil: never.
    public var maxFailures: Int?
    /// Run only the tests that did not pass in the previous run (its results.json, or the
    /// last run of the history).
    public var lastFailed = false
    /// With `lastFailed`: flaky tests of the previous run run again too.
    public var lastFailedWithFlaky = false
    /// Swift Testing tags (`--tag`): keep only tests that have one of them (empty: no tag filter).
    public var tags: [String] = []
    /// Run every selected test this many times, each repetition a test of its own
    /// (`id (repeat k of n)`); nil: once. With `untilFailure`, the most repetitions.
    public var repeatEach: Int?
    /// Repeat the selected tests until a repetition fails for good, at most `repeatEach`
    /// (default `RunConfiguration.untilFailureCap`) times.
    public var untilFailure = false
    /// Per-test settings (`rules:` in robotci.yml), first match wins.
    public var rules: [TestRule] = []
    /// Regexes of tests that run and are reported but never fail the build.
    public var quarantine: [String] = []
    /// Quarantined tests with an owner and an expiry (`quarantine:` entries beside the regexes).
    public var quarantineEntries: [QuarantineEntry] = []
    /// The most tests the configuration may quarantine; nil: no cap.
    public var quarantineCap: Int?
    /// Clean runs in a row after which a quarantined test is named for release.
    public var quarantineReleaseAfter = 20
    /// Fail the run when a test was flaky that the flake ledger had never seen flaky.
    public var failOnNewFlaky = false
    /// A failure of a test that passed at the same commit before (likely flaky) does not fail
    /// the run.
    public var allowLikelyFlaky = false
    /// This machine's share, `K/N` (1-based).
    public var partition: Partition?
    /// `--partition auto`: the share from the CI's parallel-job variables. Never without it:
    /// CI systems set those variables also for jobs that must run everything (GitLab's
    /// `parallel: matrix`).
    public var partitionFromCI = false
    /// N for a Kubernetes Indexed Job (`JOB_COMPLETION_INDEX` gives K).
    public var partitionCount: Int?
    /// A `timings.json` every partition reads (e.g. the last merged report's): the split
    /// balances expected time. Nil: an even split by count. Never a machine's own folder.
    public var partitionTimings: String?
    /// `github`, `plain`, `auto`; nil is `auto`.
    public var reporter: CIReporter?
    /// First port of the shard port range; nil: ports assigned by the OS.
    public var basePort: Int?
    /// Passed to `swift build -c`.
    public var buildConfiguration = BuildConfiguration.debug
    /// Extra arguments for `swift build`.
    public var buildArguments: [String] = []
    /// Upper bound on tests per batch (1: one process per test).
    public var maxBatchSize = 2_000
    /// How tests are found and run: a SwiftPM package's XCTest/Swift Testing bundle, or
    /// any runner through shell commands that list ids and write JUnit.
    public var driver: Driver = .swift
    /// `driver: command`: prints test ids one per line (up to the first empty line).
    public var listCommand: String?
    /// `driver: command`: runs `{tests}` (shell-quoted ids) and writes JUnit to `{junit}`.
    public var runCommand: String?
    /// `driver: command`: run once before listing (e.g. installing dependencies); optional.
    public var buildCommand: String?
    /// `driver: command`: what joins the quoted ids in `{tests}`.
    public var testSeparator = " "
    /// `redis://HOST:PORT/NAME`: lease batches from a queue shared by many machines.
    public var queue: String?
    /// Seconds a queue lease lives without a heartbeat before its batch runs elsewhere.
    public var queueLeaseTimeout = 30.0

    public enum Driver: String, Sendable, Equatable, CaseIterable { case swift, command }

    /// Most repetitions `--until-failure` starts when `--repeat-each` does not say.
    public static let untilFailureCap = 100

    /// `network-isolation` as given, else `auto` when robotci's tests start WebKit's WebDriver
    /// stack (a server any local user could drive a browser through, `docs/browsers.md`),
    /// else `off`.
    public var effectiveNetworkIsolation: NetworkIsolation {
        networkIsolation ?? (browsers.contains(.webkit) ? .auto : .off)
    }

    /// How many times each selected test runs (1 without `--repeat-each`/`--until-failure`).
    public var repetitions: Int { repeatEach ?? (untilFailure ? Self.untilFailureCap : 1) }

    public init(shards: Int) { self.shards = shards }
}

/// `K/N`: run the K-th of N shares of the suite (1-based).
public struct Partition: Sendable, Equatable, CustomStringConvertible {
    public var index: Int
    public var count: Int

    public init(index: Int, count: Int) throws {
        guard count >= 1, index >= 1, index <= count else {
            throw ConfigError("partition \(index)/\(count) is out of range: use K/N with 1 ≤ K ≤ N, e.g. 2/4")
        }
        self.index = index
        self.count = count
    }

    /// Parses `K/N`.
    public init(parsing text: String) throws {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let k = Int(parts[0].trimmingCharacters(in: .whitespaces)),
              let n = Int(parts[1].trimmingCharacters(in: .whitespaces))
        else {
            throw ConfigError("partition '\(text)' is not K/N: write e.g. --partition 2/4 (the 2nd of 4 machines), or --partition auto (K/N from the CI's parallel-job variables)")
        }
        try self.init(index: k, count: n)
    }

    public var description: String { "\(index)/\(count)" }
}

/// A configuration problem, with a message that says where and how to fix it.
public struct ConfigError: Error, Equatable, CustomStringConvertible, Sendable {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

