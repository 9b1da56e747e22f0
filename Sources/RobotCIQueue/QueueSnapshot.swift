import RobotCICore

/// A whole queue run as Redis holds it, and the one report made from it.
public struct QueueSnapshot: Sendable {
    /// Tests the plan had.
    public var plannedTests: Int
    /// Run metadata per machine id (start time, shards, wall time when it finished).
    public var machines: [String: RunMetadata] = [:]
    /// Every attempt, once per test and attempt number, labelled with its machine.
    public var attempts: [(test: TestID, quarantined: Bool, attempt: Attempt)] = []
    /// Every batch process of every machine.
    public var batches: [BatchRecord] = []

    public init(plannedTests: Int) { self.plannedTests = plannedTests }

    /// One run: machines on one clock (each machine's times are from its own start),
    /// batch ids made unique across machines, a test's attempts in attempt order.
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
        var byTest: [TestID: [Attempt]] = [:]
        var quarantined: Set<TestID> = []
        for (test, q, a) in attempts {
            var a = a
            a.start += shift(a.machine)
            a.batch = newID[batchKey(a.machine, a.batch)] ?? a.batch
            // Attachments stay in each machine's own report folder.
            a.artifacts = []
            byTest[test, default: []].append(a)
            if q { quarantined.insert(test) }
        }
        let tests = byTest.keys.sorted().map { id in
            TestRecord(id: id, attempts: (byTest[id] ?? []).sorted { $0.number < $1.number }, quarantined: quarantined.contains(id))
        }
        let labels = machines.keys.sorted()
        let first = labels.first.flatMap { machines[$0] }
        let end = machines.values.map { $0.startedAt - origin + $0.wallTime }.max() ?? 0
        let lastEnd = batches.map(\.end).max() ?? 0
        let metadata = RunMetadata(
            runID: "queue:\(runName)", startedAt: origin, wallTime: max(end, lastEnd),
            shards: machines.values.reduce(0) { $0 + $1.shards }, retries: first?.retries ?? 0,
            robotciVersion: first?.robotciVersion ?? "", commandLine: commandLine, gitCommit: first?.gitCommit,
            gitBranch: first?.gitBranch, hostname: nil, partition: nil, machines: labels,
            interrupted: machines.values.contains { $0.interrupted } || tests.count < plannedTests)
        return RunResult(metadata: metadata, tests: tests, batches: batches)
    }
}
