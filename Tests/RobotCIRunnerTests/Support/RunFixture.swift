import Foundation
import RobotCICore
import RobotCIReport
@testable import RobotCIRunner
import XCTest

/// What `Runner.run` wires for one machine, without shards or processes: a report folder in
/// a temporary directory, its journal, a `RunRecorder`, a `WorkQueue` and an `AttemptRouter`
/// over them. Unit tests of the execution types drive it from one thread.
final class RunFixture {
    let directory: URL
    let layout: ReportLayout
    let recorder: RunRecorder
    let queue: WorkQueue
    let router: AttemptRouter
    let clock = RunClock()

    /// `plan`: the tests the recorder accounts for (default: `tests`); `queueMode`: no plan at all.
    init(tests: [TestID], plan: [TestID]? = nil, queueMode: Bool = false, shards: Int = 1, rules: TestRules = TestRules(retries: 0),
         maxFailures: Int? = nil, quarantined: Set<TestID> = [], cutter: BatchCutter = BatchCutter(batchesPerShard: 0.5),
         redactor: SecretRedactor = SecretRedactor(environment: [:])) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("robotci-unit-\(UUID().uuidString.prefix(8))")
        layout = ReportLayout(directory: directory)
        try layout.prepare()
        let journal = try JournalWriter(url: layout.journal)
        let planned: [TestID]? = queueMode ? nil : plan ?? tests
        recorder = RunRecorder(journal: journal, plan: planned.map { RunPlan(tests: $0) }, quarantine: { quarantined.contains($0) },
                               progress: Progress(total: tests.count, shards: shards, clock: clock, environment: ["CI": "true"]),
                               redactor: redactor)
        queue = WorkQueue(planned: Planner.order(tests, timings: Timings()), shards: shards, rules: rules, cutter: cutter)
        router = AttemptRouter(recorder: recorder, queue: queue, layout: layout,
                               policy: AttemptRouter.Policy(rules: rules, maxFailures: maxFailures))
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    /// The run as the report would get it; a planned test without a result is `notRun` "no result".
    func result() -> RunResult {
        recorder.result(metadata: RunMetadata(runID: "unit", startedAt: 1_700_000_000, wallTime: 1, shards: 1, retries: 0,
                                              robotciVersion: "t")) { _ in "no result" }
    }

    /// Every entry of results.jsonl, in order.
    func journal() throws -> [JournalEntry] {
        let text = try String(contentsOf: layout.journal, encoding: .utf8)
        return try text.split(separator: "\n").map { try JSONDecoder().decode(JournalEntry.self, from: Data($0.utf8)) }
    }

    /// A batch of `item` on `shard` as `BatchExecutor` prepares it: its artifacts folder and log.
    func batch(_ item: WorkItem, shard: Int = 0) throws -> BatchRun {
        let artifacts = layout.workDirectory.appendingPathComponent("batch-\(item.id)")
        try FileManager.default.createDirectory(at: artifacts, withIntermediateDirectories: true)
        let logPath = layout.batchLogPath(item.id)
        let log = BatchLog(path: directory.appendingPathComponent(logPath).path, redactor: SecretRedactor(environment: [:]))
        let context = RunContext(runID: "unit", layout: layout, clock: clock, router: router, history: Timings(),
                                 redactor: SecretRedactor(environment: [:]))
        return BatchRun(item: item, slot: BatchRun.Slot(shard: shard, ports: PortAllocator.ShardPorts(mock: 9100, webDriver: 9200)),
                        environment: [:], files: BatchRun.Files(artifactsDirectory: artifacts, logPath: logPath, log: log),
                        start: clock.now(), context: context)
    }

    /// The batch's log as written so far (closes it first).
    func log(of batch: BatchRun) throws -> String {
        batch.log.close()
        return try String(contentsOf: directory.appendingPathComponent(batch.logPath), encoding: .utf8)
    }
}

/// Attempts as drivers make them.
enum Attempts {
    static func passed(_ number: Int = 1, shard: Int = 0, batch: Int = 0, output: String = "") -> Attempt {
        Attempt(number: number, outcome: .passed, duration: 0.5, start: 0, placement: .init(shard: shard, batch: batch),
                evidence: .init(output: output))
    }

    static func failed(_ number: Int = 1, _ message: String = "XCTAssertTrue failed", outcome: AttemptOutcome = .failed,
                       shard: Int = 0, batch: Int = 0, output: String = "") -> Attempt {
        Attempt(number: number, outcome: outcome, duration: 0.5, start: 0, placement: .init(shard: shard, batch: batch),
                evidence: .init(failures: [FailureMessage(message: message)], output: output))
    }
}
