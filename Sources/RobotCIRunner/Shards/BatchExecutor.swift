import Foundation
import RobotCICore

/// Runs one batch on one shard: prepares what every driver shares (the worker
/// environment, the artifacts folder, the batch log, the shard's warm browser channel) and hands
/// the batch to the suite's `TestDriver`.
final class BatchExecutor: Sendable {
    let driver: any TestDriver
    /// Masks secret environment values in the batch logs (the recorder masks attempts).
    let redactor: SecretRedactor
    let baseEnvironment: [String: String]
    let runID: String
    let layout: ReportLayout
    let clock: RunClock
    let router: AttemptRouter
    /// Durations from the last runs (`timings.json`): a command-driver batch's time budget.
    let history: Timings
    /// Each shard's warm browser (behind its relay), nil when the driver wants none.
    let browsers: ShardBrowsers?
    /// Each shard's warm WPEWebDriver (`--browsers webkit`), nil without WebKit.
    let webKit: ShardWebKit?
    /// Each shard's network namespace (`network-isolation`), nil when off.
    let namespaces: ShardNamespaces?
    /// `network-isolation: on`: a shard that cannot have its namespace runs nothing.
    let namespaceRequired: Bool
    /// `--browsers`: the engines the plan's ids name (empty: the default engine, as the test
    /// process picks it).
    let browserTargets: [BrowserTarget]

    init(driver: any TestDriver, baseEnvironment: [String: String], runID: String,
         layout: ReportLayout, clock: RunClock, router: AttemptRouter, history: Timings = Timings(),
         redactor: SecretRedactor, browsers: ShardBrowsers? = nil, namespaces: ShardNamespaces? = nil,
         namespaceRequired: Bool = false, browserTargets: [BrowserTarget] = [], webKit: ShardWebKit? = nil) {
        self.driver = driver
        self.webKit = webKit
        self.browserTargets = browserTargets
        self.namespaces = namespaces
        self.namespaceRequired = namespaceRequired
        self.history = history
        self.browsers = browsers
        self.redactor = redactor
        self.baseEnvironment = baseEnvironment
        self.runID = runID
        self.layout = layout
        self.clock = clock
        self.router = router
    }

    func run(_ item: WorkItem, shard: Int, ports: PortAllocator.ShardPorts) -> BatchOutcome {
        // A process knows a test by its own name only: a second repetition of a test in the
        // same batch (the queue never cuts one, but a queue's batch is data) waits for another.
        var item = item
        // A process runs one engine (its environment picks it): another browser's tests wait too.
        var runnable: [TestID] = [], later: [TestID] = [], seen = Set<String>()
        let browser = item.tests.first?.browser
        for test in item.tests {
            if test.browser == browser && seen.insert(test.test).inserted { runnable.append(test) } else { later.append(test) }
        }
        item.tests = runnable
        let start = clock.now()
        let artifactsDir = layout.workDirectory.appendingPathComponent("batch-\(item.id)")
        try? FileManager.default.createDirectory(at: artifactsDir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: artifactsDir) }
        let logPath = layout.batchLogPath(item.id)
        let log = BatchLog(path: layout.directory.appendingPathComponent(logPath).path, redactor: redactor)
        defer { log.close() }

        var env = baseEnvironment
        env[WorkerVariable.shardIndex.name] = String(shard)
        env[WorkerVariable.mockPort.name] = String(ports.mock)
        env[WorkerVariable.webDriverPort.name] = String(ports.webDriver)
        env[WorkerVariable.artifactsDirectory.name] = artifactsDir.path
        env[WorkerVariable.attempt.name] = String(item.attempt)
        // A batch holds one repetition (the queue cuts them apart).
        if let repetition = item.tests.first?.repetition { env[WorkerVariable.repetition.name] = String(repetition.index) }
        env[WorkerVariable.runID.name] = runID
        let target = BrowserTarget.target(named: browser, in: browserTargets)
        if let target { Self.select(target, in: &env) }
        // A WebDriver endpoint robotci does not start is outside any namespace of the shard's.
        let namespace = target?.idName == "webdriver" ? nil : namespaces?.ensure(shard: shard)
        // A browser in the shard's last namespace cannot reach the new one's mock server.
        if namespace?.isNew == true {
            browsers?.replace(shard: shard)
            webKit?.replace(shard: shard)
        }
        if target == .webkit, let channel = webKit?.ensure(shard: shard, port: ports.webDriver, networkNamespace: namespace?.namespace) {
            env[WorkerVariable.webKitDriverURL.name] = channel.url
            env[WorkerVariable.browserDirectory.name] = channel.directory.path
        }
        if driver.usesShardBrowser, target == nil || target == .chromium,
           let channel = browsers?.ensure(shard: shard, networkNamespace: namespace?.namespace) {
            env[WorkerVariable.browserSocket.name] = channel.socket
            env[WorkerVariable.browserDirectory.name] = channel.directory.path
        }
        let batch = BatchRun(item: item, shard: shard, ports: ports, environment: env, artifactsDirectory: artifactsDir,
                             logPath: logPath, log: log, start: start, history: history,
                             clock: clock, layout: layout, router: router, networkNamespace: namespace?.namespace)
        var outcome: BatchOutcome
        if namespaces != nil, namespace == nil, namespaceRequired, target?.idName != "webdriver" {
            log.write("robotci: network-isolation is on and this shard has no network namespace; the batch did not start")
            outcome = batch.spawnFailed()
        } else {
            outcome = driver.run(batch)
        }
        // Back to the run's ids (the driver ran repetitions under their tests' ids).
        outcome.unstarted = outcome.unstarted.map(batch.plannedID) + later
        outcome.isolate = outcome.isolate.map(batch.plannedID)
        // A test that hung or was killed may have left the shard's browser wedged mid-command:
        // the next batch gets a new browser.
        if let ended = batch.ended {
            var signaled = false
            if case .signaled = ended.end { signaled = true }
            if ended.timedOut || signaled {
                browsers?.replace(shard: shard)
                webKit?.replace(shard: shard)
            }
        }
        return outcome
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
