import Foundation
import RobotCICore
import RobotCIQueue
import Yams

/// One configuration key, described once: its name (the flag `--name`, the YAML key `name`,
/// the environment variable `ROBOTCI_NAME`), its type, its default and help, and how a value
/// is checked and stored in `RunConfiguration`. The YAML and environment loader, the flags'
/// help text, `robotci config` and the table in docs/configuration.md all come from `ConfigKey.all`.
///
/// A new key: a property in `RunConfiguration`, an entry in `ConfigKey.all`, and (when it has
/// a flag) an `@Option` in `RunOptions` whose help is `ConfigKey.help(name)` and its row in
/// `RunOptions.flagValues`; a test fails when the flag, its row, the sample
/// `config/robotci.yml` or docs/configuration.md's table is missing it.
public struct ConfigKey: Sendable {
    /// How a key's value is written (for the docs; the parser checks it).
    public enum Kind: Sendable { case string, int, number, bool, list, rules }

    /// How `robotci run`/`list` take it on the command line.
    public enum Flag: Sendable, Equatable {
        /// `--name VALUE` (`VALUE` names it in the docs); `repeated`: may be given several times.
        case option(String, repeated: Bool = false)
        /// `--name` alone turns it on.
        case toggle
        /// YAML and environment only.
        case none
    }

    public let name: String
    public let kind: Kind
    public let flag: Flag
    /// The default as the docs show it.
    public let defaultText: String
    public let help: String
    /// Checks `value` (from `source`, e.g. "robotci.yml:3 key 'shards'") and stores it.
    let store: @Sendable (ConfigValue, inout RunConfiguration) throws -> Void

    /// `ROBOTCI_` + the name upper-cased, `-` → `_`.
    public var environmentName: String { "ROBOTCI_" + name.uppercased().replacingOccurrences(of: "-", with: "_") }

    /// Checks and stores `value` given by `source` into `config`.
    public func apply(_ value: ConfigLoader.Value, source: String, to config: inout RunConfiguration) throws {
        try store(ConfigValue(key: name, value: value, source: source), &config)
    }
}

/// A value as given for one key, with the typed readings every key shares; errors name the
/// source and the key.
struct ConfigValue {
    let key: String
    let value: ConfigLoader.Value
    let source: String

    func fail(_ message: String) -> ConfigError { ConfigError("\(source): \(message)") }

    func scalar() throws -> String {
        guard case .scalar(let s) = value else { throw fail("'\(key)' takes one value, not a list") }
        return s
    }

    func int(min: Int = 0) throws -> Int {
        let s = try scalar()
        guard let n = Int(s), n >= min else { throw fail("'\(key)' must be an integer ≥ \(min), got '\(s)'") }
        return n
    }

    func seconds() throws -> Double {
        let s = try scalar()
        guard let n = Double(s), n > 0 else { throw fail("'\(key)' must be a positive number of seconds, got '\(s)'") }
        return n
    }

    /// A number from 0 to 1.
    func fraction() throws -> Double {
        let s = try scalar()
        guard let n = Double(s), n >= 0, n <= 1 else { throw fail("'\(key)' must be a number from 0 to 1, got '\(s)'") }
        return n
    }

    func bool() throws -> Bool {
        let s = try scalar().lowercased()
        switch s {
        case "true", "yes", "1", "on": return true
        case "false", "no", "0", "off": return false
        default: throw fail("'\(key)' must be true or false, got '\(s)'")
        }
    }

    func command() throws -> String {
        let s = try scalar().trimmingCharacters(in: .whitespaces)
        guard !s.isEmpty else { throw fail("'\(key)' needs a shell command") }
        return s
    }

    /// One of `choices`, else an error that lists them (`meaning` explains each, optional).
    func choice(_ choices: [String], meaning: String? = nil) throws -> String {
        let s = try scalar()
        guard choices.contains(s) else {
            let listed = meaning ?? choices.dropLast().joined(separator: ", ") + " or " + (choices.last ?? "")
            throw fail("'\(key)' must be \(listed), got '\(s)'")
        }
        return s
    }

    /// A scalar is a one-element list.
    func list() throws -> [String] {
        switch value {
        case .list(let l): return l
        case .scalar(let s): return [s]
        case .mappings: throw fail("'\(key)' takes regexes (a list of strings), not mappings")
        }
    }

    /// `rules:`: a list of `{match: REGEX, retries: N, test-timeout: S, retry-on: REGEX}`
    /// (from YAML; an environment variable holds the same list in YAML flow style).
    func rules() throws -> [TestRule] {
        var entries: [[String: String]]
        switch value {
        case .mappings(let m): entries = m
        case .list(let l) where l.isEmpty: entries = []
        case .scalar(let text):
            entries = try flowRules(text)
        case .list:
            throw fail("'rules' is a list of mappings, e.g.\n  rules:\n    - {match: 'CheckoutUITests/', retries: 0}\n    - {match: 'Slow', test-timeout: 900}")
        }
        return try entries.enumerated().map { i, fields in
            do { return try TestRule(number: i + 1, fields: fields) } catch let e as ConfigError { throw fail(e.message) }
        }
    }

    /// `[{match: X, retries: 0}, …]` as YAML flow text (`ROBOTCI_RULES`).
    private func flowRules(_ text: String) throws -> [[String: String]] {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.isEmpty { return [] }
        let usage = "'rules' must be a YAML list of mappings, e.g. [{match: 'CheckoutUITests/', retries: 0}]"
        guard let node = try? Yams.compose(yaml: trimmed), let seq = node.sequence else { throw fail(usage) }
        // The entries are read as a file's are: errors name the entry and the field.
        return try ConfigLoader.mappings(seq, key: key, at: source)
    }
}

extension ConfigKey {
    private init(_ name: String, _ kind: Kind, flag: Flag, default defaultText: String, help: String,
                 store: @escaping @Sendable (ConfigValue, inout RunConfiguration) throws -> Void) {
        self.name = name
        self.kind = kind
        self.flag = flag
        self.defaultText = defaultText
        self.help = help
        self.store = store
    }

    /// Every key robotci understands, in the order the docs list them.
    public static let all: [ConfigKey] = [
        ConfigKey("package", .string, flag: .option("PATH"), default: "`.`", help: "SwiftPM package under test (or the folder `driver: command` runs in)") {
            $1.package = try $0.scalar()
        },
        ConfigKey("shards", .int, flag: .option("N"), default: "cores", help: "shards (worker processes) running in parallel") {
            $1.shards = try $0.int(min: 1)
        },
        ConfigKey("retries", .int, flag: .option("N"), default: "2", help: "extra attempts for a failing / crashing / hanging test; it re-runs alone, on another shard when one is free") {
            $1.retries = try $0.int()
        },
        ConfigKey("test-timeout", .number, flag: .option("S"), default: "300", help: "seconds a test may run; then its process group is killed and it is `timedOut`. A test with 5 passing runs in history gets 10 × their p95 (at least 10 s) when that is shorter; the failure names the rule that fired") {
            $1.testTimeout = try $0.seconds()
        },
        ConfigKey("report-dir", .string, flag: .option("DIR"), default: "`robotci-report`", help: "where the report goes") {
            $1.reportDir = try $0.scalar()
        },
        ConfigKey("history", .string, flag: .option("FILE"), default: "`<report-dir>/history.json`",
                  help: "the last 30 runs of every test, read and updated (point it at a CI cache)") {
            let v = try $0.scalar()
            guard !v.isEmpty else { throw $0.fail("'history' needs a file path (e.g. .cache/robotci-history.json)") }
            $1.history = v
        },
        ConfigKey("adaptive-concurrency", .bool, flag: .option("on/off"), default: "on",
                  help: "hold back starting batches while the CPU is saturated (PSI, else load); off: every shard runs at once") {
            $1.adaptiveConcurrency = try $0.bool()
        },
        ConfigKey("trace", .string, flag: .option("MODE"), default: "on-failure",
                  help: "step traces of UI tests (screenshot, DOM, mock requests, console per action): `on-failure` records every attempt and keeps those of failed or flaky tests, `always` keeps all, `off` records none (see docs/trace-format.md)") {
            $1.trace = TraceMode(rawValue: try $0.choice(TraceMode.allCases.map(\.rawValue))) ?? .onFailure
        },
        ConfigKey("isolation", .string, flag: .option("context/reset"), default: "context",
                  help: "what separates two launches of the app in a shard's warm browser: `context` a fresh browser context each (nothing of the last test is there), `reset` one page per shard, cleared between launches (8–10 % less CPU on the bundled example; what it keeps: docs/isolation.md)") {
            $1.isolation = BrowserIsolation(rawValue: try $0.choice(BrowserIsolation.allCases.map(\.rawValue))) ?? .context
        },
        ConfigKey("browsers", .list, flag: .option("LIST"), default: "chromium",
                  help: "the engines every test runs on, comma-separated: `chromium` (ids unchanged), `webkit` (WPE WebKit; ids end in ` [webkit]`), `webdriver=URL` (a W3C endpoint robotci does not start: a grid, Appium; ids end in ` [webdriver]`); `chromium,webkit` runs each test once per engine (see docs/browsers.md)") {
            let given = $0
            do { $1.browsers = try BrowserTarget.list(parsing: try given.list()) } catch let e as ConfigError { throw given.fail(e.message) }
        },
        ConfigKey("update-snapshots", .string, flag: .option("none/missing/all"), default: "none",
                  help: "which snapshot baselines `verifySnapshot` writes beside the tests: `none` writes a missing one and fails the test saying so, `missing` writes missing ones and passes, `all` rewrites every compared one and passes (see docs/RobotKit.md, *Snapshots*)") {
            $1.updateSnapshots = SnapshotUpdate(rawValue: try $0.choice(SnapshotUpdate.allCases.map(\.rawValue))) ?? .none
        },
        ConfigKey("snapshot-tolerance", .number, flag: .option("D"), default: "0.1",
                  help: "how far (0–1 of the black-to-white distance, perceptual YIQ) a snapshot's pixel may move before it counts as different, for calls that set none; anti-aliased edges never count") {
            $1.snapshotTolerance = try $0.fraction()
        },
        ConfigKey("network-isolation", .string, flag: .option("auto/on/off"), default: "off (`auto` with `webkit` in `browsers`)",
                  help: "each shard's browser, mock server and tests in a network namespace of their own, unreachable from the host's (and without its network): `auto` where the kernel allows it (else one warning), `on` or exit 2, `off` the host's loopback (see docs/security.md, *One user per host*)") {
            $1.networkIsolation = NetworkIsolation(rawValue: try $0.choice(NetworkIsolation.allCases.map(\.rawValue)))
        },
        ConfigKey("skip-build", .bool, flag: .toggle, default: "off", help: "use the last build") {
            $1.skipBuild = try $0.bool()
        },
        ConfigKey("filter", .list, flag: .option("REGEX", repeated: true), default: "all", help: "keep tests whose id (`Module.Class/test`) matches (repeatable)") {
            $1.filter = try $0.list()
        },
        ConfigKey("skip", .list, flag: .option("REGEX", repeated: true), default: "none", help: "drop tests whose id matches (repeatable)") {
            $1.skip = try $0.list()
        },
        ConfigKey("tag", .list, flag: .option("NAME", repeated: true), default: "all",
                  help: "keep Swift Testing tests that have this tag (`smoke` for `.smoke`, a suite's tags included; repeatable: any of them); XCTest tests have none") {
            $1.tags = try $0.list().map(SwiftTestingTags.name)
        },
        ConfigKey("fail-on-flaky", .bool, flag: .toggle, default: "off", help: "flaky tests make the run fail") {
            $1.failOnFlaky = try $0.bool()
        },
        ConfigKey("fail-on-new-flaky", .bool, flag: .toggle, default: "off",
                  help: "the run fails when a test was flaky (within the run, or unlike an earlier run at the same commit) that the flake ledger in `history.json` had never seen flaky; known flaky tests do not fail it") {
            $1.failOnNewFlaky = try $0.bool()
        },
        ConfigKey("allow-likely-flaky", .bool, flag: .toggle, default: "off",
                  help: "a failure of a test that passed at the same commit before (reported as likely flaky) does not fail the run") {
            $1.allowLikelyFlaky = try $0.bool()
        },
        ConfigKey("max-failures", .int, flag: .option("N"), default: "off",
                  help: "after N tests failed for good, start nothing new and stop the running batches; the rest are `notRun` (exit 1)") {
            $1.maxFailures = try $0.int(min: 1)
        },
        ConfigKey("last-failed", .bool, flag: .toggle, default: "off",
                  help: "run only the tests that did not pass in the previous run (failed, crashed, timed out, not run), read from the report folder or `--history`") {
            $1.lastFailed = try $0.bool()
        },
        ConfigKey("last-failed-with-flaky", .bool, flag: .toggle, default: "off", help: "with `--last-failed`: the previous run's flaky tests too") {
            $1.lastFailedWithFlaky = try $0.bool()
        },
        ConfigKey("repeat-each", .int, flag: .option("N"), default: "1",
                  help: "run every selected test N times, each repetition a test of its own (`id (repeat k of N)`) with its own retries, spread over shards; left out of timings and flake rates (see docs/cli.md, *Re-runs, burn-in and rules*)") {
            $1.repeatEach = try $0.int(min: 1)
        },
        ConfigKey("until-failure", .bool, flag: .toggle, default: "off",
                  help: "repeat the selected tests until a repetition fails for good, at most `--repeat-each` times (default 100); no repetition starts after the first failure; exit 1 on a failure, 0 when the cap ran clean") {
            $1.untilFailure = try $0.bool()
        },
        ConfigKey("partition", .string, flag: .option("K/N"), default: "—",
                  help: "run this machine's share; `auto` reads K and N from the CI's parallel-job variables, which alone shard nothing (see docs/ci.md)") { value, config in
            let text = try value.scalar()
            if text.trimmingCharacters(in: .whitespaces) == "auto" {
                config.partition = nil
                config.partitionFromCI = true
                return
            }
            config.partitionFromCI = false
            do { config.partition = try Partition(parsing: text) } catch let e as ConfigError { throw value.fail(e.message) }
        },
        ConfigKey("partition-count", .int, flag: .option("N"), default: "—", help: "N for a Kubernetes Indexed Job (`JOB_COMPLETION_INDEX` gives K); implies `--partition auto`") {
            $1.partitionCount = try $0.int(min: 1)
        },
        ConfigKey("partition-timings", .string, flag: .option("FILE"), default: "even split",
                  help: "a `timings.json` every partition reads alike (e.g. the last merged report's): balances the shares by time") {
            let v = try $0.scalar()
            guard !v.isEmpty else { throw $0.fail("'partition-timings' needs a file path (the same timings.json on every machine), or leave it out for an even split") }
            $1.partitionTimings = v
        },
        ConfigKey("reporter", .string, flag: .option("R"), default: "auto", help: "`github` annotations and job summary, `plain`, or `auto`") {
            $1.reporter = try $0.choice(["github", "plain", "auto"])
        },
        ConfigKey("base-port", .int, flag: .option("P"), default: "OS-assigned", help: "shard *i* gets ports P+2i (mock) and P+2i+1 (a WebDriver server RobotKit starts for the WebDriver engine; the default engine needs none)") { value, config in
            let port = try value.int(min: 1024)
            guard port < 65000 else { throw value.fail("'base-port' must be below 65000") }
            config.basePort = port
        },
        ConfigKey("configuration", .string, flag: .option("C"), default: "`debug`", help: "`swift build -c`: debug or release") {
            $1.buildConfiguration = try $0.choice(["debug", "release"])
        },
        ConfigKey("max-batch-size", .int, flag: .option("N"), default: "2000", help: "most tests per worker process (1 = a process per test)") {
            $1.maxBatchSize = try $0.int(min: 1)
        },
        ConfigKey("queue", .string, flag: .option("URL"), default: "—", help: "`redis://[USER:PASSWORD@]HOST:PORT/NAME`: pull batches from a queue shared by many machines; the password may come from `ROBOTCI_QUEUE_PASSWORD` (see docs/queue.md)") { value, config in
            let text = try value.scalar()
            do { try QueueAddress.validate(text) } catch let e as QueueError { throw value.fail(e.message) }
            config.queue = text
        },
        ConfigKey("queue-lease-timeout", .number, flag: .option("S"), default: "30", help: "seconds a silent machine keeps its batches before they run elsewhere") {
            $1.queueLeaseTimeout = try $0.seconds()
        },
        ConfigKey("rules", .rules, flag: .none, default: "none",
                  help: "per-test settings, first match wins: a list of `{match: REGEX, retries: N, test-timeout: S, retry-on: REGEX}`; a field left out is the global one; with `retry-on`, only a failure whose message it finds is retried") {
            $1.rules = try $0.rules()
        },
        ConfigKey("quarantine", .list, flag: .none, default: "none",
                  help: "tests that run and are reported but never fail the build: regexes, or entries `{test: ID, owner: WHO, reason: WHY, expires: YYYY-MM-DD}` (an expired entry stops applying and the run says so; see docs/configuration.md, *Quarantine*)") {
            ($1.quarantine, $1.quarantineEntries) = try $0.quarantine()
        },
        ConfigKey("quarantine-cap", .int, flag: .none, default: "none",
                  help: "the most tests `quarantine` may hold (regex matches and entries, among the tests the run lists); more is a configuration error (exit 2)") {
            $1.quarantineCap = try $0.int()
        },
        ConfigKey("quarantine-release-after", .int, flag: .none, default: "20",
                  help: "a quarantined test that passed its last N runs in a row (the flake ledger's) is named before the summary, with the `quarantine:` lines to delete") {
            $1.quarantineReleaseAfter = try $0.int(min: 1)
        },
        ConfigKey("build-arguments", .list, flag: .none, default: "none", help: "extra `swift build` arguments") {
            $1.buildArguments = try $0.list()
        },
        ConfigKey("driver", .string, flag: .none, default: "`swift`", help: "`swift` (XCTest and Swift Testing) or `command` (any runner that writes JUnit)") { value, config in
            let name = try value.choice(RunConfiguration.Driver.allCases.map(\.rawValue),
                                        meaning: "swift (XCTest and Swift Testing) or command (any runner that writes JUnit)")
            config.driver = RunConfiguration.Driver(rawValue: name) ?? .swift
        },
        ConfigKey("list", .string, flag: .none, default: "—", help: "`driver: command`: prints the test ids, one per line") {
            $1.listCommand = try $0.command()
        },
        ConfigKey("run", .string, flag: .none, default: "—", help: "`driver: command`: runs `{tests}` and writes JUnit to `{junit}`") { value, config in
            let command = try value.command()
            for placeholder in ["{tests}", "{junit}"] where !command.contains(placeholder) {
                throw value.fail("the 'run' command must contain \(placeholder) (robotci puts the batch's test ids in {tests} and reads JUnit from {junit}), got '\(command)'")
            }
            config.runCommand = command
        },
        ConfigKey("build", .string, flag: .none, default: "—", help: "`driver: command`: runs once before listing") {
            $1.buildCommand = try $0.command()
        },
        ConfigKey("test-separator", .string, flag: .none, default: "space", help: "`driver: command`: what joins the quoted ids in `{tests}`") {
            $1.testSeparator = try $0.scalar()
        },
    ]

    /// Keys by name.
    public static let byName: [String: ConfigKey] = Dictionary(all.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })

    /// The flag's help text, from the key's description (for `RunOptions`).
    public static func help(_ name: String) -> String {
        guard let key = byName[name] else { return "" }
        return "\(key.help.replacingOccurrences(of: "`", with: "")) (config: \(name); default: \(key.defaultText.replacingOccurrences(of: "`", with: "")))."
    }

    /// The table of keys in docs/configuration.md (flag, key, default, meaning).
    public static func markdownTable() -> String {
        var lines = ["| flag | config key | default | meaning |", "|---|---|---|---|"]
        for key in all {
            let flag: String
            switch key.flag {
            case .option(let value, _): flag = "`--\(key.name) \(value)`"
            case .toggle: flag = "`--\(key.name)`"
            case .none: flag = "—"
            }
            lines.append("| \(flag) | `\(key.name)` | \(key.defaultText) | \(key.help) |")
        }
        lines.append("| `--config FILE` | — | `robotci.yml` if present | YAML config |")
        return lines.joined(separator: "\n")
    }
}
