import Foundation
import RobotCICore
import RobotCIReport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `robotci run` end to end: build, discover, plan, execute on worker slots, report.
public final class Runner {
    public static let version = "0.1.0"

    let config: RunConfiguration
    let commandLine: [String]
    let environment: [String: String]
    private let stderr = FileHandle.standardError

    public init(config: RunConfiguration, commandLine: [String], environment: [String: String]) {
        self.config = config
        self.commandLine = commandLine
        self.environment = environment
    }

    private func say(_ text: String) { stderr.write(Data((text + "\n").utf8)) }

    /// Installed before the first child is spawned (the build), so an interrupt at any
    /// point kills every process group robotci started.
    private var signals: SignalTrap?
    private let stopSwitch = StopSwitch()

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
        let partition = try resolvedPartition()
        if let partition {
            let timings = ReportReader.timings(in: URL(fileURLWithPath: config.reportDir)) ?? Timings()
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
        let (info, tests, total, partition) = try discover()
        let reportURL = URL(fileURLWithPath: config.reportDir).standardizedFileURL
        let layout = ReportLayout(directory: reportURL)
        let previous = ReportReader.timings(in: reportURL) ?? Timings()
        try layout.prepare()

        let clock = RunClock()
        let runID = environment["ROBOTCI_RUN_ID"] ?? Self.makeRunID()
        let shards = max(1, min(config.shards, max(tests.count, 1)))
        var metadata = RunMetadata(
            runID: runID, startedAt: clock.startedAt, wallTime: 0, shards: shards, retries: config.retries,
            robotciVersion: Self.version, commandLine: commandLine, gitCommit: git(["rev-parse", "HEAD"]),
            gitBranch: git(["rev-parse", "--abbrev-ref", "HEAD"]), hostname: ProcessInfo.processInfo.hostName,
            partition: partition?.description)
        let journal = try JournalWriter(url: layout.journal)
        journal.append(.run(metadata))

        let planStart = clock.now()
        let planned = Planner.order(tests, timings: previous)
        let partitionText = partition.map { " (partition \($0) of \(total) tests)" } ?? ""
        say("robotci: \(tests.count) tests\(partitionText) on \(shards) shards, retries \(config.retries), timeout \(Int(config.testTimeout)) s; report in \(config.reportDir)/")

        let redactor = SecretRedactor(environment: environment)
        let progress = Progress(total: tests.count, shards: shards, clock: clock, environment: environment)
        let recorder = RunRecorder(journal: journal, quarantine: { id in quarantine.contains { $0.matches(id.rawValue) } }, progress: progress,
                                   redactor: redactor)
        let driver = info.driver
        let queue = WorkQueue(planned: planned, slots: shards, maxRetries: config.retries,
                              cutter: BatchCutter(maximumTests: config.maxBatchSize), group: { driver.batchGroup(of: $0) })
        let router = AttemptRouter(recorder: recorder, queue: queue, layout: layout)
        let planTime = clock.now() - planStart
        let ports = PortAllocator(basePort: config.basePort)
        // One warm chromedriver per slot for XCTest / Swift Testing bundles (RobotKit's browser).
        let browsers: SlotBrowsers? = driver.usesSlotBrowser
            ? SlotBrowsers(root: layout.workDirectory.appendingPathComponent("browsers"), environment: environment) : nil
        let executor = BatchExecutor(driver: driver, baseEnvironment: environment, testTimeout: config.testTimeout,
                                     runID: runID, layout: layout, clock: clock, router: router, history: previous, redactor: redactor,
                                     browsers: browsers)

        stopSwitch.attach(queue)
        let group = DispatchGroup()
        for slot in 0..<shards {
            group.enter()
            let thread = Thread {
                defer { group.leave() }
                while let item = queue.next(worker: slot) {
                    let slotPorts = ports.ports(forSlot: slot, webDriverHeld: browsers?.heldPort(slot: slot) != nil)
                    progress.batchStarted(worker: slot)
                    let outcome = executor.run(item, worker: slot, ports: slotPorts)
                    progress.batchFinished(worker: slot)
                    router.batchFinished(item, slot: slot, outcome)
                }
            }
            thread.name = "robotci-slot-\(slot)"
            thread.stackSize = 1 << 20
            thread.start()
        }
        group.wait()
        browsers?.shutDown()
        progress.finish()
        signals?.cancel()
        try? FileManager.default.removeItem(at: layout.workDirectory)

        let interrupted = RunInterruption.shared.isInterrupted
        metadata.wallTime = clock.now()
        metadata.interrupted = interrupted
        journal.append(.finished(metadata))
        journal.close()
        let (records, batches) = recorder.snapshot()
        let result = RunResult(metadata: metadata, tests: records, batches: batches)
        let writeStart = clock.now()
        try ReportWriter.write(result, timings: previous.updated(with: records), to: reportURL)
        let writeTime = clock.now() - writeStart

        Summary(result: result, reportDir: config.reportDir, planTime: planTime, writeTime: writeTime, failOnFlaky: config.failOnFlaky).print(to: stderr)
        if GitHubReporter.isWanted(reporter: config.reporter, environment: environment) {
            GitHubReporter.report(result, environment: environment)
        }
        if interrupted { return 130 }
        let counts = result.counts
        if counts.failing > 0 { return 1 }
        if config.failOnFlaky && counts.flaky > 0 { return 1 }
        return 0
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

/// Lets the signal handler stop the work queue once there is one.
final class StopSwitch: @unchecked Sendable {
    private let lock = NSLock()
    private var queue: WorkQueue?

    func attach(_ queue: WorkQueue) {
        lock.withLock { self.queue = queue }
        if RunInterruption.shared.isInterrupted { queue.stop() }
    }

    func stop() { lock.withLock { queue }?.stop() }
}

/// Turns SIGINT/SIGTERM into a callback (the default action would leave children behind).
final class SignalTrap {
    private var sources: [DispatchSourceSignal] = []

    init(_ handler: @escaping @Sendable () -> Void) {
        for sig in [SIGINT, SIGTERM] {
            signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            source.setEventHandler {
                FileHandle.standardError.write(Data("\nrobotci: interrupted; stopping workers and writing a partial report…\n".utf8))
                handler()
            }
            source.resume()
            sources.append(source)
        }
    }

    func cancel() {
        for s in sources { s.cancel() }
        sources.removeAll()
    }
}
