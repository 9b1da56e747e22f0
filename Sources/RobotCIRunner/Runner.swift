import Foundation
import BrowserTools
import ProcessToolkit
import RobotCICore
import RobotCIQueue
import RobotCIReport
import StandardStreams
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
    private let stderr = StandardStream.error

    public init(config: RunConfiguration, commandLine: [String], environment: [String: String]) {
        self.config = config
        self.commandLine = commandLine
        self.environment = environment
        let queuePassword = config.queue.flatMap { try? QueueAddress(parsing: $0, environment: environment) }?.password
        redactor = SecretRedactor(environment: environment, also: [queuePassword].compactMap { $0 })
    }

    func say(_ text: String) { stderr.write(redactor.redact(text) + "\n") }

    /// Installed before the first child is spawned (the build), so an interrupt at any
    /// point kills every process group robotci started.
    var signals: SignalTrap?
    let stopSwitch = StopSwitch()
    /// Whether this run is stopping (a signal, `--max-failures`), and why.
    let interruption = RunInterruption()
    /// With `--last-failed`: the previous run's tests that did not pass (read before the
    /// report folder is touched).
    var lastFailed: LastFailed?

    /// With `--partition`: the whole suite, how it was split, and this machine's place.
    var partitionPlan: PartitionPlan?
    /// The last runs' durations (`timings.json` in the report folder), read once: they order
    /// this machine's tests (longest first), never the partition split (see `partitionSplit`).
    lazy var previousTimings: Timings =
        ReportReader.timings(in: URL(fileURLWithPath: config.reportDir).standardizedFileURL) ?? Timings()

    func trapSignals() {
        guard signals == nil else { return }
        let stopSwitch = self.stopSwitch
        let interruption = self.interruption
        signals = SignalTrap {
            interruption.interrupt()
            stopSwitch.stop()
            ChildRegistry.shared.killAll()
        }
    }

    /// Whether shards get network namespaces: `auto` falls back to the host's loopback with one
    /// warning, `on` stops the run (exit 2), both before the build.
    func networkIsolation() throws -> Bool {
        let wanted = config.effectiveNetworkIsolation
        guard wanted != .off else { return false }
        guard let unavailable = ShardNamespaces.check() else { return true }
        if wanted == .on { throw RunnerError.noNetworkNamespace(unavailable.description) }
        let webKit = config.browsers.contains(.webkit)
            ? " and WebKit's WebDriver server (which starts a browser for whoever connects)" : ""
        say("robotci: warning: network-isolation auto: no network namespace (\(unavailable)); the mock servers\(webKit) listen on the host's loopback, reachable by every local user: run one user per host (docs/security.md)")
        return false
    }

    /// `--browsers`: each engine robotci is to run is installed, or the run stops here (exit 2),
    /// before the build; the console says what runs where.
    func checkBrowsers() throws {
        guard !config.browsers.isEmpty else { return }
        if config.browsers.contains(.webkit) {
            do { _ = try WebKitDriver.locate(environment: environment) } catch { throw RunnerError.missingBrowser(error.description) }
        }
        say("robotci: --browsers \(config.browsers.map(\.description).joined(separator: ",")): every test runs on "
            + config.browsers.map { $0.idName.map { "\($0) (ids end in [\($0)])" } ?? "chromium (ids unchanged)" }.joined(separator: ", "))
    }

    /// Runs the suite and returns the process exit code: prepares (checks, build, discovery,
    /// the queue, the report folder), runs the batches on the shards, then writes the report.
    public func run() throws -> Int32 {
        switch try prepare() {
        case .done(let code):
            return code
        case .ready(let setup):
            return try report(execute(setup), setup)
        }
    }

    /// What `prepare` found: all that the batches and the report need before anything runs.
    struct RunSetup {
        var driver: any TestDriver
        var tests: [TestID]
        var total: Int
        var partition: Partition?
        var redis: RedisQueue?
        var joined: (join: QueueJoin, batches: Int)?
        var rules: TestRules
        var quarantine: QuarantinePolicy
        var isolated: Bool
        var reportURL: URL
        var layout: ReportLayout
        var previous: Timings
        var pastRuns: RunHistory
        var historyURL: URL?
    }

    enum Prepared {
        case ready(RunSetup)
        /// Nothing to run here (no test failed last time; the queue's run is over): the code.
        case done(Int32)
    }

    /// Everything before the first batch: the checks that fail fast (exit 2), the build and
    /// discovery, joining the queue, the history, and the report folder made ready.
    private func prepare() throws -> Prepared {
        ChildRegistry.becomeSubreaper()
        if !redactor.unmaskable.isEmpty {
            say("robotci: warning: \(redactor.unmaskable.joined(separator: ", ")) hold\(redactor.unmaskable.count == 1 ? "s" : "") a secret of 1 or 2 "
                + "characters, which robotci cannot mask without garbling every line: what a test prints of it reaches the report "
                + "(use a longer secret, or do not pass it to the tests)")
        }
        if config.lastFailed {
            guard let last = try loadLastFailed() else { return .done(0) }
            lastFailed = last
        }
        let quarantine = QuarantinePolicy(patterns: Array(zip(config.quarantine, try compile(config.quarantine, flag: "quarantine"))),
                                          entries: config.quarantineEntries, now: Date().timeIntervalSince1970)
        for line in quarantine.expiryLines { say(line) }
        let rules = try TestRules(config)
        try checkBrowsers()
        let isolated = try networkIsolation()
        // Connect before the build: an unreachable queue fails at once (exit 2).
        let redis = try config.queue.map { url in
            try RedisQueue(address: QueueAddress(parsing: url, environment: environment), machine: Self.machineID(environment),
                           leaseTimeout: config.queueLeaseTimeout)
        }
        let (info, tests, total, partition) = try discover()
        try quarantine.checkCap(config.quarantineCap, tests: tests)
        // Join before the report folder is touched: a queue whose run is over runs nothing here.
        var joined = try redis.map { try joinQueue($0, tests: tests, driver: info.driver) }
        if let redis, case .finished(let nonce, let at, let lost)? = joined?.join {
            guard !lost, let reopened = try reopenQueue(redis, nonce: nonce, at: at, shards: max(1, config.shards)) else {
                return .done(finishedQueue(redis, nonce: nonce, at: at, lost: lost))
            }
            joined = (.joined(nonce: nonce), reopened)
        }
        let reportURL = URL(fileURLWithPath: config.reportDir).standardizedFileURL
        let layout = ReportLayout(directory: reportURL)
        let previous = previousTimings
        let (pastRuns, historyURL) = loadHistory(reportURL: reportURL)
        try layout.prepare()
        // A test whose history says it takes 20 ms is hung long before --test-timeout.
        return .ready(RunSetup(driver: info.driver, tests: tests, total: total, partition: partition, redis: redis, joined: joined,
                               rules: rules.learningDeadlines(from: pastRuns.passingDurations(), browsers: pastRuns.browserPassingDurations()), quarantine: quarantine,
                               isolated: isolated, reportURL: reportURL, layout: layout, previous: previous, pastRuns: pastRuns,
                               historyURL: historyURL))
    }

    /// What the batches left: the run's metadata (its journal closed) and who recorded it.
    struct ExecutedRun {
        var metadata: RunMetadata
        var recorder: RunRecorder
        var shared: RedisBatchSource?
        var governor: ConcurrencyGovernor
        var isQuarantined: @Sendable (TestID) -> Bool
        var reportName: @Sendable (TestID) -> TestID
        var clock: RunClock
        var planTime: Double
    }

    /// Plans, builds the collaborators (who records, who queues, who routes, who runs), runs
    /// every batch on the shards and cleans up after them.
    private func execute(_ setup: RunSetup) throws -> ExecutedRun {
        let (tests, layout, redis) = (setup.tests, setup.layout, setup.redis)
        let clock = RunClock()
        let shards = max(1, min(config.shards, max(tests.count, 1)))
        var metadata = makeMetadata(clock: clock, shards: shards, partition: setup.partition)
        let journal = try JournalWriter(url: layout.journal)
        journal.append(.run(metadata))

        let planStart = clock.now()
        let planned = Planner.order(tests, timings: setup.previous)
        announce(setup, shards: shards)

        // A token in a test id (`test_api[ghp_…]`) is masked in every file and line that names it.
        let reportName = redactor.renaming(tests)
        let governor = ConcurrencyGovernor(shards: shards, enabled: config.adaptiveConcurrency, clock: clock,
                                           learned: setup.pastRuns.heldConcurrency(shards: shards))
        let atOnce = governor.shardsAtOnce(learned: setup.pastRuns.heldConcurrency(shards: shards, atLeastTests: (tests.count + 1) / 2))
        // No ETA in queue mode: this machine runs a share of the plan nobody knows in advance.
        let progress = Progress(total: tests.count, shards: shards, clock: clock, environment: environment, planned: redis != nil ? nil : (
            tests: planned.map { test in var named = test; named.id = reportName(test.id); return named },
            atOnce: governor.currentLimit))
        let quarantine = setup.quarantine
        let isQuarantined: @Sendable (TestID) -> Bool = { id in quarantine.isQuarantined(id) }
        // The tests this machine answers for. In queue mode the queue's plan is the whole
        // run's and this machine reports only what it ran; the whole-run verdict accounts.
        let plan = redis == nil ? RunPlan(tests: tests, partition: partitionPlan) : nil
        let recorder = RunRecorder(journal: journal, plan: plan, quarantine: isQuarantined, progress: progress, redactor: redactor,
                                   rename: reportName)
        let (queue, shared) = try batchSource(setup, planned: planned, shards: shards, metadata: metadata,
                                              quarantined: isQuarantined, cutFor: atOnce)
        let policy = AttemptRouter.Policy(rules: setup.rules, maxFailures: config.maxFailures, untilFailure: config.untilFailure)
        let router = AttemptRouter(recorder: recorder, queue: queue, layout: layout, policy: policy, interruption: interruption)
        // Another machine of the queue stopped the run (--max-failures): so does this one.
        shared?.onRemoteStop = { [weak router] reason in router?.stopRun(.described(reason)) }
        let planTime = clock.now() - planStart
        let context = RunContext(runID: metadata.runID, layout: layout, clock: clock, router: router, history: setup.previous,
                                 redactor: redactor)
        let executor = makeExecutor(setup, context: context)

        stopSwitch.attach(queue, interruption: interruption)
        ShardPool(shards: shards, queue: queue, executor: executor, router: router, progress: progress,
                  ports: PortAllocator(basePort: config.basePort), browsers: executor.resources.browsers, governor: governor).run()
        (metadata.concurrency, metadata.nextConcurrency) = governor.stop()
        executor.resources.shutDown()
        // No batch runs any more: whatever was re-parented to robotci (a daemon that cleared
        // its environment, a browser whose relay is gone) is a stray of this run.
        ChildRegistry.shared.reapStrays()
        progress.finish()
        signals?.cancel()
        try? FileManager.default.removeItem(at: layout.workDirectory)

        finish(&metadata, clock: clock, router: router)
        journal.append(.finished(metadata))
        journal.close()
        shared?.close(metadata)
        return ExecutedRun(metadata: metadata, recorder: recorder, shared: shared, governor: governor, isQuarantined: isQuarantined,
                           reportName: reportName, clock: clock, planTime: planTime)
    }

    /// The run's first line: how many tests, on how many shards, with which retries and timeout.
    private func announce(_ setup: RunSetup, shards: Int) {
        let partitionText = setup.partition.map { " (partition \($0) of \(setup.total) tests)" } ?? ""
        let rulesText = config.rules.isEmpty ? "" : " (\(config.rules.count) rule\(config.rules.count == 1 ? "" : "s") override per test: robotci config shows them)"
        say("robotci: \(setup.tests.count) tests\(partitionText) on \(shards) shards, retries \(config.retries), timeout \(Int(config.testTimeout)) s\(rulesText); report in \(config.reportDir)/")
    }

    /// The executor of the run's batches, with the shards' warm resources it wants: a browser
    /// per shard for suites that want one (RobotKit's), a WPEWebDriver per shard for WebKit's
    /// batches, a network namespace per shard with `network-isolation`.
    private func makeExecutor(_ setup: RunSetup, context: RunContext) -> BatchExecutor {
        let driver = setup.driver
        let browsers: ShardBrowsers? = driver.usesShardBrowser ? ShardBrowsers(environment: environment) : nil
        let namespaces = setup.isolated ? ShardNamespaces() : nil
        // Tests have no use for the queue's login; what they are not given they cannot print.
        var testEnvironment = environment.filter { $0.key != QueueAddress.passwordVariable && $0.key != "ROBOTCI_QUEUE" }
        testEnvironment[WorkerVariable.trace.name] = config.trace.rawValue
        testEnvironment[WorkerVariable.isolation.name] = config.isolation.rawValue
        testEnvironment[WorkerVariable.updateSnapshots.name] = config.updateSnapshots.rawValue
        testEnvironment[WorkerVariable.snapshotTolerance.name] = String(config.snapshotTolerance)
        testEnvironment[WorkerVariable.snapshotRecords.name] = context.layout.workDirectory.appendingPathComponent("snapshots-recorded").path
        // One warm WPEWebDriver per shard for WebKit's batches, in the shard's namespace.
        let webKit = config.browsers.contains(.webkit) && driver.usesShardBrowser ? ShardWebKit(environment: testEnvironment) : nil
        let resources = ShardResources(browsers: browsers, webKit: webKit, namespaces: namespaces,
                                       namespaceRequired: config.effectiveNetworkIsolation == .on)
        return BatchExecutor(driver: driver, context: context, baseEnvironment: testEnvironment, resources: resources,
                             browserTargets: config.browsers)
    }

    /// What only the run's end knows: its wall time, why it stopped, what it re-ran, its repetitions.
    private func finish(_ metadata: inout RunMetadata, clock: RunClock, router: AttemptRouter) {
        metadata.wallTime = clock.now()
        metadata.stop = interruption.stop
        metadata.interrupted = metadata.stop?.isSignal == true
        metadata.rerunOf = lastFailed?.runID
        metadata.repetitions = repetitionSummary(router: router)
    }

    /// The run's result from what was recorded, written (results.json, JUnit, the report,
    /// timings and history), summed up on the console; returns the exit code.
    private func report(_ run: ExecutedRun, _ setup: RunSetup) throws -> Int32 {
        let metadata = run.metadata
        let notRunReason = metadata.stop?.notRunReason
            ?? "robotci has no result for it: the batches it was in ended without one (see the batch logs)"
        var result = TraceRetention.apply(config.trace, to: run.recorder.result(metadata: metadata) { _ in notRunReason }, in: setup.reportURL)
        if let redis = setup.redis {
            // What this machine ran, as part of the whole queue run: a merge of the machines'
            // folders then accounts for every test of the run, and notices a folder left out.
            result.plan = RunPlan(tests: result.tests.map(\.id),
                                  queue: QueueRunPlan(name: redis.address.name, nonce: redis.nonce ?? "", suite: setup.tests))
        }
        result = result.renamingTests(run.reportName)
        // The ledger as it was before this run decides what its failures and flakes mean.
        let flakiness = RunFlakiness(before: setup.pastRuns.ledger ?? FlakeLedger(), policy: setup.quarantine)
        result = flakiness.annotated(result)
        let writeStart = run.clock.now()
        let history = setup.pastRuns.recording(result)
        let newFlaky = flakiness.newFlaky(runID: result.metadata.runID, after: history.ledger ?? FlakeLedger())
        try ReportWriter.write(result, timings: setup.previous.updated(with: result.tests), history: history, historyURL: setup.historyURL,
                               to: setup.reportURL)
        let writeTime = run.clock.now() - writeStart

        // What the ledger says comes first: the summary's verdict lines stay the last CI logs show.
        let releasable = flakiness.releasable(result.tests.map(\.id), after: config.quarantineReleaseAfter, in: history.ledger ?? FlakeLedger())
        for line in flakiness.lines(result: result, newFlaky: newFlaky, failOnNewFlaky: config.failOnNewFlaky,
                                    allowLikelyFlaky: config.allowLikelyFlaky, releasable: releasable,
                                    releaseAfter: config.quarantineReleaseAfter) {
            say(line)
        }
        Summary(result: result, reportDir: config.reportDir, planTime: run.planTime, writeTime: writeTime, failOnFlaky: config.failOnFlaky,
                queueShare: setup.redis != nil, adaptive: run.governor.enabled ? run.governor.decisions : nil,
                allowLikelyFlaky: config.allowLikelyFlaky, newFlaky: config.failOnNewFlaky ? newFlaky.count : 0).print(to: stderr)
        announce(result, history: history, isQuarantined: run.isQuarantined)
        let code = exitCode(result, shared: run.shared, redis: setup.redis)
        return code == 0 && config.failOnNewFlaky && !newFlaky.isEmpty ? 1 : code
    }

    /// What follows the summary: repetitions, a re-run's then → now, quarantine suggestions,
    /// the GitHub annotations.
    private func announce(_ result: RunResult, history: RunHistory, isQuarantined: (TestID) -> Bool) {
        if let repetitions = result.metadata.repetitions { say("robotci: \(repetitions)") }
        if let lastFailed {
            let lines = lastFailed.outcomes(in: result)
            say("robotci: a re-run of run \(lastFailed.runID)'s \(lines.count) tests that did not pass; what came of each (then → now):\n"
                + lines.prefix(50).joined(separator: "\n") + (lines.count > 50 ? "\n  … and \(lines.count - 50) more (results.json has all)" : ""))
        }
        suggestQuarantine(history) { isQuarantined(TestID($0)) }
        if GitHubReporter.isWanted(reporter: config.reporter, environment: environment) {
            GitHubReporter.report(result, environment: environment)
        }
    }

    /// With `--repeat-each`/`--until-failure`: how many repetitions ran (those with a result)
    /// and, with `--until-failure`, the one whose failure stopped new ones.
    private func repetitionSummary(router: AttemptRouter) -> RepetitionSummary? {
        guard config.repetitions > 1 else { return nil }
        return RepetitionSummary(count: config.repetitions, untilFailure: config.untilFailure, ran: router.recorder.highestRepetition,
                                 firstFailure: router.firstFailure)
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
        stderr.write(text)
    }

    /// 130 interrupted, 1 a test failed (or was flaky with fail-on-flaky), else 0. In queue
    /// mode the verdict is the whole run's, from the queue; a lost queue is always 2.
    private func exitCode(_ result: RunResult, shared: RedisBatchSource?, redis: RedisQueue?) -> Int32 {
        if result.metadata.interrupted { return 130 }
        if let shared, let redis { return queueExitCode(local: result, shared: shared, redis: redis) }
        return verdict(LikelyFlaky.counts(result, allowed: config.allowLikelyFlaky))
    }

    func verdict(_ counts: OutcomeCounts) -> Int32 {
        if counts.failing > 0 { return 1 }
        if config.failOnFlaky && counts.flaky > 0 { return 1 }
        return 0
    }

    /// `N never ran:` and the first 20 of them, each with its reason (nil when none).
    static func notRunLines(_ result: RunResult) -> String? {
        let notRun = result.tests.filter { $0.outcome == .notRun }
        guard !notRun.isEmpty else { return nil }
        let lines = ["robotci: \(notRun.count) of \(result.tests.count) planned tests never ran:"] + Summary.notRunListing(notRun)
        return lines.joined(separator: "\n")
    }

    /// Who, where and what this run is: its id, the machine, the commit.
    private func makeMetadata(clock: RunClock, shards: Int, partition: Partition?) -> RunMetadata {
        let (id, source) = runID(partitioned: partition != nil)
        var metadata = RunMetadata(
            runID: id, startedAt: clock.startedAt, wallTime: 0,
            shards: shards, retries: config.retries, robotciVersion: Self.version)
        metadata.runIDSource = source
        metadata.commandLine = commandLine
        metadata.gitCommit = git(["rev-parse", "HEAD"])
        metadata.gitBranch = git(["rev-parse", "--abbrev-ref", "HEAD"])
        metadata.hostname = ProcessInfo.processInfo.hostName
        metadata.partition = partition?.description
        metadata.partitionPlan = partitionPlan?.splitDigest
        metadata.gitTreeDirty = treeIsDirty() ? true : nil
        return metadata
    }

}
