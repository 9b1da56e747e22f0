import Foundation
import ProcessToolkit
import RobotCICore
import RobotCIReport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One batch on one shard, and what every driver shares to run it: the worker
/// environment, the batch's artifacts folder, its log, spawning the child and pumping its
/// output, moving artifacts into the report, and where finished attempts go.
final class BatchRun {
    /// The batch as the driver runs it: each test by the name its runner knows (a repetition
    /// or a browser's run of a test runs as the test; everything the batch reports goes back
    /// under the identity the run planned, `plannedID`).
    let item: WorkItem
    /// The run's identity of each of `item.tests`, by the test's own name: the child process
    /// names tests only so (no two identities of one test share a batch).
    private let planned: [String: TestID]
    let shard: Int
    let ports: PortAllocator.ShardPorts
    /// The worker environment (`ROBOTCI_*`); a driver may add to it before `spawn`.
    var environment: [String: String]
    /// `ROBOTCI_ARTIFACTS_DIR`: files a test leaves here become its attempt's artifacts.
    let artifactsDirectory: URL
    /// Relative path (in the report) of the batch's full log.
    let logPath: String
    let log: BatchLog
    /// When the batch started (run clock).
    let start: Double
    /// Durations from the last runs (`timings.json`).
    let history: Timings
    let clock: RunClock
    let layout: ReportLayout
    private let router: AttemptRouter
    /// The shard's network namespace, where `spawn` starts the batch's process; nil: the host's.
    let networkNamespace: NetworkNamespace?

    /// How the child ended, once `pump` returned.
    private(set) var ended: (end: ChildProcess.Termination, timedOut: Bool)?

    /// Where a batch runs: its shard, the shard's ports and network namespace.
    struct Slot {
        let shard: Int
        let ports: PortAllocator.ShardPorts
        /// Where `spawn` starts the batch's process; nil: the host's namespace.
        var networkNamespace: NetworkNamespace?
    }

    /// The batch's files: its artifacts folder and its log.
    struct Files {
        /// `ROBOTCI_ARTIFACTS_DIR`: files a test leaves here become its attempt's artifacts.
        let artifactsDirectory: URL
        /// Relative path (in the report) of the batch's full log.
        let logPath: String
        let log: BatchLog
    }

    /// `item` holds the run's identities; each runs under its test's own name (no two of one
    /// test share a batch: `WorkQueue` cuts them apart, `BatchExecutor` checks). `start` is
    /// when the batch started (run clock).
    init(item: WorkItem, slot: Slot, environment: [String: String], files: Files, start: Double, context: RunContext) {
        self.networkNamespace = slot.networkNamespace
        var runnable = item
        runnable.tests = item.tests.map { TestID($0.test) }
        self.item = runnable
        self.planned = Dictionary(item.tests.map { ($0.test, $0) }, uniquingKeysWith: { first, _ in first })
        self.shard = slot.shard
        self.ports = slot.ports
        self.environment = environment
        self.artifactsDirectory = files.artifactsDirectory
        self.logPath = files.logPath
        self.log = files.log
        self.start = start
        self.history = context.history
        self.clock = context.clock
        self.layout = context.layout
        self.router = context.router
    }

    var isInterrupted: Bool { router.interruption.isInterrupted }
    /// Why the run stopped, once it did: every batch it kills ends `.stopped` with it.
    var stop: RunStop? { router.interruption.stop }

    /// The run's identity for one of `item.tests`, as the child named it.
    func plannedID(_ test: TestID) -> TestID { planned[test.test] ?? test }

    /// A finished attempt of one of the batch's tests: journal, progress, retry decision.
    func report(_ test: TestID, _ attempt: Attempt) {
        router.attemptFinished(plannedID(test), attempt)
    }

    /// `--test-timeout`, `rules:` and the history deadlines.
    var rules: TestRules { router.rules }

    /// Seconds `test` may run (`--test-timeout`, or its rule's).
    func testTimeout(for test: TestID) -> Double { router.rules.testTimeout(for: test) }

    /// The deadline of `test` with the rule that set it (named when it fires).
    func deadline(for test: TestID) -> TestDeadline { router.rules.deadline(for: test) }

    /// The output says a test of this batch failed: with `--max-failures`, when the attempt is
    /// its last (no retry left, or its rule's `retry-on` does not find the failure), it counts
    /// before its held result is reported. Without the flag nothing is asked of the rules.
    func provisionalFailure(_ test: TestID, _ attempt: Attempt) {
        let planned = plannedID(test)
        guard router.maxFailures != nil, router.isFinalFailure(planned, attempt) else { return }
        router.provisionalFailure(batch: item.id, test: planned)
    }

    /// The batch's held results are about to be reported.
    func provisionalSettled() { router.provisionalSettled(batch: item.id) }

    /// A test of the batch that gets no result here and will not run again: the run ends
    /// with it `notRun`, for `reason`.
    func notRun(_ test: TestID, reason: String) {
        router.recorder.notRun(plannedID(test), reason: reason)
    }

    /// Starts the batch's process with `environment`; nil (logged) when it cannot start.
    func spawn(_ command: (executable: String, arguments: [String]), workingDirectory: String, eventChannel: Bool = false) -> ChildProcess? {
        do {
            return try ChildProcess(executable: command.executable, arguments: command.arguments, environment: environment,
                                    workingDirectory: workingDirectory, eventChannel: eventChannel,
                                    networkNamespace: networkNamespace)
        } catch {
            log.write(Substring("robotci: \(error)"))
            return nil
        }
    }

    /// The batch's record with how it ended.
    func record(termination: BatchEnd) -> BatchRecord {
        var record = BatchRecord(id: item.id, shard: shard, start: start, end: clock.now(), tests: item.tests.map(plannedID),
                                 termination: termination)
        record.mockPort = ports.mock
        record.webDriverPort = ports.webDriver
        return record
    }

    /// The outcome of a batch whose process could not start: every test goes back.
    func spawnFailed() -> BatchOutcome {
        BatchOutcome(record: record(termination: .spawnFailed), unstarted: item.tests, noTestStarted: true)
    }

    /// Reads the child's merged output line by line until EOF (or until it is gone), killing
    /// its process group once `deadline()` (re-read on every wakeup) has passed. With an event
    /// channel (`ChildProcess.eventFD`), its lines go to `event`, read first when both have
    /// something, so a test's start is known before the output it prints.
    @discardableResult
    func pump(_ child: ChildProcess, deadline: () -> Double, handle: (Substring) -> Void,
              event: (Substring) -> Void = { _ in }) -> (end: ChildProcess.Termination, timedOut: Bool) {
        var splitter = LineSplitter()
        var eventSplitter = LineSplitter()
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        var exitedAt: Double?
        var killedAt: Double?
        var timedOut = false
        var eventOpen = child.eventFD >= 0
        /// Reads what `fd` has; false at EOF or on an error.
        func drain(_ fd: Int32, _ splitter: inout LineSplitter, _ sink: (Substring) -> Void) -> Bool {
            let n = read(fd, &buffer, buffer.count)
            if n < 0 { return errno == EINTR || errno == EAGAIN }
            if n == 0 { return false }
            buffer.withUnsafeBufferPointer { all in splitter.feed(UnsafeBufferPointer(rebasing: all[0..<n]), sink) }
            return true
        }
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
            var pfds = [pollfd(fd: eventOpen ? child.eventFD : -1, events: Int16(POLLIN), revents: 0),
                        pollfd(fd: child.outputFD, events: Int16(POLLIN), revents: 0)]
            let ready = poll(&pfds, 2, Int32(max(1, wait * 1000)))
            if ready < 0 {
                if errno == EINTR { continue }
                break
            }
            if ready == 0 {
                if exitedAt == nil, child.tryWait() != nil { exitedAt = clock.now() }
                continue
            }
            if eventOpen && pfds[0].revents != 0 && !drain(child.eventFD, &eventSplitter, event) { eventOpen = false }
            if pfds[1].revents != 0 && !drain(child.outputFD, &splitter, handle) {
                // EOF: every writer of the output is gone; take the last events, then stop.
                while eventOpen {
                    var pfd = pollfd(fd: child.eventFD, events: Int16(POLLIN), revents: 0)
                    guard poll(&pfd, 1, 100) > 0, drain(child.eventFD, &eventSplitter, event) else { break }
                }
                break readLoop
            }
        }
        eventSplitter.finish(event)
        splitter.finish(handle)
        let result = (child.wait(), timedOut)
        ended = result
        // This batch's orphans only: other shards' batches may still need theirs.
        ChildRegistry.shared.reapStrays(tag: child.tag)
        return result
    }

    /// Moves the files a test left in the artifacts folder into its attempt folder.
    func collectArtifacts(of test: TestID) -> [Artifact] {
        moveArtifacts(into: attemptDirectory(of: test))
    }

    /// The report's folder (relative) for this batch's attempt of `test`.
    func attemptDirectory(of test: TestID) -> String {
        layout.attemptDirectory(plannedID(test), attempt: item.attempt, redactor: log.redactor)
    }

    /// Moves every file of the artifacts folder into `relative` (inside the report folder),
    /// secrets in their text masked (`ArtifactRedaction`).
    /// Only regular files and folders are kept: a FIFO, socket or device (or a symbolic link,
    /// which could point anywhere) is removed with a warning in the batch log, as reading
    /// one (to inline it in the report) would wait forever.
    func moveArtifacts(into relative: String) -> [Artifact] {
        let fm = FileManager.default
        guard let names = try? fm.contentsOfDirectory(atPath: artifactsDirectory.path), !names.isEmpty else { return [] }
        let target = layout.directory.appendingPathComponent(relative)
        do {
            try fm.createDirectory(at: target, withIntermediateDirectories: true)
        } catch {
            log.write(Substring("robotci: cannot create the artifacts folder \(target.path): \(FileWriteError.reason(error)); "
                                + "the files stay in \(artifactsDirectory.path)"))
            return []
        }
        var artifacts: [Artifact] = []
        for name in names.sorted() {
            let source = artifactsDirectory.appendingPathComponent(name)
            guard keepOnlyPlainFiles(source, shownAs: "\(relative)/\(name)") else { continue }
            let destination = target.appendingPathComponent(name)
            try? fm.removeItem(at: destination)
            do {
                try fm.moveItem(at: source, to: destination)
                ArtifactRedaction.redact(destination, with: log.redactor)
            } catch {
                log.write(Substring("robotci: artifact \(name) not kept: \(FileWriteError.reason(error))"))
                try? fm.removeItem(at: source)
                continue
            }
            if name == ArtifactFile.traceFolder,
               case .regular = RegularFile.kind(ofItemAt: destination.appendingPathComponent(ArtifactFile.traceJSON).path) {
                artifacts.append(Artifact(kind: .trace, path: "\(relative)/\(name)/\(ArtifactFile.traceJSON)"))
                continue
            }
            artifacts.append(Artifact(kind: ArtifactKind(fileName: name), path: "\(relative)/\(name)"))
        }
        return artifacts
    }

    /// False (and `url` removed, with a warning) when it is no regular file or folder; inside
    /// a folder, such entries are removed the same way and the folder is kept.
    private func keepOnlyPlainFiles(_ url: URL, shownAs label: String) -> Bool {
        let kind = RegularFile.kind(ofItemAt: url.path)
        switch kind {
        case .regular: return true
        case .missing: return false
        case .special, .symbolicLink:
            log.write(Substring("robotci: warning: artifact \(label) is \(kind.noun), not a regular file; skipped (the report reads only plain files)"))
            try? FileManager.default.removeItem(at: url)
            return false
        case .directory:
            for name in (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? [] {
                _ = keepOnlyPlainFiles(url.appendingPathComponent(name), shownAs: "\(label)/\(name)")
            }
            return true
        }
    }
}
