import Foundation
import RobotCICore
import RobotCIQueue

/// Every key robotci understands, each declared once. A key with a flag is a `Typed` static:
/// `RunOptions` declares its flag with the static's help and reading, so the flag's value is
/// typed when the command line is parsed; the others are read from YAML and the environment.
extension ConfigKey {
    public static let package = Typed<URL>(
        "package", .string, flag: .option("PATH"), default: "`.`",
        help: "SwiftPM package under test (or the folder `driver: command` runs in)"
    ) { try $0.path(empty: "'package' needs the path of a SwiftPM package (or the folder `driver: command` runs in)") }
    .into { $1.package = $0.relativePath }

    public static let shards = Typed<Int>(
        "shards", .int, flag: .option("N"), default: "cores",
        help: "shards (worker processes) running in parallel"
    ) { try $0.int(min: 1) }
    .into(\.shards)

    public static let retries = Typed<Int>(
        "retries", .int, flag: .option("N"), default: "2",
        help: "extra attempts for a failing / crashing / hanging test; it re-runs alone, on another shard when one is free"
    ) { try $0.int() }
    .into(\.retries)

    public static let testTimeout = Typed<Double>(
        "test-timeout", .number, flag: .option("SECONDS"), default: "300",
        help: "seconds a test may run; then its process group is killed and it is `timedOut`. A test with 5 passing runs in history gets 10 × their p95 (at least 10 s) when that is shorter; the failure names the rule that fired"
    ) { try $0.seconds() }
    .into(\.testTimeout)

    public static let reportDir = Typed<URL>(
        "report-dir", .string, flag: .option("DIR"), default: "`robotci-report`",
        help: "where the report goes"
    ) { try $0.path(empty: "'report-dir' needs a folder (e.g. robotci-report)") }
    .into { $1.reportDir = $0.relativePath }

    public static let history = Typed<URL>(
        "history", .string, flag: .option("FILE"), default: "`<report-dir>/history.json`",
        help: "the last 30 runs of every test, read and updated (point it at a CI cache)"
    ) { try $0.path(empty: "'history' needs a file path (e.g. .cache/robotci-history.json)") }
    .into { $1.history = $0.relativePath }

    public static let adaptiveConcurrency = Typed<Bool>(
        "adaptive-concurrency", .bool, flag: .option("on/off"), default: "on",
        help: "hold back starting batches while the CPU is saturated (PSI, else load); off: every shard runs at once"
    ) { try $0.bool() }
    .into(\.adaptiveConcurrency)

    public static let trace = Typed<TraceMode>(
        "trace", .string, flag: .option("MODE"), default: "on-failure",
        help: "step traces of UI tests (screenshot, DOM, mock requests, console per action): `on-failure` records every attempt and keeps those of failed or flaky tests, `always` keeps all, `off` records none (see docs/trace-format.md)"
    ) { try $0.choice(TraceMode.self) }
    .into(\.trace)

    public static let isolation = Typed<BrowserIsolation>(
        "isolation", .string, flag: .option("context/reset"), default: "context",
        help: "what separates two launches of the app in a shard's warm browser: `context` a fresh browser context each (nothing of the last test is there), `reset` one page per shard, cleared between launches (8–10 % less CPU on the bundled example; what it keeps: docs/isolation.md)"
    ) { try $0.choice(BrowserIsolation.self) }
    .into(\.isolation)

    public static let browsers = Typed<[BrowserTarget]>(
        "browsers", .list, flag: .option("LIST"), default: "chromium",
        help: "the engines every test runs on, comma-separated: `chromium` (ids unchanged), `webkit` (WPE WebKit; ids end in ` [webkit]`), `webdriver=URL` (a W3C endpoint robotci does not start: a grid, Appium; ids end in ` [webdriver]`); `chromium,webkit` runs each test once per engine (see docs/browsers.md)"
    ) { given in
        do { return try BrowserTarget.list(parsing: try given.list()) } catch let e as ConfigError { throw given.fail(e.message) }
    }
    .into(\.browsers)

    public static let updateSnapshots = Typed<SnapshotUpdate>(
        "update-snapshots", .string, flag: .option("none/missing/all"), default: "none",
        help: "which snapshot baselines `verifySnapshot` writes beside the tests: `none` writes a missing one and fails the test saying so, `missing` writes missing ones and passes, `all` rewrites every compared one and passes (see docs/RobotKit.md, *Snapshots*)"
    ) { try $0.choice(SnapshotUpdate.self) }
    .into(\.updateSnapshots)

    public static let snapshotTolerance = Typed<Double>(
        "snapshot-tolerance", .number, flag: .option("D"), default: "0.1",
        help: "how far (0–1 of the black-to-white distance, perceptual YIQ) a snapshot's pixel may move before it counts as different, for calls that set none; anti-aliased edges never count"
    ) { try $0.fraction() }
    .into(\.snapshotTolerance)

    public static let networkIsolation = Typed<NetworkIsolation>(
        "network-isolation", .string, flag: .option("auto/on/off"), default: "off (`auto` with `webkit` in `browsers`)",
        help: "each shard's browser, mock server and tests in a network namespace of their own, unreachable from the host's (and without its network): `auto` where the kernel allows it (else one warning), `on` or exit 2, `off` the host's loopback (see docs/security.md, *One user per host*)"
    ) { try $0.choice(NetworkIsolation.self) }
    .into(\.networkIsolation)

    public static let skipBuild = Typed<Bool>(
        "skip-build", .bool, flag: .toggle, default: "off",
        help: "use the last build"
    ) { try $0.bool() }
    .into(\.skipBuild)

    public static let filter = Typed<[String]>(
        "filter", .list, flag: .option("REGEX", repeated: true), default: "all",
        help: "keep tests whose id (`Module.Class/test`) matches (repeatable)"
    ) { try $0.list() }
    .into(\.filter)

    public static let skip = Typed<[String]>(
        "skip", .list, flag: .option("REGEX", repeated: true), default: "none",
        help: "drop tests whose id matches (repeatable)"
    ) { try $0.list() }
    .into(\.skip)

    public static let tag = Typed<[String]>(
        "tag", .list, flag: .option("NAME", repeated: true), default: "all",
        help: "keep Swift Testing tests that have this tag (`smoke` for `.smoke`, a suite's tags included; repeatable: any of them); XCTest tests have none"
    ) { try $0.list().map(SwiftTestingTags.name) }
    .into(\.tags)

    public static let failOnFlaky = Typed<Bool>(
        "fail-on-flaky", .bool, flag: .toggle, default: "off",
        help: "flaky tests make the run fail"
    ) { try $0.bool() }
    .into(\.failOnFlaky)

    public static let failOnNewFlaky = Typed<Bool>(
        "fail-on-new-flaky", .bool, flag: .toggle, default: "off",
        help: "the run fails when a test was flaky (within the run, or unlike an earlier run at the same commit) that the flake ledger in `history.json` had never seen flaky; known flaky tests do not fail it"
    ) { try $0.bool() }
    .into(\.failOnNewFlaky)

    public static let allowLikelyFlaky = Typed<Bool>(
        "allow-likely-flaky", .bool, flag: .toggle, default: "off",
        help: "a failure of a test that passed at the same commit before (reported as likely flaky) does not fail the run"
    ) { try $0.bool() }
    .into(\.allowLikelyFlaky)

    public static let maxFailures = Typed<Int>(
        "max-failures", .int, flag: .option("N"), default: "off",
        help: "after N tests failed for good, start nothing new and stop the running batches; the rest are `notRun` (exit 1)"
    ) { try $0.int(min: 1) }
    .into(\.maxFailures)

    public static let lastFailed = Typed<Bool>(
        "last-failed", .bool, flag: .toggle, default: "off",
        help: "run only the tests that did not pass in the previous run (failed, crashed, timed out, not run), read from the report folder or `--history`"
    ) { try $0.bool() }
    .into(\.lastFailed)

    public static let lastFailedWithFlaky = Typed<Bool>(
        "last-failed-with-flaky", .bool, flag: .toggle, default: "off",
        help: "with `--last-failed`: the previous run's flaky tests too"
    ) { try $0.bool() }
    .into(\.lastFailedWithFlaky)

    public static let repeatEach = Typed<Int>(
        "repeat-each", .int, flag: .option("N"), default: "1",
        help: "run every selected test N times, each repetition a test of its own (`id (repeat k of N)`) with its own retries, spread over shards; left out of timings and flake rates (see docs/cli.md, *Re-runs, burn-in and rules*)"
    ) { try $0.int(min: 1) }
    .into(\.repeatEach)

    public static let untilFailure = Typed<Bool>(
        "until-failure", .bool, flag: .toggle, default: "off",
        help: "repeat the selected tests until a repetition fails for good, at most `--repeat-each` times (default 100); no repetition starts after the first failure; exit 1 on a failure, 0 when the cap ran clean"
    ) { try $0.bool() }
    .into(\.untilFailure)

    public static let partition = Typed<PartitionRequest>(
        "partition", .string, flag: .option("K/N"), default: "—",
        help: "run this machine's share; `auto` reads K and N from the CI's parallel-job variables, which alone shard nothing (see docs/ci.md)"
    ) { given in
        let text = try given.scalar()
        if text.trimmingCharacters(in: .whitespaces) == "auto" { return .fromCI }
        do { return .share(try Partition(parsing: text)) } catch let e as ConfigError { throw given.fail(e.message) }
    }
    .into { request, config in
        switch request {
        case .fromCI: (config.partition, config.partitionFromCI) = (nil, true)
        case .share(let share): (config.partition, config.partitionFromCI) = (share, false)
        }
    }

    public static let partitionCount = Typed<Int>(
        "partition-count", .int, flag: .option("N"), default: "—",
        help: "N for a Kubernetes Indexed Job (`JOB_COMPLETION_INDEX` gives K); implies `--partition auto`"
    ) { try $0.int(min: 1) }
    .into(\.partitionCount)

    public static let partitionTimings = Typed<URL>(
        "partition-timings", .string, flag: .option("FILE"), default: "even split",
        help: "a `timings.json` every partition reads alike (e.g. the last merged report's): balances the shares by time"
    ) { try $0.path(empty: "'partition-timings' needs a file path (the same timings.json on every machine), or leave it out for an even split") }
    .into { $1.partitionTimings = $0.relativePath }

    public static let reporter = Typed<CIReporter>(
        "reporter", .string, flag: .option("REPORTER"), default: "auto",
        help: "`github` annotations and job summary, `plain`, or `auto`"
    ) { try $0.choice(CIReporter.self) }
    .into(\.reporter)

    public static let basePort = Typed<Int>(
        "base-port", .int, flag: .option("P"), default: "OS-assigned",
        help: "shard *i* gets ports P+2i (mock) and P+2i+1 (a WebDriver server RobotKit starts for the WebDriver engine; the default engine needs none)"
    ) { given in
        let port = try given.int(min: 1024)
        guard port < 65000 else { throw given.fail("'base-port' must be below 65000") }
        return port
    }
    .into(\.basePort)

    public static let configuration = Typed<BuildConfiguration>(
        "configuration", .string, flag: .option("CONFIGURATION"), default: "`debug`",
        help: "`swift build -c`: debug or release"
    ) { try $0.choice(BuildConfiguration.self) }
    .into(\.buildConfiguration)

    public static let maxBatchSize = Typed<Int>(
        "max-batch-size", .int, flag: .option("N"), default: "2000",
        help: "most tests per worker process (1 = a process per test)"
    ) { try $0.int(min: 1) }
    .into(\.maxBatchSize)

    public static let queue = Typed<QueueURL>(
        "queue", .string, flag: .option("URL"), default: "—",
        help: "`redis://[USER:PASSWORD@]HOST:PORT/NAME`: pull batches from a queue shared by many machines; the password may come from `ROBOTCI_QUEUE_PASSWORD` (see docs/queue.md)"
    ) { QueueURL(try $0.scalar()) }
    .checkedWhenApplied { queue in
        do { try queue.check() } catch let e as QueueError { throw ConfigError(e.message) }
    }
    .into { $1.queue = $0.text }

    public static let queueLeaseTimeout = Typed<Double>(
        "queue-lease-timeout", .number, flag: .option("SECONDS"), default: "30",
        help: "seconds a silent machine keeps its batches before they run elsewhere"
    ) { try $0.seconds() }
    .into(\.queueLeaseTimeout)

    /// Every key, in the order the docs list them.
    public static let all: [ConfigKey] = [
        package.key,
        shards.key,
        retries.key,
        testTimeout.key,
        reportDir.key,
        history.key,
        adaptiveConcurrency.key,
        trace.key,
        isolation.key,
        browsers.key,
        updateSnapshots.key,
        snapshotTolerance.key,
        networkIsolation.key,
        skipBuild.key,
        filter.key,
        skip.key,
        tag.key,
        failOnFlaky.key,
        failOnNewFlaky.key,
        allowLikelyFlaky.key,
        maxFailures.key,
        lastFailed.key,
        lastFailedWithFlaky.key,
        repeatEach.key,
        untilFailure.key,
        partition.key,
        partitionCount.key,
        partitionTimings.key,
        reporter.key,
        basePort.key,
        configuration.key,
        maxBatchSize.key,
        queue.key,
        queueLeaseTimeout.key,
        ConfigKey("rules", .rules, default: "none",
                  help: "per-test settings, first match wins: a list of `{match: REGEX, retries: N, test-timeout: S, retry-on: REGEX}`; a field left out is the global one; with `retry-on`, only a failure whose message it finds is retried") {
            $1.rules = try $0.rules()
        },
        ConfigKey("quarantine", .list, default: "none",
                  help: "tests that run and are reported but never fail the build: regexes, or entries `{test: ID, owner: WHO, reason: WHY, expires: YYYY-MM-DD}` (an expired entry stops applying and the run says so; see docs/configuration.md, *Quarantine*)") {
            ($1.quarantine, $1.quarantineEntries) = try $0.quarantine()
        },
        ConfigKey("quarantine-cap", .int, default: "none",
                  help: "the most tests `quarantine` may hold (regex matches and entries, among the tests the run lists); more is a configuration error (exit 2)") {
            $1.quarantineCap = try $0.int()
        },
        ConfigKey("quarantine-release-after", .int, default: "20",
                  help: "a quarantined test that passed its last N runs in a row (the flake ledger's) is named before the summary, with the `quarantine:` lines to delete") {
            $1.quarantineReleaseAfter = try $0.int(min: 1)
        },
        ConfigKey("build-arguments", .list, default: "none",
                  help: "extra `swift build` arguments") {
            $1.buildArguments = try $0.list()
        },
        ConfigKey("driver", .string, default: "`swift`",
                  help: "`swift` (XCTest and Swift Testing) or `command` (any runner that writes JUnit)") { value, config in
            let name = try value.choice(RunConfiguration.Driver.allCases.map(\.rawValue),
                                        meaning: "swift (XCTest and Swift Testing) or command (any runner that writes JUnit)")
            config.driver = RunConfiguration.Driver(rawValue: name) ?? .swift
        },
        ConfigKey("list", .string, default: "—",
                  help: "`driver: command`: prints the test ids, one per line") {
            $1.listCommand = try $0.command()
        },
        ConfigKey("run", .string, default: "—",
                  help: "`driver: command`: runs `{tests}` and writes JUnit to `{junit}`") { value, config in
            let command = try value.command()
            for placeholder in ["{tests}", "{junit}"] where !command.contains(placeholder) {
                throw value.fail("the 'run' command must contain \(placeholder) (robotci puts the batch's test ids in {tests} and reads JUnit from {junit}), got '\(command)'")
            }
            config.runCommand = command
        },
        ConfigKey("build", .string, default: "—",
                  help: "`driver: command`: runs once before listing") {
            $1.buildCommand = try $0.command()
        },
        ConfigKey("test-separator", .string, default: "space",
                  help: "`driver: command`: what joins the quoted ids in `{tests}`") {
            $1.testSeparator = try $0.scalar()
        },
    ]
}
