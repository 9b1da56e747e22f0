import Foundation
import RobotCICore
import RobotCIReport

/// Seconds since the run started, from a monotonic clock.
struct RunClock: Sendable {
    let origin = DispatchTime.now().uptimeNanoseconds
    /// Wall-clock start, seconds since 1970 (for the report).
    let startedAt = Date().timeIntervalSince1970

    func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds - origin) / 1e9 }
}

/// Set once when robotci receives SIGINT/SIGTERM.
final class RunInterruption: @unchecked Sendable {
    static let shared = RunInterruption()
    private let lock = NSLock()
    private var flag = false

    var isInterrupted: Bool { lock.withLock { flag } }
    func interrupt() { lock.withLock { flag = true } }
}

/// Where things go inside the report folder.
struct ReportLayout: Sendable {
    let directory: URL

    var workDirectory: URL { directory.appendingPathComponent(".robotci-work") }
    var journal: URL { directory.appendingPathComponent("results.jsonl") }

    /// Relative path of a batch's full log.
    func batchLogPath(_ batch: Int) -> String { "attachments/batches/batch-\(batch).log" }

    /// Relative folder of one attempt's artifacts.
    func attemptDirectory(_ test: TestID, attempt: Int) -> String {
        "attachments/\(ReportLayout.slug(test.rawValue))/\(attempt)"
    }

    /// A file-system-safe, collision-free name for a test id: readable part + hash of the id.
    static func slug(_ s: String) -> String {
        let hash = String(Partitioner.stableHash(s) & 0xffff_ffff, radix: 16)
        return "\(readable(s))-\(hash)"
    }

    private static func readable(_ s: String) -> String {
        var out = ""
        for ch in s.unicodeScalars {
            if ch.properties.isAlphabetic || ("0"..."9").contains(ch) || ch == "_" || ch == "-" || ch == "." {
                out.unicodeScalars.append(ch)
            } else {
                out.append("_")
            }
        }
        return String(out.prefix(160))
    }

    /// Clears what belongs to a previous run (its journal, attachments, work files);
    /// keeps `timings.json`, which the new run plans with.
    func prepare() throws {
        let fm = FileManager.default
        do {
            try fm.createDirectory(at: directory, withIntermediateDirectories: true)
            for name in ["attachments", ".robotci-work", "results.jsonl"] {
                let url = directory.appendingPathComponent(name)
                if fm.fileExists(atPath: url.path) { try fm.removeItem(at: url) }
            }
            try fm.createDirectory(at: directory.appendingPathComponent("attachments/batches"), withIntermediateDirectories: true)
            try fm.createDirectory(at: workDirectory, withIntermediateDirectories: true)
        } catch {
            throw RunnerError.report("cannot write the report folder \(directory.path): \(FileWriteError.reason(error)); "
                                     + "pass a writable --report-dir")
        }
    }
}

/// Appends journal entries to `results.jsonl`, one line each, flushed but not fsynced.
final class JournalWriter: @unchecked Sendable {
    private let lock = NSLock()
    private var file: UnsafeMutablePointer<FILE>?
    private let encoder: JSONEncoder = {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return e
    }()

    #if os(Linux)
    private static let appendMode = "ae"  // close-on-exec: not inherited by worker processes
    #else
    private static let appendMode = "a"
    #endif

    private let path: String
    private var warned = false

    init(url: URL) throws {
        path = url.path
        guard let f = fopen(url.path, Self.appendMode) else {
            throw RunnerError.report("cannot write \(url.path): \(String(cString: strerror(errno)))")
        }
        file = f
    }

    func append(_ entry: JournalEntry) {
        guard let data = try? encoder.encode(entry) else { return }
        lock.withLock {
            guard let file else { return }
            let written = data.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
            let ok = written == data.count && fputc(10, file) != EOF && fflush(file) == 0
            if !ok && !warned {
                // Disk full or the like: say so once; the report at the end still has every result.
                warned = true
                FileHandle.standardError.write(Data(("robotci: warning: cannot append to \(path): \(String(cString: strerror(errno))); "
                    + "results.jsonl is incomplete from here on (the report written at the end still gets every result)\n").utf8))
            }
        }
    }

    func close() {
        lock.withLock {
            if let file { fclose(file) }
            file = nil
        }
    }
}

/// Collects attempts as they arrive: journal, progress, retries.
final class RunRecorder: @unchecked Sendable {
    private let lock = NSLock()
    private var attempts: [TestID: [Attempt]] = [:]
    private var order: [TestID] = []
    private var batches: [BatchRecord] = []
    private let journal: JournalWriter
    private let quarantine: (TestID) -> Bool
    let progress: Progress
    var queue: BatchSource?
    private let redactor: SecretRedactor

    init(journal: JournalWriter, quarantine: @escaping (TestID) -> Bool, progress: Progress, redactor: SecretRedactor = SecretRedactor(environment: [:])) {
        self.redactor = redactor
        self.journal = journal
        self.quarantine = quarantine
        self.progress = progress
    }

    func record(_ test: TestID, _ attempt: Attempt) {
        let attempt = redactor.redact(attempt)
        let quarantined = quarantine(test)
        journal.append(.attempt(test: test, quarantined: quarantined, attempt: attempt))
        let retrying = queue?.attemptFinished(test, quarantined: quarantined, attempt: attempt) ?? false
        let all: [Attempt] = lock.withLock {
            if attempts[test] == nil { order.append(test) }
            attempts[test, default: []].append(attempt)
            return attempts[test] ?? []
        }
        progress.attemptFinished(test, attempt: attempt, history: all, retrying: retrying, quarantined: quarantined)
    }

    func record(_ batch: BatchRecord) {
        journal.append(.batch(batch))
        lock.withLock { batches.append(batch) }
        queue?.batchFinished(batch)
    }

    func snapshot() -> (tests: [TestRecord], batches: [BatchRecord]) {
        lock.withLock {
            let tests = order.sorted().map { TestRecord(id: $0, attempts: attempts[$0] ?? [], quarantined: quarantine($0)) }
            return (tests, batches.sorted { $0.id < $1.id })
        }
    }
}
