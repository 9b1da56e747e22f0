import Foundation
import RobotCICore
import RobotCIReport

/// Collects attempts as they arrive: the journal, the console's progress, and what the
/// report gets at the end. It never decides retries (`AttemptRouter` does, and says so).
final class RunRecorder: @unchecked Sendable {
    private let lock = NSLock()
    private var attempts: [TestID: [Attempt]] = [:]
    private var order: [TestID] = []
    private var batches: [BatchRecord] = []
    private let journal: JournalWriter
    private let quarantine: (TestID) -> Bool
    let progress: Progress
    private let redactor: SecretRedactor

    init(journal: JournalWriter, quarantine: @escaping (TestID) -> Bool, progress: Progress, redactor: SecretRedactor = SecretRedactor(environment: [:])) {
        self.redactor = redactor
        self.journal = journal
        self.quarantine = quarantine
        self.progress = progress
    }

    /// Journals the attempt, then hands it to `retry` (every attempt: a queue source stores
    /// passes too), which says whether it runs again (for the progress line), so an attempt
    /// is in the journal before its retry can be.
    func record(_ test: TestID, _ attempt: Attempt, retry: (Attempt) -> Bool = { _ in false }) {
        let attempt = redactor.redact(attempt)
        let quarantined = quarantine(test)
        journal.append(.attempt(test: test, quarantined: quarantined, attempt: attempt))
        let retrying = retry(attempt) && attempt.outcome.isFailure
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
    }

    func snapshot() -> (tests: [TestRecord], batches: [BatchRecord]) {
        lock.withLock {
            let tests = order.sorted().map { TestRecord(id: $0, attempts: attempts[$0] ?? [], quarantined: quarantine($0)) }
            return (tests, batches.sorted { $0.id < $1.id })
        }
    }
}
