import ArgumentParser
import Foundation
import RobotCICore
import RobotCIRunner

/// Flags shared by `run` and `list`; each has a config key of the same name.
struct RunOptions: ParsableArguments {
    @Option(help: "Path of the SwiftPM package to test (config: package).")
    var package: String?

    @Option(help: "Worker slots running in parallel; default: number of cores (config: shards).")
    var shards: Int?

    @Option(help: "Extra attempts for a failing test; failed then passed = flaky (config: retries; default 2).")
    var retries: Int?

    @Option(name: .customLong("test-timeout"), help: "Seconds one test may run before it is killed (config: test-timeout; default 300).")
    var testTimeout: Double?

    @Option(name: .customLong("report-dir"), help: "Folder for junit.xml, results.json, timings.json, index.html (config: report-dir; default robotci-report).")
    var reportDir: String?

    @Flag(name: .customLong("skip-build"), help: "Use the last build instead of running 'swift build --build-tests' (config: skip-build).")
    var skipBuild = false

    @Option(help: "Run only tests whose id (Module.Class/test) matches this regex; repeatable (config: filter).")
    var filter: [String] = []

    @Option(help: "Leave out tests whose id matches this regex; repeatable (config: skip).")
    var skip: [String] = []

    @Flag(name: .customLong("fail-on-flaky"), help: "Exit 1 when a test is flaky (config: fail-on-flaky).")
    var failOnFlaky = false

    @Option(help: "Run the K-th of N shares of the suite, e.g. 2/4 (config: partition).")
    var partition: String?

    @Option(name: .customLong("partition-count"), help: "N for a Kubernetes Indexed Job, whose JOB_COMPLETION_INDEX gives K (config: partition-count).")
    var partitionCount: Int?

    @Option(help: "CI output: github, plain or auto (config: reporter).")
    var reporter: String?

    @Option(name: .customLong("base-port"), help: "Give slot i the ports base+2i (mock) and base+2i+1 (browser driver); default: ports picked by the OS (config: base-port).")
    var basePort: Int?

    @Option(help: "Build configuration, debug or release (config: configuration).")
    var configuration: String?

    @Option(name: .customLong("max-batch-size"), help: "Most tests in one worker process; 1 runs each test in its own process (config: max-batch-size).")
    var maxBatchSize: Int?

    @Option(help: "Lease batches from a queue shared by many machines, redis://HOST:PORT/NAME (config: queue).")
    var queue: String?

    @Option(name: .customLong("queue-lease-timeout"), help: "Seconds before a silent machine's batches run elsewhere (config: queue-lease-timeout; default 30).")
    var queueLeaseTimeout: Double?

    @Option(help: "YAML config file; default: robotci.yml in the current folder or the package, if present.")
    var config: String?

    /// The configuration after defaults < YAML < environment < these flags.
    func resolve(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> RunConfiguration {
        var c = RunConfiguration(shards: ProcessInfo.processInfo.activeProcessorCount)
        var layers: [[String: (ConfigLoader.Value, String)]] = []
        if let path = try configPath() { layers.append(try ConfigLoader.readYAML(at: path)) }
        layers.append(ConfigLoader.readEnvironment(environment))
        var flags: [String: (ConfigLoader.Value, String)] = [:]
        func put(_ key: String, _ v: String?) { if let v { flags[key] = (.scalar(v), "--\(key)") } }
        put("package", package)
        put("shards", shards.map(String.init))
        put("retries", retries.map(String.init))
        put("test-timeout", testTimeout.map { String($0) })
        put("report-dir", reportDir)
        if skipBuild { put("skip-build", "true") }
        if !filter.isEmpty { flags["filter"] = (.list(filter), "--filter") }
        if !skip.isEmpty { flags["skip"] = (.list(skip), "--skip") }
        if failOnFlaky { put("fail-on-flaky", "true") }
        put("partition", partition)
        put("partition-count", partitionCount.map(String.init))
        put("reporter", reporter)
        put("base-port", basePort.map(String.init))
        put("configuration", configuration)
        put("max-batch-size", maxBatchSize.map(String.init))
        put("queue", queue)
        put("queue-lease-timeout", queueLeaseTimeout.map { String($0) })
        layers.append(flags)
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

/// Runs `body`, turning robotci's errors into a message and exit code 2.
func exitOnError(_ body: () throws -> Int32) -> Never {
    do {
        let code = try body()
        exit(code)
    } catch let e as RunnerError {
        FileHandle.standardError.write(Data("robotci: error: \(e)\n".utf8))
        exit(e.exitCode)
    } catch let e as ConfigError {
        FileHandle.standardError.write(Data("robotci: error: \(e.message)\n".utf8))
        exit(2)
    } catch {
        FileHandle.standardError.write(Data("robotci: error: \(error)\n".utf8))
        exit(2)
    }
}
