import Foundation
import RobotCICore
import RobotCIQueue
import RobotCIReport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `robotci run` end to end: build, discover, plan, execute on shards, report.
public final class Runner {
    public static let version = "0.1.0"

    let config: RunConfiguration
    let commandLine: [String]
    let environment: [String: String]
    /// Masks secrets in everything robotci prints or writes: build and list output included.
    public let redactor: SecretRedactor
    private let stderr = FileHandle.standardError

    public init(config: RunConfiguration, commandLine: [String], environment: [String: String]) {
        self.config = config
        self.commandLine = commandLine
        self.environment = environment
        let queuePassword = config.queue.flatMap { try? QueueAddress(parsing: $0, environment: environment) }?.password
        redactor = SecretRedactor(environment: environment, also: [queuePassword].compactMap { $0 })
    }

    private func say(_ text: String) { stderr.write(Data((redactor.redact(text) + "\n").utf8)) }

    /// Installed before the first child is spawned (the build), so an interrupt at any
    /// point kills every process group robotci started.
    private var signals: SignalTrap?
    private let stopSwitch = StopSwitch()
    /// With `--partition`: the digest of what this machine's split was computed from.
    private var partitionPlan: String?
    /// The last runs' durations (`timings.json` in the report folder), read once: the
    /// partition split and the plan both use them.
    private lazy var previousTimings: Timings =
        ReportReader.timings(in: URL(fileURLWithPath: config.reportDir).standardizedFileURL) ?? Timings()

    private func trapSignals() {
        guard signals == nil else { return }
        let stopSwitch = self.stopSwitch
        signals = SignalTrap {
            RunInterruption.shared.interrupt()
            stopSwitch.stop()
            ChildRegistry.shared.killAll()
        }
    }

    /// Builds (unless skipped) and lists the selected tests, after --filter/--skip and partition.
    /// An interrupt meanwhile (the build is the long part) throws `RunnerError.interrupted`.
    public func discover() throws -> (bundle: TestBundleInfo, tests: [TestID], all: Int, partition: Partition?) {
        trapSignals()
        do {
            let found = try selectTests()
            if RunInterruption.shared.isInterrupted { throw RunnerError.interrupted }
            return found
        } catch {
            if RunInterruption.shared.isInterrupted { throw RunnerError.interrupted }
            throw error
        }
    }

    private func selectTests() throws -> (bundle: TestBundleInfo, tests: [TestID], all: Int, partition: Partition?) {
        let filters = try compile(config.filter, flag: "--filter")
        let skips = try compile(config.skip, flag: "--skip")
        let (driver, all) = try TestDrivers.discover(config: config, environment: environment) { [weak self] line in
            self?.say(line)
        }
        if all.isEmpty {
            throw RunnerError.noTests("'\(config.package)' has no tests: its test runner listed none; add tests (an XCTest or @Test in a test target), or check --package")
        }
        var tests = all.filter { id in
            (filters.isEmpty || filters.contains { $0.matches(id.rawValue) }) && !skips.contains { $0.matches(id.rawValue) }
        }
        if tests.isEmpty && !all.isEmpty && (!config.filter.isEmpty || !config.skip.isEmpty) {
            let given = config.filter.map { "--filter '\($0)'" } + config.skip.map { "--skip '\($0)'" }
            throw RunnerError.noTests("no test is left by \(given.joined(separator: " ")) among \(all.count) tests; check the regexes against 'robotci list' (ids look like '\(all[0].rawValue)')")
        }
        // With a queue every machine pulls from the whole suite: no static share.
        let partition = config.queue == nil ? try resolvedPartition() : nil
        if let partition {
            let timings = previousTimings
            partitionPlan = Partitioner.planDigest(of: tests, timings: timings, count: partition.count)
            tests = Partitioner.shares(of: tests, timings: timings, count: partition.count)[partition.index - 1]
        }
        return (TestBundleInfo(driver: driver), tests, all.count, partition)
    }

    /// `--partition`, else the CI system's parallel-job variables (announced).
    private func resolvedPartition() throws -> Partition? {
        if let p = config.partition { return p }
        guard let detected = try CIPartition.detect(environment, partitionCount: config.partitionCount) else { return nil }
        say("robotci: partition \(detected.partition) from \(detected.source)")
        if let statusFile = environment["TEST_SHARD_STATUS_FILE"], !statusFile.isEmpty {
            // Bazel asks test runners that understand sharding to touch this file.
            _ = FileManager.default.createFile(atPath: statusFile, contents: nil)
        }
        return detected.partition
    }

    /// Runs the suite and returns the process exit code.
    public func run() throws -> Int32 {
        ChildRegistry.becomeSubreaper()
        let quarantine = try compile(config.quarantine, flag: "quarantine")
        // Connect before the build: an unreachable queue fails at once (exit 2).
        let redis = try config.queue.map { url in
            try RedisQueue(address: QueueAddress(parsing: url, environment: environment), machine: Self.machineID(environment),
                           leaseTimeout: config.queueLeaseTimeout)
        }
        let (info, tests, total, partition) = try discover()
        let reportURL = URL(fileURLWithPath: config.reportDir).standardizedFileURL
        let layout = ReportLayout(directory: reportURL)
        let previous = previousTimings
        let (pastRuns, historyURL) = loadHistory(reportURL: reportURL)
        try layout.prepare()

        let clock = RunClock()
        let shards = max(1, min(config.shards, max(tests.count, 1)))
        var metadata = makeMetadata(clock: clock, shards: shards, partition: partition)
        let journal = try JournalWriter(url: layout.journal)
        journal.append(.run(metadata))

        let planStart = clock.now()
        let planned = Planner.order(tests, timings: previous)
        let partitionText = partition.map { " (partition \($0) of \(total) tests)" } ?? ""
        say("robotci: \(tests.count) tests\(partitionText) on \(shards) shards, retries \(config.retries), timeout \(Int(config.testTimeout)) s; report in \(config.reportDir)/")

        // The collaborators, each built whole: who records, who queues, who routes, who runs.
        let progress = Progress(total: tests.count, shards: shards, clock: clock, environment: environment)
        let isQuarantined: @Sendable (TestID) -> Bool = { id in quarantine.contains { $0.matches(id.rawValue) } }
        let recorder = RunRecorder(journal: journal, quarantine: isQuarantined, progress: progress, redactor: redactor)
        let driver = info.driver
        let (queue, shared) = try batchSource(planned: planned, tests: tests, shards: shards, driver: driver, redis: redis,
                                              metadata: metadata, quarantined: isQuarantined)
        let router = AttemptRouter(recorder: recorder, queue: queue, layout: layout)
        let planTime = clock.now() - planStart
        // One warm chromedriver per shard for suites that want one (RobotKit's browser).
        let browsers: ShardBrowsers? = driver.usesShardBrowser
            ? ShardBrowsers(root: layout.workDirectory.appendingPathComponent("browsers"), environment: environment) : nil
        // Tests have no use for the queue's login; what they are not given they cannot print.
        let testEnvironment = environment.filter { $0.key != QueueAddress.passwordVariable && $0.key != "ROBOTCI_QUEUE" }
        let executor = BatchExecutor(driver: driver, baseEnvironment: testEnvironment, testTimeout: config.testTimeout,
                                     runID: metadata.runID, layout: layout, clock: clock, router: router, history: previous,
                                     redactor: redactor, browsers: browsers)

        stopSwitch.attach(queue)
        ShardPool(shards: shards, queue: queue, executor: executor, router: router, progress: progress,
                  ports: PortAllocator(basePort: config.basePort), browsers: browsers).run()
        browsers?.shutDown()
        // No batch runs any more: whatever was re-parented to robotci (a daemon that cleared
        // its environment, a browser of a dead chromedriver) is a stray of this run.
        ChildRegistry.shared.reapStrays()
        progress.finish()
        signals?.cancel()
        try? FileManager.default.removeItem(at: layout.workDirectory)

        metadata.wallTime = clock.now()
        metadata.interrupted = RunInterruption.shared.isInterrupted
        journal.append(.finished(metadata))
        journal.close()
        shared?.close(metadata)
        let (records, batches) = recorder.snapshot()
        let result = RunResult(metadata: metadata, tests: records, batches: batches)
        let writeStart = clock.now()
        let history = pastRuns.recording(result)
        try ReportWriter.write(result, timings: previous.updated(with: records), history: history, historyURL: historyURL, to: reportURL)
        let writeTime = clock.now() - writeStart

        Summary(result: result, reportDir: config.reportDir, planTime: planTime, writeTime: writeTime, failOnFlaky: config.failOnFlaky).print(to: stderr)
        suggestQuarantine(history) { isQuarantined(TestID($0)) }
        if GitHubReporter.isWanted(reporter: config.reporter, environment: environment) {
            GitHubReporter.report(result, environment: environment)
        }
        return exitCode(result, shared: shared, redis: redis)
    }

    /// The local queue, or with `--queue` the shared one (joined: planned by the first machine).
    private func batchSource(planned: [PlannedTest], tests: [TestID], shards: Int, driver: any TestDriver, redis: RedisQueue?,
                             metadata: RunMetadata, quarantined: @escaping @Sendable (TestID) -> Bool) throws
        -> (source: BatchSource, shared: RedisBatchSource?)
    {
        let cutter = BatchCutter(maximumTests: config.maxBatchSize)
        guard let redis else {
            return (WorkQueue(planned: planned, shards: shards, maxRetries: config.retries, cutter: cutter,
                              group: { driver.batchGroup(of: $0) }), nil)
        }
        // The first machine plans for more shards than its own: others join and share the
        // tail, so the batches shrink as if two machines of this size pulled from it.
        let plan = WorkQueue(planned: planned, shards: shards * 2, maxRetries: config.retries, cutter: cutter,
                             group: { driver.batchGroup(of: $0) }).cutAll()
        let first = try redis.join(tests: tests, plan: plan.map { QueuedBatch(tests: $0, attempt: 1) })
        try redis.announce(metadata)
        say("robotci: queue \(redis.address) as \(redis.machine): " + (first ? "planned \(plan.count) batches" : "joined"))
        let source = RedisBatchSource(queue: redis, maxRetries: config.retries, quarantine: quarantined)
        source.startHeartbeat()
        return (source, source)
    }

    /// The runs robotci remembers (`history.json` in the report folder, or `--history`); a
    /// corrupt file is set aside with a warning and a new history starts.
    private func loadHistory(reportURL: URL) -> (RunHistory, URL?) {
        let historyURL = config.history.map { URL(fileURLWithPath: $0).standardizedFileURL }
        let (pastRuns, warning) = RunHistory.load(from: historyURL ?? reportURL.appendingPathComponent("history.json"))
        if let warning { say("robotci: warning: \(warning)") }
        return (pastRuns, historyURL)
    }

    /// Tests flaky in ≥ 20 % of ≥ 5 recent runs, with the `quarantine:` YAML to paste.
    private func suggestQuarantine(_ history: RunHistory, isQuarantined: (String) -> Bool) {
        let suggestions = history.quarantineSuggestions(excluding: isQuarantined)
        guard !suggestions.isEmpty else { return }
        var text = "robotci: \(suggestions.count) test\(suggestions.count == 1 ? "" : "s") flaky in ≥ 20% of ≥ 5 recent runs; consider quarantining:\n"
        for f in suggestions.prefix(20) { text += "  \(f.id): flaky in \(f.flaky) of \(f.runs) runs (\(Int((f.rate * 100).rounded()))%)\n" }
        text += "paste into robotci.yml:\n" + RunHistory.quarantineYAML(suggestions.prefix(20).map(\.id))
        stderr.write(Data(text.utf8))
    }

    /// 130 interrupted, 1 a test failed (or was flaky with fail-on-flaky), else 0. In queue
    /// mode the verdict is the whole run's; a lost queue is 2 (1 if a test failed here).
    private func exitCode(_ result: RunResult, shared: RedisBatchSource?, redis: RedisQueue?) -> Int32 {
        if result.metadata.interrupted { return 130 }
        var counts = result.counts
        if let shared, shared.lost == nil, let redis {
            // The queue is empty and nothing is leased: every machine's results are in Redis.
            // A test that failed here may have passed its retry elsewhere.
            do {
                let whole = try redis.snapshot().result(runName: redis.address.name, commandLine: commandLine)
                counts = whole.counts
                say("robotci: queue \(redis.address): \(counts.total) tests on \((whole.metadata.machines ?? []).count) machines, "
                    + "\(counts.passed) passed, \(counts.failing) failing, \(counts.flaky) flaky, \(counts.skipped) skipped "
                    + "(the whole run; `robotci report --queue \(redis.address) --output DIR` writes its report)")
            } catch {
                say("robotci: warning: cannot read the whole run from the queue (\(error)); the exit code is this machine's")
            }
        }
        if let lost = shared?.lost {
            // A lost queue never passes: other machines' share may not have run.
            say("robotci: error: the run is incomplete: \(lost.message). This machine's results are in \(config.reportDir)/ "
                + "(\(counts.total) tests); `robotci report --queue` once redis is back collects what the queue got")
            if shared?.leasedCount == 0 { return 2 }
            return counts.failing > 0 ? 1 : 2
        }
        if counts.failing > 0 { return 1 }
        if config.failOnFlaky && counts.flaky > 0 { return 1 }
        return 0
    }

    /// Who, where and what this run is: its id, the machine, the commit.
    private func makeMetadata(clock: RunClock, shards: Int, partition: Partition?) -> RunMetadata {
        RunMetadata(
            runID: environment[WorkerVariable.runID.name] ?? Self.makeRunID(), startedAt: clock.startedAt, wallTime: 0,
            shards: shards, retries: config.retries, robotciVersion: Self.version, commandLine: commandLine,
            gitCommit: git(["rev-parse", "HEAD"]), gitBranch: git(["rev-parse", "--abbrev-ref", "HEAD"]),
            hostname: ProcessInfo.processInfo.hostName, partition: partition?.description, partitionPlan: partitionPlan)
    }

    private func compile(_ patterns: [String], flag: String) throws -> [NSRegularExpression] {
        try patterns.map { p in
            do { return try NSRegularExpression(pattern: p) } catch { throw RunnerError.invalidRegex(flag, p) }
        }
    }

    private func git(_ args: [String]) -> String? {
        if let sha = environment["GITHUB_SHA"] ?? environment["CI_COMMIT_SHA"], args.last == "HEAD", args.count == 2 { return sha }
        guard let gitPath = which("git"),
              let (t, out) = try? runCaptured(gitPath, ["-C", config.package] + args, environment: environment),
              t == .exited(0) else { return nil }
        let value = out.trimmingCharacters(in: .whitespacesAndNewlines)
        return value.isEmpty || value.contains("\n") ? nil : value
    }

    /// This machine's id in a queue: `ROBOTCI_MACHINE`, else host name and pid.
    static func machineID(_ environment: [String: String]) -> String {
        if let m = environment["ROBOTCI_MACHINE"], !m.isEmpty { return m }
        return "\(ProcessInfo.processInfo.hostName)-\(getpid())"
    }

    static func makeRunID() -> String {
        let f = DateFormatter()
        f.dateFormat = "yyyyMMdd-HHmmss"
        f.timeZone = TimeZone(identifier: "UTC")
        return "\(f.string(from: Date()))-\(String(UInt32.random(in: 0...UInt32.max), radix: 16))"
    }
}

/// What discovery found: the suite's driver (public face of the internal `TestDriver`).
public struct TestBundleInfo: Sendable {
    let driver: any TestDriver
}

extension NSRegularExpression {
    func matches(_ s: String) -> Bool {
        firstMatch(in: s, range: NSRange(s.startIndex..., in: s)) != nil
    }
}
