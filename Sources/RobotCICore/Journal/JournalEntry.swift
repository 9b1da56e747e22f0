/// One line of `results.jsonl`: appended as results arrive, so a killed coordinator
/// loses nothing and `robotci report --results results.jsonl` can rebuild the report.
public enum JournalEntry: Codable, Sendable, Equatable {
    case run(RunMetadata)
    case attempt(test: TestID, quarantined: Bool, attempt: Attempt)
    case batch(BatchRecord)
    /// Written last, with the final wall time, when the run ends normally or is interrupted.
    case finished(RunMetadata)

    private enum CodingKeys: String, CodingKey { case type, format, run, test, quarantined, attempt, batch }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        switch try c.decode(String.self, forKey: .type) {
        case "run": self = .run(try c.decode(RunMetadata.self, forKey: .run))
        case "finished": self = .finished(try c.decode(RunMetadata.self, forKey: .run))
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
    /// A journal cut short (no `finished` entry) yields a result marked interrupted.
    public init(journal: [JournalEntry]) {
        var metadata = RunMetadata(
            runID: "unknown", startedAt: 0, wallTime: 0, shards: 0, retries: 0, robotciVersion: "",
            commandLine: [], interrupted: true)
        var order: [TestID] = []
        var attempts: [TestID: [Attempt]] = [:]
        var quarantined: Set<TestID> = []
        var batches: [BatchRecord] = []
        var finished = false
        for entry in journal {
            switch entry {
            case .run(let m):
                metadata = m
            case .finished(let m):
                metadata = m
                finished = true
            case .batch(let b):
                batches.append(b)
            case .attempt(let test, let q, let a):
                if attempts[test] == nil { order.append(test) }
                attempts[test, default: []].append(a)
                if q { quarantined.insert(test) }
            }
        }
        if !finished {
            metadata.interrupted = true
            let lastEnd = max(batches.map(\.end).max() ?? 0,
                              attempts.values.flatMap { $0 }.map { $0.start + $0.duration }.max() ?? 0)
            metadata.wallTime = max(metadata.wallTime, lastEnd)
        }
        let tests = order.sorted().map { id in
            TestRecord(id: id, attempts: attempts[id] ?? [], quarantined: quarantined.contains(id))
        }
        self.init(metadata: metadata, tests: tests, batches: batches)
    }
}
