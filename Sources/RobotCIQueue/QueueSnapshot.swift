import Foundation
import RobotCICore

/// A whole queue run as Redis holds it, and the one report made from it.
public struct QueueSnapshot: Sendable {
    /// Tests the plan had.
    public var plannedTests: Int
    /// Run metadata per machine id (start time, shards, wall time when it finished).
    public var machines: [String: RunMetadata] = [:]
    /// Every attempt, labelled with its machine; an attempt number twice when a batch ran on
    /// two machines (a lease ran out under a stalled one, which reported late).
    public var attempts: [(test: TestID, quarantined: Bool, attempt: Attempt)] = []
    /// Every batch process of every machine.
    public var batches: [BatchRecord] = []
    /// The run's nonce (its results are tagged with it; other runs' are not read).
    public var nonce = ""
    /// The tests the run must account for (the plan's sorted list; nil for a plan without
    /// one, which then cannot name what never ran).
    public var plan: RunPlan?
    /// When a lease first found the queue empty (nil: the run is still going, or was cut).
    public var finishedAt: Date?
    /// A machine found the run lost mid-run (its keys vanished) and put back what it had.
    public var lost = false
    /// Why a machine stopped the run early (`--max-failures`), if one did.
    public var stopped: String?

    public init(plannedTests: Int) { self.plannedTests = plannedTests }

    /// One run: machines on one clock (each machine's times are from its own start),
    /// batch ids made unique across machines, a test's attempts in attempt order and, within
    /// one attempt number, by start time (a pass and a late failure make the test flaky or failed, never passed).
    public func result(runName: String, commandLine: [String]) -> RunResult {
        let origin = machines.values.map(\.startedAt).filter { $0 > 0 }.min() ?? 0
        func shift(_ machine: String?) -> Double {
            guard let m = machine.flatMap({ machines[$0] }), m.startedAt > 0 else { return 0 }
            return m.startedAt - origin
        }
        // Batch ids are per machine: renumber them in (machine, id) order.
        var newID: [String: Int] = [:]
        func batchKey(_ machine: String?, _ id: Int) -> String { "\(machine ?? "")#\(id)" }
        var batches: [BatchRecord] = []
        for b in self.batches.sorted(by: { ($0.machine ?? "", $0.id) < ($1.machine ?? "", $1.id) }) {
            guard newID[batchKey(b.machine, b.id)] == nil else { continue }
            var b = b
            newID[batchKey(b.machine, b.id)] = batches.count
            let offset = shift(b.machine)
            b.id = batches.count
            b.start += offset
            b.end += offset
            batches.append(b)
        }
        // The one accounting rule (RunAssembly): every planned test gets one verdict, a
        // result for a test outside the plan is refused.
        var assembly = RunAssembly(plan: plan)
        let ordered = attempts.map { entry -> (test: TestID, quarantined: Bool, attempt: Attempt) in
            var a = entry.attempt
            a.start += shift(a.machine)
            return (entry.test, entry.quarantined, a)
        }.sorted {
            ($0.test, $0.attempt.number, $0.attempt.start, $0.attempt.machine ?? "") < ($1.test, $1.attempt.number, $1.attempt.start, $1.attempt.machine ?? "")
        }
        for (test, q, a) in ordered {
            var a = a
            a.batch = newID[batchKey(a.machine, a.batch)] ?? a.batch
            // Attachments stay in each machine's own report folder.
            a.artifacts = []
            assembly.add(test, quarantined: q, attempt: a)
        }
        batches.forEach { assembly.add($0) }
        let labels = machines.keys.sorted()
        let first = labels.first.flatMap { machines[$0] }
        let end = machines.values.map { $0.startedAt - origin + $0.wallTime }.max() ?? 0
        let lastEnd = batches.map(\.end).max() ?? 0
        var metadata = RunMetadata(
            runID: "queue:\(runName)", startedAt: origin, wallTime: max(end, lastEnd),
            shards: machines.values.reduce(0) { $0 + $1.shards }, retries: first?.retries ?? 0,
            robotciVersion: first?.robotciVersion ?? "")
        metadata.commandLine = commandLine
        metadata.gitCommit = first?.gitCommit
        metadata.gitBranch = first?.gitBranch
        metadata.machines = labels
        metadata.interrupted = lost || machines.values.contains { $0.interrupted } || assembly.missing.count > 0
        metadata.repetitions = RepetitionSummary.merged(labels.map { machines[$0]?.repetitions })
        let reason = notRunReason
        return assembly.result(metadata: metadata) { _ in reason }
    }

    /// Why a planned test has no result in the queue, from what the queue knows of the run.
    public var notRunReason: String {
        if let stopped { return stopped }
        if lost {
            return "the queue was lost mid-run (Redis lost its keys) and no machine put back a result for it"
        }
        if finishedAt != nil {
            return "the queue has no result for it: its batch was lost (an evicted or deleted key?)"
        }
        return "the queue has no result for it yet: the run is still going, or its machines stopped before it ran"
    }
}
