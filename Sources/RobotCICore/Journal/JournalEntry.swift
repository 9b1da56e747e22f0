/// One line of `results.jsonl`: appended as results arrive, so a killed coordinator
/// loses nothing and `robotci report --results results.jsonl` can rebuild the report.
public enum JournalEntry: Codable, Sendable, Equatable {
    case run(RunMetadata)
    /// The tests the run must account for, written once discovery (and the partition split)
    /// is done, before any attempt.
    case plan(RunPlan)
    case attempt(test: TestID, quarantined: Bool, attempt: Attempt)
    case batch(BatchRecord)
    /// Written last, with the final wall time, when the run ends normally or is interrupted.
    case finished(RunMetadata)

    private enum CodingKeys: String, CodingKey { case type, format, run, plan, test, quarantined, attempt, batch }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        switch try c.decode(String.self, forKey: .type) {
        case "run": self = .run(try c.decode(RunMetadata.self, forKey: .run))
        case "finished": self = .finished(try c.decode(RunMetadata.self, forKey: .run))
        case "plan": self = .plan(try c.decode(RunPlan.self, forKey: .plan))
        case "batch": self = .batch(try c.decode(BatchRecord.self, forKey: .batch))
        case "attempt":
            self = .attempt(
                test: try c.decode(TestID.self, forKey: .test),
                quarantined: try c.decodeIfPresent(Bool.self, forKey: .quarantined) ?? false,
                attempt: try c.decode(Attempt.self, forKey: .attempt))
        case let other:
            throw DecodingError.dataCorruptedError(
                forKey: .type, in: c, debugDescription: "unknown journal entry type '\(other)'")
        }
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .run(let m):
            try c.encode("run", forKey: .type)
            // The journal's format marker, on its first line (readers check it before the rest).
            try c.encode(RunResult.formatName, forKey: .format)
            try c.encode(m, forKey: .run)
        case .finished(let m):
            try c.encode("finished", forKey: .type)
            try c.encode(m, forKey: .run)
        case .plan(let p):
            try c.encode("plan", forKey: .type)
            try c.encode(p, forKey: .plan)
        case .batch(let b):
            try c.encode("batch", forKey: .type)
            try c.encode(b, forKey: .batch)
        case .attempt(let test, let quarantined, let attempt):
            try c.encode("attempt", forKey: .type)
            try c.encode(test, forKey: .test)
            if quarantined { try c.encode(true, forKey: .quarantined) }
            try c.encode(attempt, forKey: .attempt)
        }
    }
}

extension RunResult {
    /// Rebuilds a run from its journal entries (in the order they were written).
    /// A journal cut short (no `finished` entry) yields a result marked interrupted; with a
    /// plan entry, planned tests the journal has no result for are `notRun`.
    public init(journal: [JournalEntry]) {
        var metadata = RunMetadata(runID: "unknown", startedAt: 0, wallTime: 0, shards: 0, retries: 0, robotciVersion: "")
        metadata.interrupted = true
        var assembly = RunAssembly()
        var finished = false
        for entry in journal {
            switch entry {
            case .run(let m): metadata = m
            case .plan(let p): assembly.setPlan(p)
            case .finished(let m):
                metadata = m
                finished = true
            case .batch(let b): assembly.add(b)
            case .attempt(let test, let q, let a): assembly.add(test, quarantined: q, attempt: a)
            }
        }
        if !finished {
            metadata.interrupted = true
            metadata.wallTime = max(metadata.wallTime, assembly.latestEnd)
        }
        let reason = finished
            ? metadata.stop?.notRunReason ?? "the journal has no result for it"
            : "the run ended (killed, or its journal was cut short) before this test had a result"
        self = assembly.result(metadata: metadata) { _ in reason }
    }
}
