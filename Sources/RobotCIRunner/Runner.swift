import Foundation
import ProcessToolkit
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
    /// With `--last-failed`: the previous run's tests that did not pass (read before the
    /// report folder is touched).
    private var lastFailed: LastFailed?

    /// With `--partition`: the whole suite, how it was split, and this machine's place.
    private var partitionPlan: PartitionPlan?
    /// The last runs' durations (`timings.json` in the report folder), read once: they order
    /// this machine's tests (longest first), never the partition split (see `partitionSplit`).
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
        if !config.tags.isEmpty {
            let tags = try driver.tags()
            let wanted = Set(config.tags)
            tests = tests.filter { !(tags[$0] ?? []).isDisjoint(with: wanted) }
            let known = Set(tags.values.joined()).sorted()
            say("robotci: --tag \(config.tags.joined(separator: ", ")): \(tests.count) Swift Testing test\(tests.count == 1 ? "" : "s") "
                + "(tags in this suite: \(known.isEmpty ? "none" : known.joined(separator: ", ")))")
        }
        if tests.isEmpty && !all.isEmpty && (!config.filter.isEmpty || !config.skip.isEmpty || !config.tags.isEmpty) {
            let given = config.filter.map { "--filter '\($0)'" } + config.skip.map { "--skip '\($0)'" } + config.tags.map { "--tag '\($0)'" }
            throw RunnerError.noTests("no test is left by \(given.joined(separator: " ")) among \(all.count) tests; check the regexes against 'robotci list' (ids look like '\(all[0].rawValue)')"
                + (config.tags.isEmpty ? "" : " and the tags (only Swift Testing tests have tags, e.g. @Test(.tags(.smoke)))"))
        }
        if let lastFailed {
            let again = lastFailed.select(tests)
            let gone = lastFailed.previous.count - again.count
            say("robotci: --last-failed: \(again.count) of the \(lastFailed.previous.count) tests that did not pass in run \(lastFailed.runID) "
                + "(\(lastFailed.source))" + (gone > 0 ? "; \(gone) of them no longer exist or are filtered out" : ""))
            tests = again
        }
        if config.repetitions > 1 {
            // Each repetition is a test of the run (planned, retried, reported on its own);
            // before the partition split, so repetitions spread over machines too.
            say("robotci: " + (config.untilFailure
                ? "--until-failure: \(tests.count) tests, up to \(config.repetitions) repetitions, until one fails for good"
                    + (config.retries > 0 ? " (retries apply to each repetition: one that passes on a retry is flaky and does not stop the run; --retries 0 stops at the first failing run)" : "")
                : "--repeat-each \(config.repetitions): \(tests.count) tests × \(config.repetitions) = \(tests.count * config.repetitions) test runs, each repetition its own test with its own retries"))
            tests = TestID.repeating(tests, count: config.repetitions)
        }
        // With a queue every machine pulls from the whole suite: no static share.
        let partition = config.queue == nil ? try resolvedPartition() : nil
        if let partition {
            // The split uses only what every machine shares: the selected tests, N, and an
            // explicit --partition-timings file. This machine's own timings.json only orders
            // its share (Planner), never decides it.
            let (share, plan) = Partitioner.plan(suite: tests, index: partition.index, count: partition.count,
                                                 split: try partitionSplit())
            partitionPlan = plan
            tests = share
            say("robotci: partition \(partition): \(share.count) of \(plan.suite.count) tests, \(plan.split)")
        }
        return (TestBundleInfo(driver: driver), tests, all.count, partition)
    }

    /// How partitions cut the suite: `--partition-timings FILE` (the same file on every
    /// machine), else an even split. A missing or unreadable file is an error, not a silent
    /// fall-back: one machine splitting evenly while the others split by time would leave
    /// tests on no machine.
    private func partitionSplit() throws -> Partitioner.Split {
        guard let path = config.partitionTimings else { return .even }
        let url = URL(fileURLWithPath: path)
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw ConfigError("--partition-timings \(path): cannot read it (\((error as NSError).localizedDescription)); "
                + "every partition must read the same timings.json: hand it to every job, or drop the flag for an even split")
        }
        do {
            return .timings(try JSONDecoder().decode(Timings.self, from: data), source: path)
        } catch {
            throw ConfigError("--partition-timings \(path): not a robotci timings.json (\(error)); "
                + "pass the timings.json a robotci report or `robotci merge` wrote, or drop the flag for an even split")
        }
    }

    /// This run's id, and where it came from. A partition takes the CI's run id (shared by
    /// every job of the pipeline), so `robotci merge` can tell this run's results from an
    /// earlier run's left in a reused folder; without one it warns, since merge will refuse
    /// partitions whose made-up ids differ.
    private func runID(partitioned: Bool) -> (id: String, source: String?) {
        if let explicit = environment[WorkerVariable.runID.name], !explicit.isEmpty { return (explicit, WorkerVariable.runID.name) }
        guard partitioned else { return (Self.makeRunID(), nil) }
        if let detected = CIRunID.detect(environment) { return (detected.id, detected.source) }
        let id = Self.makeRunID()
        say("robotci: warning: this partition has no run id from the CI (none of \(CIRunID.variables) is set), so it uses "
            + "'\(id)'; `robotci merge` refuses partitions whose run ids differ (that is how it tells this run's results from "
            + "an earlier run's): set ROBOTCI_RUN_ID to the same value on every machine of the run")
        return (id, nil)
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
        if config.lastFailed {
            guard let last = try loadLastFailed() else { return 0 }
            lastFailed = last
        }
        let quarantine = try compile(config.quarantine, flag: "quarantine")
        let rules = try TestRules(config)
        // Connect before the build: an unreachable queue fails at once (exit 2).
        let redis = try config.queue.map { url in
            try RedisQueue(address: QueueAddress(parsing: url, environment: environment), machine: Self.machineID(environment),
                           leaseTimeout: config.queueLeaseTimeout)
        }
        let (info, tests, total, partition) = try discover()
        // Join before the report folder is touched: a queue whose run is over runs nothing here.
        var joined = try redis.map { try joinQueue($0, tests: tests, driver: info.driver) }
        if let redis, case .finished(let nonce, let at, let lost)? = joined?.join {
            guard !lost, let reopened = try reopenQueue(redis, nonce: nonce, at: at, shards: max(1, config.shards)) else {
                return finishedQueue(redis, nonce: nonce, at: at, lost: lost)
            }
            joined = (.joined(nonce: nonce), reopened)
        }
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
        let rulesText = config.rules.isEmpty ? "" : " (\(config.rules.count) rule\(config.rules.count == 1 ? "" : "s") override per test: robotci config shows them)"
        say("robotci: \(tests.count) tests\(partitionText) on \(shards) shards, retries \(config.retries), timeout \(Int(config.testTimeout)) s\(rulesText); report in \(config.reportDir)/")

        // The collaborators, each built whole: who records, who queues, who routes, who runs.
        let progress = Progress(total: tests.count, shards: shards, clock: clock, environment: environment)
        let isQuarantined: @Sendable (TestID) -> Bool = { id in quarantine.contains { $0.matches(id.base.rawValue) } }
        // The tests this machine answers for. In queue mode the queue's plan is the whole
        // run's and this machine reports only what it ran; the whole-run verdict accounts.
        let plan = redis == nil ? RunPlan(tests: tests, partition: partitionPlan) : nil
        let recorder = RunRecorder(journal: journal, plan: plan, quarantine: isQuarantined, progress: progress, redactor: redactor)
        let driver = info.driver
        let (queue, shared) = try batchSource(planned: planned, tests: tests, shards: shards, driver: driver, redis: redis,
                                              joined: joined, metadata: metadata, quarantined: isQuarantined, rules: rules)
        let router = AttemptRouter(recorder: recorder, queue: queue, layout: layout, maxFailures: config.maxFailures,
                                   rules: rules, untilFailure: config.untilFailure)
        // Another machine of the queue stopped the run (--max-failures): so does this one.
        shared?.onRemoteStop = { [weak router] reason in router?.stopRun(reason) }
        let planTime = clock.now() - planStart
        // One warm chromedriver per shard for suites that want one (RobotKit's browser).
        let browsers: ShardBrowsers? = driver.usesShardBrowser
            ? ShardBrowsers(root: layout.workDirectory.appendingPathComponent("browsers"), environment: environment) : nil
        // Tests have no use for the queue's login; what they are not given they cannot print.
        let testEnvironment = environment.filter { $0.key != QueueAddress.passwordVariable && $0.key != "ROBOTCI_QUEUE" }
        let executor = BatchExecutor(driver: driver, baseEnvironment: testEnvironment,
                                     runID: metadata.runID, layout: layout, clock: clock, router: router, history: previous,
                                     redactor: redactor, browsers: browsers)

        stopSwitch.attach(queue)
        let governor = ConcurrencyGovernor(shards: shards, enabled: config.adaptiveConcurrency, clock: clock)
        ShardPool(shards: shards, queue: queue, executor: executor, router: router, progress: progress,
                  ports: PortAllocator(basePort: config.basePort), browsers: browsers, governor: governor).run()
        metadata.concurrency = governor.stop()
        browsers?.shutDown()
        // No batch runs any more: whatever was re-parented to robotci (a daemon that cleared
        // its environment, a browser of a dead chromedriver) is a stray of this run.
        ChildRegistry.shared.reapStrays()
        progress.finish()
        signals?.cancel()
        try? FileManager.default.removeItem(at: layout.workDirectory)

        metadata.wallTime = clock.now()
        metadata.interrupted = RunInterruption.shared.bySignal
        metadata.stoppedEarly = RunInterruption.shared.earlyStop
        metadata.rerunOf = lastFailed?.runID
        metadata.repetitions = repetitionSummary(router: router)
        journal.append(.finished(metadata))
        journal.close()
        shared?.close(metadata)
        let notRunReason = metadata.interrupted
            ? "the run was interrupted (SIGINT/SIGTERM) before this test had a result"
            : metadata.stoppedEarly ?? "robotci has no result for it: the batches it was in ended without one (see the batch logs)"
        let result = recorder.result(metadata: metadata) { _ in notRunReason }
        let writeStart = clock.now()
        let history = pastRuns.recording(result)
        try ReportWriter.write(result, timings: previous.updated(with: result.tests), history: history, historyURL: historyURL, to: reportURL)
        let writeTime = clock.now() - writeStart

        Summary(result: result, reportDir: config.reportDir, planTime: planTime, writeTime: writeTime, failOnFlaky: config.failOnFlaky,
                queueShare: redis != nil, adaptive: governor.enabled ? governor.signal : nil).print(to: stderr)
        announce(result, history: history, isQuarantined: isQuarantined)
        return exitCode(result, shared: shared, redis: redis)
    }

    /// `--last-failed`: the previous run's tests that did not pass; nil (said so) when all passed.
    private func loadLastFailed() throws -> LastFailed? {
        let reportURL = URL(fileURLWithPath: config.reportDir).standardizedFileURL
        let last = try LastFailed.load(reportDir: reportURL, history: config.history.map { URL(fileURLWithPath: $0).standardizedFileURL },
                                       withFlaky: config.lastFailedWithFlaky)
        guard !last.previous.isEmpty else {
            say("robotci: --last-failed: every test of run \(last.runID) passed (\(last.source)); nothing to run again")
            say("robotci: 0 planned, 0 accounted for")
            return nil
        }
        return last
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

    /// Joins the queue: the first machine plans the run (its batches cut as if twice this
    /// machine's shards pulled, so they shrink towards the end as others share the tail).
    private func joinQueue(_ redis: RedisQueue, tests: [TestID], driver: any TestDriver) throws -> (join: QueueJoin, batches: Int) {
        let shards = max(1, min(config.shards, max(tests.count, 1)))
        let cutter = BatchCutter(maximumTests: config.maxBatchSize)
        let plan = WorkQueue(planned: Planner.order(tests, timings: previousTimings), shards: shards * 2, maxRetries: config.retries,
                             cutter: cutter, group: { driver.batchGroup(of: $0.base) }).cutAll()
        return (try redis.join(tests: tests, plan: plan.map { QueuedBatch(tests: $0, attempt: 1) }), plan.count)
    }

    /// The local queue, or with `--queue` the shared one (already joined).
    private func batchSource(planned: [PlannedTest], tests: [TestID], shards: Int, driver: any TestDriver, redis: RedisQueue?,
                             joined: (join: QueueJoin, batches: Int)?, metadata: RunMetadata,
                             quarantined: @escaping @Sendable (TestID) -> Bool, rules: TestRules) throws
        -> (source: BatchSource, shared: RedisBatchSource?)
    {
        guard let redis, let joined else {
            return (WorkQueue(planned: planned, shards: shards, rules: rules, cutter: BatchCutter(maximumTests: config.maxBatchSize),
                              group: { driver.batchGroup(of: $0.base) }), nil)
        }
        try redis.announce(metadata)
        let what: String
        if case .planned = joined.join { what = "planned \(joined.batches) batches" } else { what = "joined" }
        say("robotci: queue \(redis.address) as \(redis.machine): \(what) (run \(joined.join.nonce))")
        let source = RedisBatchSource(queue: redis, rules: rules, discovered: tests, quarantine: quarantined)
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
    /// mode the verdict is the whole run's, from the queue; a lost queue is always 2.
    private func exitCode(_ result: RunResult, shared: RedisBatchSource?, redis: RedisQueue?) -> Int32 {
        if result.metadata.interrupted { return 130 }
        if let shared, let redis { return queueExitCode(local: result, shared: shared, redis: redis) }
        return verdict(result.counts)
    }

    private func verdict(_ counts: OutcomeCounts) -> Int32 {
        if counts.failing > 0 { return 1 }
        if config.failOnFlaky && counts.flaky > 0 { return 1 }
        return 0
    }

    /// The whole run's verdict, assembled from what the queue holds against its plan: a test
    /// without a result there is `notRun` and fails the run. Never this machine's own
    /// verdict: it ran only a share, and the rest may have run nowhere.
    private func queueExitCode(local: RunResult, shared: RedisBatchSource, redis: RedisQueue) -> Int32 {
        if shared.lost == nil {
            // The queue is empty and nothing is leased: every machine's results are in Redis.
            // A test that failed here may have passed its retry elsewhere.
            do {
                let snapshot = try redis.snapshot(nonce: redis.nonce)
                if snapshot.lost {
                    throw QueueLost(.marked, "lost the queue \(redis.address): another machine found this run lost mid-run (its keys vanished or were evicted)")
                }
                let whole = snapshot.result(runName: redis.address.name, commandLine: commandLine)
                describe(whole, of: redis)
                let code = verdict(whole.counts)
                say("robotci: queue verdict (the whole run): " + (code == 0 ? "PASSED" : "FAILED")
                    + " (`robotci report --queue \(redis.address) --output DIR` writes its report)")
                return code
            } catch {
                shared.markLost(error)
            }
        }
        guard let lost = shared.lost else { return 2 }
        // Put this machine's results back when Redis lost the run's keys, so the queue (and
        // `robotci report --queue`) knows what ran on the machines that came back.
        if lost.canSalvage {
            do {
                say("robotci: queue \(redis.address): " + (try redis.salvage(tests: Array(shared.discovered), result: local, metadata: local.metadata)))
            } catch {
                say("robotci: queue \(redis.address): cannot put this machine's results back (\(error))")
            }
        }
        // What is known now: the queue's view of this run if it still has one, else this
        // machine's own results against the whole plan (every machine has the same tests).
        var whole: RunResult
        if let snapshot = try? redis.snapshot(nonce: redis.nonce) {
            whole = snapshot.result(runName: redis.address.name, commandLine: commandLine)
        } else {
            var assembly = RunAssembly(plan: RunPlan(tests: Array(shared.discovered)))
            for t in local.tests { for a in t.attempts { assembly.add(t.id, quarantined: t.quarantined, attempt: a) } }
            whole = assembly.result(metadata: local.metadata) { _ in
                "the queue was lost before this machine saw a result for it (it may have run on another machine; the queue held that result)"
            }
        }
        say("robotci: error: the run is incomplete: \(lost.message)")
        describe(whole, of: redis)
        say("robotci: queue verdict (the whole run): FAILED (lost queue, exit 2). This machine's results are in \(config.reportDir)/ "
            + "(\(local.counts.total) tests); `robotci report --queue \(redis.address) --output DIR` collects what the queue has")
        return 2
    }

    /// The whole run, as the queue has it: counts, the accounting line, what never ran.
    private func describe(_ whole: RunResult, of redis: RedisQueue) {
        let c = whole.counts
        say("robotci: queue \(redis.address): \(c.total) tests on \((whole.metadata.machines ?? []).count) machines, "
            + "\(c.passed) passed, \(c.failing) failing, \(c.flaky) flaky, \(c.skipped) skipped, \(c.notRun) not run (the whole run)")
        say("robotci: queue: \(whole.accounting)")
        if let lines = Self.notRunLines(whole) { say(lines) }
        if let refused = whole.refused, !refused.isEmpty {
            say("robotci: warning: the queue holds results for \(refused.count) test\(refused.count == 1 ? "" : "s") outside its plan, refused: "
                + refused.prefix(20).map(\.rawValue).joined(separator: ", ") + (refused.count > 20 ? ", …" : ""))
        }
    }

    /// `N never ran:` and the first 20 of them, each with its reason (nil when none).
    static func notRunLines(_ result: RunResult) -> String? {
        let notRun = result.tests.filter { $0.outcome == .notRun }
        guard !notRun.isEmpty else { return nil }
        let lines = ["robotci: \(notRun.count) of \(result.tests.count) planned tests never ran:"] + Summary.notRunListing(notRun)
        return lines.joined(separator: "\n")
    }

    /// CI re-ran a job of a queue run that is over (the queue name is the same): the run's
    /// tests that did not pass run again, in the same run at their next attempt numbers, so
    /// the queue's report shows both. Returns the number of batches queued (by this machine
    /// or another that re-opened first), nil when nothing needs to run again.
    private func reopenQueue(_ redis: RedisQueue, nonce: String, at: Date, shards: Int) throws -> Int? {
        let whole = try redis.snapshot(nonce: nonce).result(runName: redis.address.name, commandLine: commandLine)
        let again = whole.tests.filter { $0.outcome.failsBuild }
        guard !again.isEmpty else { return nil }
        // Each test at its next attempt number; tests of one attempt number (and one
        // repetition: a process runs an id once) share batches.
        struct Group: Hashable, Comparable {
            var attempt: Int
            var repetition: Int
            static func < (a: Group, b: Group) -> Bool { (a.attempt, a.repetition) < (b.attempt, b.repetition) }
        }
        let byAttempt = Dictionary(grouping: again) {
            Group(attempt: ($0.attempts.map(\.number).max() ?? 0) + 1, repetition: $0.id.repetition?.index ?? 0)
        }
        let size = max(1, min(config.maxBatchSize, (again.count + shards * 2 - 1) / (shards * 2)))
        var batches: [QueuedBatch] = []
        for group in byAttempt.keys.sorted() {
            let attempt = group.attempt
            let ids = (byAttempt[group] ?? []).map(\.id)
            for start in stride(from: 0, to: ids.count, by: size) {
                batches.append(QueuedBatch(tests: Array(ids[start..<min(ids.count, start + size)]), attempt: attempt))
            }
        }
        let first = try redis.reopen(batches)
        say("robotci: the queue \(redis.address.name) finished earlier (run \(nonce), at \(ISO8601DateFormatter().string(from: at))) with "
            + "\(again.count) test\(again.count == 1 ? "" : "s") that did not pass; " + (first ? "re-opened it: " : "another machine re-opened it: ")
            + "they run again in the same run (new attempts), the rest keep their verdicts")
        return batches.count
    }

    /// `--queue` found its run already over with nothing to re-run (or lost): say so plainly
    /// and exit with that run's verdict, never repeating it silently.
    private func finishedQueue(_ redis: RedisQueue, nonce: String, at: Date, lost: Bool) -> Int32 {
        let when = ISO8601DateFormatter().string(from: at)
        let advice = "use a new queue name per CI attempt (e.g. include the CI attempt number: GITHUB_RUN_ATTEMPT, CI_PIPELINE_ID) to run again"
        let whole: RunResult
        do {
            whole = try redis.snapshot(nonce: nonce).result(runName: redis.address.name, commandLine: commandLine)
        } catch {
            say("robotci: error: the queue \(redis.address) already finished (run \(nonce), at \(when)) and its results cannot be read (\(error)); this machine ran nothing; \(advice)")
            return 2
        }
        let c = whole.counts
        let code: Int32 = lost ? 2 : verdict(c)
        let verdictText = (code == 0 ? "PASSED" : "FAILED") + (lost ? " (the run was lost mid-run)" : "")
        say("robotci: the queue \(redis.address.name) already \(lost ? "ended lost" : "finished") (run \(nonce), at \(when)); this machine ran nothing; "
            + "its verdict: \(verdictText): \(c.passed) passed, \(c.failing) failing, \(c.flaky) flaky, \(c.notRun) not run; "
            + "\(whole.accounting); \(advice)")
        if let lines = Self.notRunLines(whole) { say(lines) }
        return code
    }

    /// Who, where and what this run is: its id, the machine, the commit.
    private func makeMetadata(clock: RunClock, shards: Int, partition: Partition?) -> RunMetadata {
        let (id, source) = runID(partitioned: partition != nil)
        return RunMetadata(
            runID: id, startedAt: clock.startedAt, wallTime: 0,
            shards: shards, retries: config.retries, robotciVersion: Self.version, commandLine: commandLine,
            gitCommit: git(["rev-parse", "HEAD"]), gitBranch: git(["rev-parse", "--abbrev-ref", "HEAD"]),
            hostname: ProcessInfo.processInfo.hostName, partition: partition?.description, partitionPlan: partitionPlan?.splitDigest,
            runIDSource: source)
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
    public static func machineID(_ environment: [String: String]) -> String {
        if let m = environment["ROBOTCI_MACHINE"], !m.isEmpty { return m }
        return "\(ProcessInfo.processInfo.hostName)-\(getpid())"
    }

    public static func makeRunID() -> String {
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
