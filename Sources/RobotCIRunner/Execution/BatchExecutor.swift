import Foundation
import RobotCICore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a finished batch leaves for the queue to handle.
struct BatchOutcome {
    var record: BatchRecord
    /// Tests of the batch that never started (after a crash, a hang or an interrupt).
    var unstarted: [TestID]
    /// True when the process ended before any test of the batch started.
    var noTestStarted: Bool
    /// Tests to run again, each alone, at the same attempt (the command driver's batch ended
    /// without their results, so which of them crashed or hung is found by isolating them).
    var isolate: [TestID] = []
}

/// Runs one batch as one child process on one worker slot, parsing its output as it
/// streams, and reports every test's attempt the moment its result line arrives.
final class BatchExecutor: @unchecked Sendable {
    let source: TestSource
    /// Masks secret environment values in the batch logs (the recorder masks attempts).
    let redactor: SecretRedactor
    let baseEnvironment: [String: String]
    let testTimeout: Double
    let runID: String
    let layout: ReportLayout
    let clock: RunClock
    let recorder: RunRecorder

    /// Durations from the last runs (`timings.json`): a command-driver batch's time budget.
    let history: Timings
    /// Each slot's warm chromedriver (XCTest / Swift Testing bundles), nil when off.
    let browsers: SlotBrowsers?

    init(source: TestSource, baseEnvironment: [String: String], testTimeout: Double, runID: String,
         layout: ReportLayout, clock: RunClock, recorder: RunRecorder, history: Timings = Timings(),
         redactor: SecretRedactor, browsers: SlotBrowsers? = nil) {
        self.history = history
        self.browsers = browsers
        self.source = source
        self.redactor = redactor
        self.baseEnvironment = baseEnvironment
        self.testTimeout = testTimeout
        self.runID = runID
        self.layout = layout
        self.clock = clock
        self.recorder = recorder
    }

    /// State of the test that is running right now.
    private struct Running {
        var id: TestID
        var start: Double
        var output = OutputBuffer()
        var failures: [FailureMessage] = []
    }

    func run(_ item: WorkItem, worker: Int, ports: PortAllocator.SlotPorts) -> BatchOutcome {
        let batchStart = clock.now()
        let artifactsDir = layout.workDirectory.appendingPathComponent("batch-\(item.id)")
        try? FileManager.default.createDirectory(at: artifactsDir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: artifactsDir) }
        let logPath = layout.batchLogPath(item.id)
        let log = BatchLog(path: layout.directory.appendingPathComponent(logPath).path, redactor: redactor)

        var env = baseEnvironment
        env["ROBOTCI_WORKER_INDEX"] = String(worker)
        env["ROBOTCI_MOCK_PORT"] = String(ports.mock)
        env["ROBOTCI_WEBDRIVER_PORT"] = String(ports.webDriver)
        env["ROBOTCI_ARTIFACTS_DIR"] = artifactsDir.path
        env["ROBOTCI_ATTEMPT"] = String(item.attempt)
        env["ROBOTCI_RUN_ID"] = runID
        let bundle: TestBundle, swiftTesting: Set<TestID>
        switch source {
        case .command(let command):
            return runCommand(command, item, worker: worker, ports: ports, environment: env, artifactsDir: artifactsDir,
                              logPath: logPath, log: log, batchStart: batchStart)
        case .bundle(let b, let s):
            (bundle, swiftTesting) = (b, s)
        }
        if let driver = browsers?.ensure(slot: worker, port: ports.webDriver) {
            env["ROBOTCI_WEBDRIVER_URL"] = driver.url
            env["ROBOTCI_WEBDRIVER_PID"] = String(driver.pid)
            env["ROBOTCI_BROWSER_DIR"] = driver.directory.path
        }

        // Tests by the name their output uses (XCTest: `Class.test`; Swift Testing events:
        // the listed id), in batch order.
        let isSwiftTesting = item.tests.first.map { swiftTesting.contains($0) } ?? false
        // Swift Testing colours its console lines; escape codes only clutter stored output.
        if isSwiftTesting && env["NO_COLOR"] == nil { env["NO_COLOR"] = "1" }
        func key(_ id: TestID) -> String { isSwiftTesting ? id.rawValue : id.outputName }
        var byOutputName: [String: [TestID]] = [:]
        for id in item.tests { byOutputName[key(id), default: []].append(id) }
        var finished = Set<TestID>()
        var started = Set<TestID>()
        var running: Running?
        var lastEvent = batchStart
        var termination = "not started"

        func attemptFor(_ r: Running, outcome: AttemptOutcome, duration: Double, extraFailure: FailureMessage? = nil) -> Attempt {
            var failures = r.failures
            if let extraFailure { failures.append(extraFailure) }
            var artifacts = collectArtifacts(from: artifactsDir, test: r.id, attempt: item.attempt)
            if r.output.isTruncated { artifacts.append(Artifact(kind: "log", path: logPath)) }
            return Attempt(number: item.attempt, outcome: outcome, duration: duration, start: r.start,
                           worker: worker, batch: item.id, failures: failures, output: r.output.text,
                           artifacts: artifacts)
        }

        func handle(_ line: Substring) {
            log.write(line)
            if isSwiftTesting && line.hasPrefix(SwiftTestingEvent.prefix) {
                for event in SwiftTestingEvent.parse(line) { handle(event, line: nil) }
            } else {
                handle(XCTestLine(line), line: line)
            }
        }

        /// `line` is the console line the event came from (nil for Swift Testing's JSON).
        func handle(_ event: XCTestLine, line: Substring?) {
            func keep() { if let line { running?.output.append(line) } }
            switch event {
            case .started(let name):
                let now = clock.now()
                lastEvent = now
                if let id = byOutputName[name]?.first(where: { !started.contains($0) }) {
                    started.insert(id)
                    running = Running(id: id, start: now)
                    keep()
                } else {
                    running = nil
                }
            case .finished(let name, let status, let seconds):
                lastEvent = clock.now()
                guard var r = running, key(r.id) == name else { return }
                if let line { r.output.append(line) }
                let outcome: AttemptOutcome = status == .passed ? .passed : status == .failed ? .failed : .skipped
                if outcome == .failed && r.failures.isEmpty {
                    r.failures.append(FailureMessage(message: "test failed without an error message"))
                }
                finished.insert(r.id)
                recorder.record(r.id, attemptFor(r, outcome: outcome, duration: seconds))
                running = nil
            case .error(let file, let lineNo, _, let message):
                keep()
                // corelibs XCTest reports thrown errors at `<EXPR>:0`, which is no location.
                let located = file != "<EXPR>" && lineNo > 0
                running?.failures.append(FailureMessage(file: located ? file : nil, line: located ? lineNo : nil, message: message))
            case .skipped(let file, let lineNo, _, let reason):
                keep()
                let located = !file.isEmpty && lineNo > 0
                running?.failures.append(FailureMessage(file: located ? file : nil, line: located ? lineNo : nil, message: reason))
            case .other:
                keep()
            }
        }

        let command = bundle.command(for: item.tests, swiftTesting: isSwiftTesting)
        let child: ChildProcess
        do {
            child = try ChildProcess(executable: command.executable, arguments: command.arguments, environment: env,
                                     workingDirectory: bundle.workingDirectory)
        } catch {
            log.write(Substring("robotci: \(error)"))
            log.close()
            return BatchOutcome(
                record: BatchRecord(id: item.id, worker: worker, start: batchStart, end: clock.now(), tests: item.tests,
                                    termination: "spawn failed", mockPort: ports.mock, webDriverPort: ports.webDriver),
                unstarted: item.tests, noTestStarted: true)
        }

        let (end, timedOut) = pump(child, deadline: { (running?.start ?? lastEvent) + testTimeout }, handle: handle)
        termination = timedOut ? "killed (test timeout \(Int(testTimeout)) s)" : end.description
        if RunInterruption.shared.isInterrupted { termination = "killed (interrupted)" }
        // A test that hung or was killed may have left the slot's browser wedged mid-command:
        // the next batch gets a new chromedriver and browser.
        var signaled = false
        if case .signaled = end { signaled = true }
        if timedOut || signaled { browsers?.replace(slot: worker) }
        ChildRegistry.shared.reapStrays()

        // The test that was running when the process died or was killed.
        if let r = running, !RunInterruption.shared.isInterrupted {
            let now = clock.now()
            if timedOut {
                let failure = FailureMessage(message: "timed out: still running after \(Int(testTimeout)) s (--test-timeout); its process group was killed")
                recorder.record(r.id, attemptFor(r, outcome: .timedOut, duration: now - r.start, extraFailure: failure))
            } else {
                let crash = CrashSummary(output: r.output.text)
                let reason = crash.reason.map { "\($0) (" } ?? "("
                let failure = FailureMessage(file: crash.file, line: crash.line,
                                             message: "crashed: \(reason)the test process ended with \(end) while this test was running)")
                recorder.record(r.id, attemptFor(r, outcome: .crashed, duration: now - r.start, extraFailure: failure))
            }
            finished.insert(r.id)
        } else if timedOut, !RunInterruption.shared.isInterrupted,
                  let first = item.tests.first(where: { !started.contains($0) }) {
            // Silent before any next test began (e.g. a hanging class setUp): blame the next test.
            started.insert(first)
            let r = Running(id: first, start: lastEvent)
            let failure = FailureMessage(message: "timed out: the process printed nothing for \(Int(testTimeout)) s before this test started (--test-timeout)")
            recorder.record(first, attemptFor(r, outcome: .timedOut, duration: clock.now() - lastEvent, extraFailure: failure))
        }
        log.close()
        let unstarted = item.tests.filter { !started.contains($0) }
        return BatchOutcome(
            record: BatchRecord(id: item.id, worker: worker, start: batchStart, end: clock.now(), tests: item.tests,
                                termination: termination, mockPort: ports.mock, webDriverPort: ports.webDriver),
            unstarted: unstarted, noTestStarted: started.isEmpty)
    }

    /// Reads the child's merged output line by line until EOF (or until it is gone), killing
    /// its process group once `deadline()` (re-read on every wakeup) has passed.
    func pump(_ child: ChildProcess, deadline: () -> Double, handle: (Substring) -> Void) -> (end: ChildProcess.Termination, timedOut: Bool) {
        var splitter = LineSplitter()
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        var exitedAt: Double?
        var killedAt: Double?
        var timedOut = false
        readLoop: while true {
            let now = clock.now()
            // After the process is gone (or killed), give late output a moment, then stop:
            // something outside the process group may still hold the pipe open.
            if let end = killedAt ?? exitedAt, now - end > 1.0 { break }
            let deadline = deadline()
            if killedAt == nil && exitedAt == nil && now >= deadline {
                timedOut = true
                child.killGroup()
                killedAt = now
                continue
            }
            let wait = killedAt == nil && exitedAt == nil ? min(deadline - now, 0.2) : 0.1
            var pfd = pollfd(fd: child.outputFD, events: Int16(POLLIN), revents: 0)
            let ready = poll(&pfd, 1, Int32(max(1, wait * 1000)))
            if ready < 0 {
                if errno == EINTR { continue }
                break
            }
            if ready == 0 {
                if exitedAt == nil, child.tryWait() != nil { exitedAt = clock.now() }
                continue
            }
            let n = read(child.outputFD, &buffer, buffer.count)
            if n < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                break readLoop
            }
            if n == 0 { break }  // EOF: every writer is gone.
            buffer.withUnsafeBufferPointer { all in
                splitter.feed(UnsafeBufferPointer(rebasing: all[0..<n]), handle)
            }
        }
        splitter.finish(handle)
        return (child.wait(), timedOut)
    }

    /// Moves the files a test left in `ROBOTCI_ARTIFACTS_DIR` into its attempt folder.
    private func collectArtifacts(from dir: URL, test: TestID, attempt: Int) -> [Artifact] {
        moveArtifacts(from: dir, into: layout.attemptDirectory(test, attempt: attempt))
    }

    /// Moves every file of `dir` into `relative` (inside the report folder), as artifacts.
    func moveArtifacts(from dir: URL, into relative: String) -> [Artifact] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: dir.path), !names.isEmpty else { return [] }
        let target = layout.directory.appendingPathComponent(relative)
        try? FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
        var artifacts: [Artifact] = []
        for name in names.sorted() {
            let destination = target.appendingPathComponent(name)
            try? FileManager.default.removeItem(at: destination)
            guard (try? FileManager.default.moveItem(at: dir.appendingPathComponent(name), to: destination)) != nil else { continue }
            artifacts.append(Artifact(kind: Artifact.kind(forFileName: name), path: "\(relative)/\(name)"))
        }
        return artifacts
    }
}

extension Artifact {
    /// The artifact kind RobotKit and MockServer file names stand for.
    static func kind(forFileName original: String) -> String {
        let name = original.lowercased()
        switch name {
        case "steps.json": return "steps"
        case "mock-requests.json": return "mock"
        case "accessibility.txt": return "accessibility"
        case "console.log": return "console"
        default:
            if name.hasSuffix(".png") || name.hasSuffix(".jpg") || name.hasSuffix(".jpeg") { return "screenshot" }
            if name.hasSuffix(".html") { return "html" }
            if name.hasSuffix(".log") { return "log" }
            return "other"
        }
    }
}

/// The full output of one batch process, written as it streams (buffered, never fsynced).
final class BatchLog {
    private var file: UnsafeMutablePointer<FILE>?
    private let redactor: SecretRedactor

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
