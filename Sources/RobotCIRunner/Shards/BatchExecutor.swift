import Foundation
import ProcessToolkit
import RobotCICore

/// Runs one batch on one shard: prepares what every driver shares (the worker
/// environment, the artifacts folder, the batch log, the shard's warm browser channel) and hands
/// the batch to the suite's `TestDriver`.
final class BatchExecutor: Sendable {
    let driver: any TestDriver
    let context: RunContext
    let baseEnvironment: [String: String]
    let resources: ShardResources
    /// `--browsers`: the engines the plan's ids name (empty: the default engine, as the test
    /// process picks it).
    let browserTargets: [BrowserTarget]

    init(driver: any TestDriver, context: RunContext, baseEnvironment: [String: String],
         resources: ShardResources = ShardResources(), browserTargets: [BrowserTarget] = []) {
        self.driver = driver
        self.context = context
        self.baseEnvironment = baseEnvironment
        self.resources = resources
        self.browserTargets = browserTargets
    }

    func run(_ item: WorkItem, shard: Int, ports: PortAllocator.ShardPorts) -> BatchOutcome {
        let (runnable, later) = Self.split(item)
        let start = context.clock.now()
        let layout = context.layout
        let artifactsDir = layout.workDirectory.appendingPathComponent("batch-\(item.id)")
        try? FileManager.default.createDirectory(at: artifactsDir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: artifactsDir) }
        let logPath = layout.batchLogPath(item.id)
        let log = BatchLog(path: layout.directory.appendingPathComponent(logPath).path, redactor: context.redactor)
        defer { log.close() }

        var env = environment(for: runnable, shard: shard, ports: ports, artifactsDirectory: artifactsDir)
        let target = BrowserTarget.target(named: runnable.tests.first?.browser, in: browserTargets)
        if let target { Self.select(target, in: &env) }
        // A WebDriver endpoint robotci does not start is outside any namespace of the shard's.
        let namespace = target?.idName == "webdriver" ? nil : resources.namespaces?.ensure(shard: shard)
        if namespace?.isNew == true { resources.replaceBrowsers(shard: shard) }
        attachBrowser(for: target, shard: shard, ports: ports, networkNamespace: namespace?.namespace, in: &env)
        let batch = BatchRun(item: runnable, slot: BatchRun.Slot(shard: shard, ports: ports, networkNamespace: namespace?.namespace),
                             environment: env,
                             files: BatchRun.Files(artifactsDirectory: artifactsDir, logPath: logPath, log: log),
                             start: start, context: context)
        var outcome: BatchOutcome
        if resources.namespaces != nil, namespace == nil, resources.namespaceRequired, target?.idName != "webdriver" {
            log.write("robotci: network-isolation is on and this shard has no network namespace; the batch did not start")
            outcome = batch.spawnFailed()
        } else {
            outcome = driver.run(batch)
        }
        // Back to the run's ids (the driver ran repetitions under their tests' ids).
        outcome.unstarted = outcome.unstarted.map(batch.plannedID) + later
        outcome.isolate = outcome.isolate.map(batch.plannedID)
        if let ended = batch.ended {
            var signaled = false
            if case .signaled = ended.end { signaled = true }
            if ended.timedOut || signaled { resources.replaceBrowsers(shard: shard) }
        }
        return outcome
    }

    /// The part of `item` one process can run, and the tests that wait for another batch. A
    /// process knows a test by its own name only: a second repetition of a test in the same
    /// batch (the queue never cuts one, but a queue's batch is data) waits. A process runs one
    /// engine (its environment picks it): another browser's tests wait too.
    static func split(_ item: WorkItem) -> (runnable: WorkItem, later: [TestID]) {
        var runnable: [TestID] = [], later: [TestID] = [], seen = Set<String>()
        let browser = item.tests.first?.browser
        for test in item.tests {
            if test.browser == browser && seen.insert(test.test).inserted { runnable.append(test) } else { later.append(test) }
        }
        var item = item
        item.tests = runnable
        return (item, later)
    }

    /// The worker environment (`ROBOTCI_*`) of `item` on `shard`, before its engine is chosen.
    private func environment(for item: WorkItem, shard: Int, ports: PortAllocator.ShardPorts,
                             artifactsDirectory: URL) -> [String: String] {
        var env = baseEnvironment
        env[WorkerVariable.shardIndex.name] = String(shard)
        env[WorkerVariable.mockPort.name] = String(ports.mock)
        env[WorkerVariable.webDriverPort.name] = String(ports.webDriver)
        env[WorkerVariable.artifactsDirectory.name] = artifactsDirectory.path
        env[WorkerVariable.attempt.name] = String(item.attempt)
        // A batch holds one repetition (the queue cuts them apart).
        if let repetition = item.tests.first?.repetition { env[WorkerVariable.repetition.name] = String(repetition.index) }
        env[WorkerVariable.runID.name] = context.runID
        return env
    }

    /// Points the batch at the shard's warm browser for `target`: its WPEWebDriver for WebKit,
    /// its Chromium channel for the default engine (when the driver wants one).
    private func attachBrowser(for target: BrowserTarget?, shard: Int, ports: PortAllocator.ShardPorts,
                               networkNamespace: NetworkNamespace?, in env: inout [String: String]) {
        if target == .webkit,
           let channel = resources.webKit?.ensure(shard: shard, port: ports.webDriver, networkNamespace: networkNamespace) {
            env[WorkerVariable.webKitDriverURL.name] = channel.url
            env[WorkerVariable.browserDirectory.name] = channel.directory.path
        }
        if driver.usesShardBrowser, target == nil || target == .chromium,
           let channel = resources.browsers?.ensure(shard: shard, networkNamespace: networkNamespace) {
            env[WorkerVariable.browserSocket.name] = channel.socket
            env[WorkerVariable.browserDirectory.name] = channel.directory.path
        }
    }

    /// The variables RobotKit picks its engine by (`ROBOTCI_BROWSER`, `ROBOTCI_WEBDRIVER_URL`),
    /// set for `target`'s batch: robotci's choice wins over any the run inherited.
    static func select(_ target: BrowserTarget, in env: inout [String: String]) {
        switch target {
        case .chromium, .webkit:
            env[WorkerVariable.browser.name] = target.name
            env[WorkerVariable.webDriverURL.name] = nil
        case .webDriver(let url):
            env[WorkerVariable.webDriverURL.name] = url
            env[WorkerVariable.browser.name] = nil
        }
    }
}

/// The full output of one batch process, written as it streams (buffered, never fsynced).
final class BatchLog {
    private var file: UnsafeMutablePointer<FILE>?
    /// Also masks the batch's artifacts as they are filed (`BatchRun.moveArtifacts`).
    let redactor: SecretRedactor

    init(path: String, redactor: SecretRedactor) {
        self.redactor = redactor
        #if os(Linux)
        file = fopen(path, "we")  // close-on-exec: not inherited by worker processes
        #else
        file = fopen(path, "w")
        #endif
    }

    func write(_ line: Substring) {
        guard let file else { return }
        var s = redactor.redact(String(line))
        s.append("\n")
        s.withCString { _ = fputs($0, file) }
    }

    func close() {
        if let file { fclose(file) }
        file = nil
    }

    deinit { close() }
}
