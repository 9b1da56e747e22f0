/// Assembles a run from its parts, whoever has them: the live recorder, a journal rebuild,
/// a queue snapshot, a merge. The accounting rule lives here, once: with a plan, every
/// planned test ends with exactly one verdict (`notRun`, with its reason, when no attempt
/// has a result), and a result for a test outside the plan is refused, not reported.
public struct RunAssembly: Sendable {
    public private(set) var plan: RunPlan?
    private var planned: Set<TestID>?
    private var attempts: [TestID: [Attempt]] = [:]
    private var quarantined: Set<TestID> = []
    private var refusedSet: Set<TestID> = []
    /// Why a test has no result, said where that became known (used if none arrives later).
    private var notRunReasons: [TestID: String] = [:]
    public private(set) var batches: [BatchRecord] = []

    public init(plan: RunPlan? = nil) {
        setPlan(plan)
    }

    /// Sets (or replaces) the plan; results already added outside it are refused.
    public mutating func setPlan(_ plan: RunPlan?) {
        self.plan = plan
        planned = plan.map { Set($0.tests) }
        guard let planned else { return }
        for id in attempts.keys where !planned.contains(id) {
            attempts[id] = nil
            refusedSet.insert(id)
        }
    }

    /// Adds one attempt of `test`; false (and remembered as refused) when the plan does not
    /// have the test.
    @discardableResult
    public mutating func add(_ test: TestID, quarantined q: Bool, attempt: Attempt) -> Bool {
        if let planned, !planned.contains(test) {
            refusedSet.insert(test)
            return false
        }
        attempts[test, default: []].append(attempt)
        if q { quarantined.insert(test) }
        return true
    }

    public mutating func add(_ batch: BatchRecord) { batches.append(batch) }

    /// Records why `test` has no result (a later attempt, if one comes, still wins).
    public mutating func markNotRun(_ test: TestID, reason: String) { notRunReasons[test] = reason }

    /// The attempts of `test` so far, in the order they were added.
    public func attempts(of test: TestID) -> [Attempt] { attempts[test] ?? [] }

    /// When the last batch or attempt ended (run clock): a cut-short run's wall time.
    public var latestEnd: Double {
        max(batches.map(\.end).max() ?? 0, attempts.values.joined().map { $0.start + $0.duration }.max() ?? 0)
    }

    /// Tests results were refused for, sorted.
    public var refused: [TestID] { refusedSet.sorted() }

    /// Planned tests that have no attempt yet.
    public var missing: [TestID] { (plan?.tests ?? []).filter { attempts[$0] == nil } }

    /// The run: every test once (sorted), attempts in the order added, batches by id; each
    /// planned test without a result is `notRun` with `notRunReason(test)`.
    public func result(metadata: RunMetadata, isQuarantined: (TestID) -> Bool = { _ in false },
                       notRunReason: (TestID) -> String) -> RunResult {
        let ids = plan?.tests ?? attempts.keys.sorted()
        let tests = ids.map { id -> TestRecord in
            let q = quarantined.contains(id) || isQuarantined(id)
            guard let list = attempts[id], !list.isEmpty else {
                return .notRun(id, reason: notRunReasons[id] ?? notRunReason(id), quarantined: q)
            }
            return TestRecord(id: id, attempts: list, quarantined: q)
        }
        return RunResult(metadata: metadata, tests: tests, batches: batches.sorted { $0.id < $1.id }, plan: plan,
                         refused: refusedSet.isEmpty ? nil : refused)
    }
}
