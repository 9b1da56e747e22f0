import ArgumentParser
import Foundation
import RobotCICore
import RobotCIRunner

/// Flags shared by `run`, `list` and `config`; each is a config key (`ConfigKey.all`) of the
/// same name, whose description gives the help. Values stay text here: the one parser of
/// every layer (`ConfigKey.apply`) checks them, so a bad flag and a bad YAML value get the
/// same error.
struct RunOptions: ParsableArguments {
    @Option(help: ArgumentHelp(ConfigKey.help("package"), valueName: "path"))
    var package: String?

    @Option(help: ArgumentHelp(ConfigKey.help("shards"), valueName: "n"))
    var shards: String?

    @Option(help: ArgumentHelp(ConfigKey.help("retries"), valueName: "n"))
    var retries: String?

    @Option(name: .customLong("test-timeout"), help: ArgumentHelp(ConfigKey.help("test-timeout"), valueName: "seconds"))
    var testTimeout: String?

    @Option(name: .customLong("report-dir"), help: ArgumentHelp(ConfigKey.help("report-dir"), valueName: "dir"))
    var reportDir: String?

    @Option(name: .customLong("history"), help: ArgumentHelp(ConfigKey.help("history"), valueName: "file"))
    var history: String?

    @Option(name: .customLong("adaptive-concurrency"), help: ArgumentHelp(ConfigKey.help("adaptive-concurrency"), valueName: "on/off"))
    var adaptiveConcurrency: String?

    @Option(name: .customLong("trace"), help: ArgumentHelp(ConfigKey.help("trace"), valueName: "mode"))
    var trace: String?

    @Option(name: .customLong("isolation"), help: ArgumentHelp(ConfigKey.help("isolation"), valueName: "context/reset"))
    var isolation: String?

    @Option(name: .customLong("browsers"), help: ArgumentHelp(ConfigKey.help("browsers"), valueName: "list"))
    var browsers: String?

    @Option(name: .customLong("update-snapshots"), help: ArgumentHelp(ConfigKey.help("update-snapshots"), valueName: "none/missing/all"))
    var updateSnapshots: String?

    @Option(name: .customLong("snapshot-tolerance"), help: ArgumentHelp(ConfigKey.help("snapshot-tolerance"), valueName: "d"))
    var snapshotTolerance: String?

    @Option(name: .customLong("network-isolation"), help: ArgumentHelp(ConfigKey.help("network-isolation"), valueName: "auto/on/off"))
    var networkIsolation: String?

    @Flag(name: .customLong("skip-build"), help: ArgumentHelp(ConfigKey.help("skip-build")))
    var skipBuild = false

    @Option(help: ArgumentHelp(ConfigKey.help("filter"), valueName: "regex"))
    var filter: [String] = []

    @Option(help: ArgumentHelp(ConfigKey.help("skip"), valueName: "regex"))
    var skip: [String] = []

    @Option(help: ArgumentHelp(ConfigKey.help("tag"), valueName: "name"))
    var tag: [String] = []

    @Flag(name: .customLong("fail-on-flaky"), help: ArgumentHelp(ConfigKey.help("fail-on-flaky")))
    var failOnFlaky = false

    @Flag(name: .customLong("fail-on-new-flaky"), help: ArgumentHelp(ConfigKey.help("fail-on-new-flaky")))
    var failOnNewFlaky = false

    @Flag(name: .customLong("allow-likely-flaky"), help: ArgumentHelp(ConfigKey.help("allow-likely-flaky")))
    var allowLikelyFlaky = false

    @Option(name: .customLong("max-failures"), help: ArgumentHelp(ConfigKey.help("max-failures"), valueName: "n"))
    var maxFailures: String?

    @Flag(name: .customLong("last-failed"), help: ArgumentHelp(ConfigKey.help("last-failed")))
    var lastFailed = false

    @Flag(name: .customLong("last-failed-with-flaky"), help: ArgumentHelp(ConfigKey.help("last-failed-with-flaky")))
    var lastFailedWithFlaky = false

    @Option(name: .customLong("repeat-each"), help: ArgumentHelp(ConfigKey.help("repeat-each"), valueName: "n"))
    var repeatEach: String?

    @Flag(name: .customLong("until-failure"), help: ArgumentHelp(ConfigKey.help("until-failure")))
    var untilFailure = false

    @Option(help: ArgumentHelp(ConfigKey.help("partition"), valueName: "k/n"))
    var partition: String?

    @Option(name: .customLong("partition-count"), help: ArgumentHelp(ConfigKey.help("partition-count"), valueName: "n"))
    var partitionCount: String?

    @Option(name: .customLong("partition-timings"), help: ArgumentHelp(ConfigKey.help("partition-timings"), valueName: "file"))
    var partitionTimings: String?

    @Option(help: ArgumentHelp(ConfigKey.help("reporter"), valueName: "reporter"))
    var reporter: String?

    @Option(name: .customLong("base-port"), help: ArgumentHelp(ConfigKey.help("base-port"), valueName: "port"))
    var basePort: String?

    @Option(help: ArgumentHelp(ConfigKey.help("configuration"), valueName: "configuration"))
    var configuration: String?

    @Option(name: .customLong("max-batch-size"), help: ArgumentHelp(ConfigKey.help("max-batch-size"), valueName: "n"))
    var maxBatchSize: String?

    @Option(help: ArgumentHelp(ConfigKey.help("queue"), valueName: "url"))
    var queue: String?

    @Option(name: .customLong("queue-lease-timeout"), help: ArgumentHelp(ConfigKey.help("queue-lease-timeout"), valueName: "seconds"))
    var queueLeaseTimeout: String?

    @Option(help: "YAML config file; default: robotci.yml in the current folder or the package, if present.")
    var config: String?

    /// The flags given, by key name (the last layer), with `--name` as their source.
    var flagLayer: [String: (ConfigLoader.Value, String)] {
        var flags: [String: (ConfigLoader.Value, String)] = [:]
        for (key, value) in flagValues {
            if let value { flags[key] = (value, "--\(key)") }
        }
        return flags
    }

    /// Every flag above but `--config`, by key name: `nil` when not given. One row per
    /// `@Option`/`@Flag`, written out rather than derived from property names, so a key's
    /// flag is a name in one table; `CLITests` parses each key's flag and checks that it
    /// arrives here under its name, and that no option is missing a row.
    var flagValues: KeyValuePairs<String, ConfigLoader.Value?> {
        [
            "package": Self.scalar(package),
            "shards": Self.scalar(shards),
            "retries": Self.scalar(retries),
            "test-timeout": Self.scalar(testTimeout),
            "report-dir": Self.scalar(reportDir),
            "history": Self.scalar(history),
            "adaptive-concurrency": Self.scalar(adaptiveConcurrency),
            "trace": Self.scalar(trace),
            "isolation": Self.scalar(isolation),
            "browsers": Self.scalar(browsers),
            "update-snapshots": Self.scalar(updateSnapshots),
            "snapshot-tolerance": Self.scalar(snapshotTolerance),
            "network-isolation": Self.scalar(networkIsolation),
            "skip-build": Self.toggle(skipBuild),
            "filter": Self.list(filter),
            "skip": Self.list(skip),
            "tag": Self.list(tag),
            "fail-on-flaky": Self.toggle(failOnFlaky),
            "fail-on-new-flaky": Self.toggle(failOnNewFlaky),
            "allow-likely-flaky": Self.toggle(allowLikelyFlaky),
            "max-failures": Self.scalar(maxFailures),
            "last-failed": Self.toggle(lastFailed),
            "last-failed-with-flaky": Self.toggle(lastFailedWithFlaky),
            "repeat-each": Self.scalar(repeatEach),
            "until-failure": Self.toggle(untilFailure),
            "partition": Self.scalar(partition),
            "partition-count": Self.scalar(partitionCount),
            "partition-timings": Self.scalar(partitionTimings),
            "reporter": Self.scalar(reporter),
            "base-port": Self.scalar(basePort),
            "configuration": Self.scalar(configuration),
            "max-batch-size": Self.scalar(maxBatchSize),
            "queue": Self.scalar(queue),
            "queue-lease-timeout": Self.scalar(queueLeaseTimeout),
        ]
    }

    private static func scalar(_ value: String?) -> ConfigLoader.Value? { value.map { .scalar($0) } }
    private static func list(_ values: [String]) -> ConfigLoader.Value? { values.isEmpty ? nil : .list(values) }
    private static func toggle(_ on: Bool) -> ConfigLoader.Value? { on ? .scalar("true") : nil }

    /// The layers in order: `robotci.yml`, `ROBOTCI_*` environment, flags.
    func layers(environment: [String: String]) throws -> [[String: (ConfigLoader.Value, String)]] {
        var layers: [[String: (ConfigLoader.Value, String)]] = []
        if let path = try configPath() { layers.append(try ConfigLoader.readYAML(at: path)) }
        layers.append(try ConfigLoader.readEnvironment(environment))
        layers.append(flagLayer)
        return layers
    }

    /// The configuration after defaults < YAML < environment < these flags.
    func resolve(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> RunConfiguration {
        try Self.configuration(from: layers(environment: environment))
    }

    /// Defaults with `layers` applied in order, then checked as a whole.
    static func configuration(from layers: [[String: (ConfigLoader.Value, String)]]) throws -> RunConfiguration {
        var c = RunConfiguration(shards: ProcessInfo.processInfo.activeProcessorCount)
        try ConfigLoader.apply(layers, to: &c)
        try ConfigLoader.validate(c)
        return c
    }

    private func configPath() throws -> String? {
        if let config {
            guard FileManager.default.fileExists(atPath: config) else {
                throw ConfigError("config file '\(config)' does not exist: fix the path given to --config")
            }
            return config
        }
        for candidate in ["robotci.yml", package.map { "\($0)/robotci.yml" }].compactMap({ $0 })
            where FileManager.default.fileExists(atPath: candidate) {
            return candidate
        }
        return nil
    }
}
