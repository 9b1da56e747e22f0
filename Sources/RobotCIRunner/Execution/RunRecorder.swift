import Foundation
import RobotCICore
import RobotCIReport

/// Collects attempts as they arrive: the journal, the console's progress, and what the
/// report gets at the end (a `RunAssembly`, which holds the accounting rule). It never
/// decides retries (`AttemptRouter` does, and says so).
final class RunRecorder: @unchecked Sendable {
    private let lock = NSLock()
    private var assembly: RunAssembly
    private let journal: JournalWriter
    private let quarantine: (TestID) -> Bool
    let progress: Progress
    private let redactor: SecretRedactor

    /// `plan`: the tests this machine must account for (nil in queue mode, where the queue
    /// accounts for the whole run and this machine reports only what it ran).
    init(journal: JournalWriter, plan: RunPlan?, quarantine: @escaping (TestID) -> Bool, progress: Progress,
         redactor: SecretRedactor = SecretRedactor(environment: [:])) {
        self.redactor = redactor
        self.journal = journal
        self.quarantine = quarantine
        self.progress = progress
        assembly = RunAssembly(plan: plan)
        if let plan { journal.append(.plan(plan)) }
    }

    /// Journals the attempt, then hands it to `retry` (every attempt: a queue source stores
    /// passes too), which says whether it runs again (for the progress line), so an attempt
    /// is in the journal before its retry can be. An attempt of an unplanned test is refused.
    /// Returns true when the attempt failed for good: a failure, not retried, not quarantined.
    @discardableResult
    func record(_ test: TestID, _ attempt: Attempt, retry: (Attempt) -> Bool = { _ in false }) -> Bool {
        let attempt = redactor.redact(attempt)
        let quarantined = quarantine(test)
        let accepted: [Attempt]? = lock.withLock {
            assembly.add(test, quarantined: quarantined, attempt: attempt) ? assembly.attempts(of: test) : nil
        }
        guard let all = accepted else {
            FileHandle.standardError.write(Data("robotci: warning: refused a result for \(test.rawValue), which this run did not plan\n".utf8))
            return false
        }
        journal.append(.attempt(test: test, quarantined: quarantined, attempt: attempt))
        let retrying = retry(attempt) && attempt.outcome.isFailure
        progress.attemptFinished(test, attempt: attempt, history: all, retrying: retrying, quarantined: quarantined)
        return attempt.outcome.isFailure && !retrying && !quarantined
    }

    func isQuarantined(_ test: TestID) -> Bool { quarantine(test) }

    /// A test that ends this run without a result, and why (kept unless a result comes later).
    func notRun(_ test: TestID, reason: String) {
        lock.withLock { assembly.markNotRun(test, reason: reason) }
    }

    func record(_ batch: BatchRecord) {
        journal.append(.batch(batch))
        lock.withLock { assembly.add(batch) }
    }

    /// The run as recorded: a planned test without a result is `notRun`, for `notRunReason`.
    func result(metadata: RunMetadata, notRunReason: (TestID) -> String) -> RunResult {
        let assembly = lock.withLock { self.assembly }
        return assembly.result(metadata: metadata, isQuarantined: quarantine, notRunReason: notRunReason)
    }
}
