import Foundation
import ProcessToolkit
import RobotCICore
import RobotCIReport
import StandardStreams

/// Collects attempts as they arrive: the journal, the console's progress, and what the
/// report gets at the end (a `RunAssembly`, which holds the accounting rule). It never
/// decides retries (`AttemptRouter` does, and says so).
final class RunRecorder: Sendable {
    private struct State {
        var assembly: RunAssembly
        /// The highest repetition (`--repeat-each`) with a recorded attempt.
        var highestRepetition = 0
    }

    private let state: Locked<State>
    private let journal: JournalWriter
    private let quarantine: @Sendable (TestID) -> Bool
    let progress: Progress
    private let redactor: SecretRedactor
    /// How the journal and the console name a test (`SecretRedactor.renaming`): a token in an
    /// id is masked there as it is in the report files.
    private let rename: @Sendable (TestID) -> TestID
    /// The highest repetition (`--repeat-each`) with a recorded attempt; 0 without repetitions.
    var highestRepetition: Int { state.withLock { $0.highestRepetition } }

    /// `plan`: the tests this machine must account for (nil in queue mode, where the queue
    /// accounts for the whole run and this machine reports only what it ran).
    init(journal: JournalWriter, plan: RunPlan?, quarantine: @escaping @Sendable (TestID) -> Bool, progress: Progress,
         redactor: SecretRedactor = SecretRedactor(environment: [:]), rename: @escaping @Sendable (TestID) -> TestID = { $0 }) {
        self.redactor = redactor
        self.rename = rename
        self.journal = journal
        self.quarantine = quarantine
        self.progress = progress
        state = Locked(State(assembly: RunAssembly(plan: plan)))
        if let plan { journal.append(.plan(plan.renamingTests(rename))) }
    }

    /// Journals the attempt, then hands it to `retry` (every attempt: a queue source stores
    /// passes too), which says whether it runs again (for the progress line), so an attempt
    /// is in the journal before its retry can be. An attempt of an unplanned test is refused.
    /// Returns true when the attempt failed for good: a failure, not retried, not quarantined.
    @discardableResult
    func record(_ test: TestID, _ attempt: Attempt, retry: (Attempt) -> Bool = { _ in false }) -> Bool {
        let attempt = redactor.redact(attempt)
        let quarantined = quarantine(test)
        let accepted: [Attempt]? = state.withLock { s in
            guard s.assembly.add(test, quarantined: quarantined, attempt: attempt) else { return nil }
            s.highestRepetition = max(s.highestRepetition, test.repetition?.index ?? 0)
            return s.assembly.attempts(of: test)
        }
        guard let all = accepted else {
            StandardStream.error.write("robotci: warning: refused a result for \(rename(test)), which this run did not plan\n")
            return false
        }
        journal.append(.attempt(test: rename(test), quarantined: quarantined, attempt: attempt))
        let retrying = retry(attempt) && attempt.outcome.isFailure
        progress.attemptFinished(rename(test), attempt: attempt, history: all, retrying: retrying, quarantined: quarantined)
        return attempt.outcome.isFailure && !retrying && !quarantined
    }

    func isQuarantined(_ test: TestID) -> Bool { quarantine(test) }

    /// A test that ends this run without a result, and why (kept unless a result comes later).
    func notRun(_ test: TestID, reason: String) {
        state.withLock { $0.assembly.markNotRun(test, reason: reason) }
    }

    /// Tests the run no longer plans (`--until-failure`: repetitions that never began): the
    /// smaller plan is journaled, so a rebuild accounts for the same tests.
    func withdraw(_ tests: [TestID]) {
        guard !tests.isEmpty else { return }
        let plan: RunPlan? = state.withLock { s in
            guard let old = s.assembly.plan else { return nil }
            let gone = Set(tests)
            let smaller = RunPlan(tests: old.tests.filter { !gone.contains($0) }, partition: old.partition)
            s.assembly.setPlan(smaller)
            return smaller
        }
        if let plan { journal.append(.plan(plan.renamingTests(rename))) }
        progress.withdraw(tests.map(rename))
    }

    func record(_ batch: BatchRecord) {
        var named = batch
        named.tests = batch.tests.map(rename)
        journal.append(.batch(named))
        state.withLock { $0.assembly.add(batch) }
    }

    /// The run as recorded: a planned test without a result is `notRun`, for `notRunReason`.
    func result(metadata: RunMetadata, notRunReason: (TestID) -> String) -> RunResult {
        let assembly = state.withLock { $0.assembly }
        return assembly.result(metadata: metadata, isQuarantined: quarantine, notRunReason: notRunReason)
    }
}
