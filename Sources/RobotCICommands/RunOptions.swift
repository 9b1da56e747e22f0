import ArgumentParser
import Foundation
import RobotCICore
import RobotCIQueue
import RobotCIRunner
import WorkerContract

/// Flags shared by `run`, `list` and `config`; each is the flag of a config key
/// (ConfigKeys.swift) of the same name (`testTimeout` is `--test-timeout`): its help, and the
/// reading that types its value when the command line is parsed, are the key's, so a bad flag
/// and a bad YAML value get the same error. What the flags set is read off these declarations
/// (`flagSettings`), not a table beside them.
struct RunOptions: ParsableArguments {
    @Option(help: ConfigKey.package.argument, transform: ConfigKey.package.fromFlag) var package: URL?
    @Option(help: ConfigKey.shards.argument, transform: ConfigKey.shards.fromFlag) var shards: Int?
    @Option(help: ConfigKey.retries.argument, transform: ConfigKey.retries.fromFlag) var retries: Int?
    @Option(help: ConfigKey.testTimeout.argument, transform: ConfigKey.testTimeout.fromFlag) var testTimeout: Double?
    @Option(help: ConfigKey.reportDir.argument, transform: ConfigKey.reportDir.fromFlag) var reportDir: URL?
    @Option(help: ConfigKey.history.argument, transform: ConfigKey.history.fromFlag) var history: URL?
    @Option(help: ConfigKey.adaptiveConcurrency.argument, transform: ConfigKey.adaptiveConcurrency.fromFlag) var adaptiveConcurrency: Bool?
    @Option(help: ConfigKey.trace.argument, transform: ConfigKey.trace.fromFlag) var trace: TraceMode?
    @Option(help: ConfigKey.isolation.argument, transform: ConfigKey.isolation.fromFlag) var isolation: BrowserIsolation?
    @Option(help: ConfigKey.browsers.argument, transform: ConfigKey.browsers.fromFlag) var browsers: [BrowserTarget]?
    @Option(help: ConfigKey.updateSnapshots.argument, transform: ConfigKey.updateSnapshots.fromFlag) var updateSnapshots: SnapshotUpdate?
    @Option(help: ConfigKey.snapshotTolerance.argument, transform: ConfigKey.snapshotTolerance.fromFlag) var snapshotTolerance: Double?
    @Option(help: ConfigKey.networkIsolation.argument, transform: ConfigKey.networkIsolation.fromFlag) var networkIsolation: NetworkIsolation?
    @Flag(help: ConfigKey.skipBuild.argument) var skipBuild = false
    @Option(help: ConfigKey.filter.argument, transform: ConfigKey.filter.oneFromFlag) var filter: [String] = []
    @Option(help: ConfigKey.skip.argument, transform: ConfigKey.skip.oneFromFlag) var skip: [String] = []
    @Option(help: ConfigKey.tag.argument, transform: ConfigKey.tag.oneFromFlag) var tag: [String] = []
    @Flag(help: ConfigKey.failOnFlaky.argument) var failOnFlaky = false
    @Flag(help: ConfigKey.failOnNewFlaky.argument) var failOnNewFlaky = false
    @Flag(help: ConfigKey.allowLikelyFlaky.argument) var allowLikelyFlaky = false
    @Option(help: ConfigKey.maxFailures.argument, transform: ConfigKey.maxFailures.fromFlag) var maxFailures: Int?
    @Flag(help: ConfigKey.lastFailed.argument) var lastFailed = false
    @Flag(help: ConfigKey.lastFailedWithFlaky.argument) var lastFailedWithFlaky = false
    @Option(help: ConfigKey.repeatEach.argument, transform: ConfigKey.repeatEach.fromFlag) var repeatEach: Int?
    @Flag(help: ConfigKey.untilFailure.argument) var untilFailure = false
    @Option(help: ConfigKey.partition.argument, transform: ConfigKey.partition.fromFlag) var partition: PartitionRequest?
    @Option(help: ConfigKey.partitionCount.argument, transform: ConfigKey.partitionCount.fromFlag) var partitionCount: Int?
    @Option(help: ConfigKey.partitionTimings.argument, transform: ConfigKey.partitionTimings.fromFlag) var partitionTimings: URL?
    @Option(help: ConfigKey.reporter.argument, transform: ConfigKey.reporter.fromFlag) var reporter: CIReporter?
    @Option(help: ConfigKey.basePort.argument, transform: ConfigKey.basePort.fromFlag) var basePort: Int?
    @Option(help: ConfigKey.configuration.argument, transform: ConfigKey.configuration.fromFlag) var configuration: BuildConfiguration?
    @Option(help: ConfigKey.maxBatchSize.argument, transform: ConfigKey.maxBatchSize.fromFlag) var maxBatchSize: Int?
    @Option(help: ConfigKey.queue.argument, transform: ConfigKey.queue.fromFlag) var queue: QueueURL?
    @Option(help: ConfigKey.queueLeaseTimeout.argument, transform: ConfigKey.queueLeaseTimeout.fromFlag) var queueLeaseTimeout: Double?

    @Option(help: "YAML config file; default: robotci.yml in the current folder or the package, if present.",
            transform: { URL(fileURLWithPath: $0) })
    var config: URL?

    /// The flags given, each as its key's setting, in the order they are declared: every
    /// property above but `config` is the flag of the key its name spells.
    var flagSettings: [ConfigLoader.FlagSetting] {
        Mirror(reflecting: self).children.compactMap { child in
            guard let label = child.label, let flag = child.value as? GivenFlag, let value = flag.given,
                let key = ConfigKey.byName[Self.keyName(ofProperty: label)]
            else { return nil }
            return key.setting(value)
        }
    }

    /// ArgumentParser's long name for a property: `_testTimeout` → `test-timeout`.
    static func keyName(ofProperty label: String) -> String {
        var name = ""
        for character in label.drop(while: { $0 == "_" }) {
            if character.isUppercase { name += "-" + character.lowercased() } else { name.append(character) }
        }
        return name
    }

    /// The text layers in order: `robotci.yml`, then the `ROBOTCI_*` environment (the flags,
    /// already typed, come last: `flagSettings`).
    func layers(environment: [String: String]) throws -> [[String: (ConfigLoader.Value, String)]] {
        var layers: [[String: (ConfigLoader.Value, String)]] = []
        if let path = try configPath() { layers.append(try ConfigLoader.readYAML(at: path)) }
        layers.append(try ConfigLoader.readEnvironment(environment))
        return layers
    }

    /// The configuration after defaults < YAML < environment < these flags.
    func resolve(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> RunConfiguration {
        try Self.configuration(from: layers(environment: environment), flags: flagSettings)
    }

    /// Defaults with `layers` and then `flags` applied in order, then checked as a whole.
    static func configuration(from layers: [[String: (ConfigLoader.Value, String)]], flags: [ConfigLoader.FlagSetting]) throws
        -> RunConfiguration
    {
        var c = RunConfiguration(shards: ProcessInfo.processInfo.activeProcessorCount)
        try ConfigLoader.apply(layers, flags: flags, to: &c)
        try ConfigLoader.validate(c)
        return c
    }

    private func configPath() throws -> String? {
        if let config {
            guard FileManager.default.fileExists(atPath: config.path) else {
                throw ConfigError("config file '\(config.relativePath)' does not exist: fix the path given to --config")
            }
            return config.relativePath
        }
        for candidate in ["robotci.yml", package.map { $0.appendingPathComponent("robotci.yml").relativePath }].compactMap({ $0 })
            where FileManager.default.fileExists(atPath: candidate) {
            return candidate
        }
        return nil
    }
}

extension ConfigKey.Typed {
    /// The flag's help: the key's, with its config key and default.
    var argument: ArgumentHelp { ArgumentHelp(ConfigKey.help(name), valueName: flag.valueName) }
}

/// A parsed `@Option`/`@Flag` of `RunOptions`: its value when given, nil when not.
protocol GivenFlag {
    var given: Any? { get }
}

/// What an option holds: a value or nothing (`T?`), values or none (`[T]`).
protocol GivenValue {
    var given: Any? { get }
}

extension Optional: GivenValue {
    var given: Any? { self.map { $0 } }
}

extension Array: GivenValue {
    var given: Any? { isEmpty ? nil : self }
}

extension Option: GivenFlag where Value: GivenValue {
    var given: Any? { wrappedValue.given }
}

extension Flag: GivenFlag where Value == Bool {
    var given: Any? { wrappedValue ? true : nil }
}
