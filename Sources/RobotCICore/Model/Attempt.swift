@_exported import WorkerContract

/// One `file:line: error: …` reported by a test, or the reason robotci ended it.
public struct FailureMessage: Codable, Sendable, Equatable {
    /// Source file as the test printed it (absolute on the machine that ran it).
    public var file: String?
    public var line: Int?
    public var message: String

    public init(file: String? = nil, line: Int? = nil, message: String) {
        self.file = file
        self.line = line
        self.message = message
    }
}

/// A file a test attempt left behind (screenshot, DOM, mock journal, steps, log).
public struct Artifact: Codable, Sendable, Equatable {
    /// What it is: `screenshot`, `accessibility`, `html`, `console`, `mock`, `steps`, `log`, `other`.
    public var kind: Kind
    /// Path relative to the report folder, e.g. `attachments/<run>/<test>/1/screenshot.png`.
    public var path: String

    public typealias Kind = ArtifactKind

    public init(kind: Kind, path: String) {
        self.kind = kind
        self.path = path
    }
}

/// One run of one test: its outcome, timing, where it ran and what it said.
public struct Attempt: Codable, Sendable, Equatable {
    /// 1 for the first try, 2… for retries.
    public var number: Int
    public var outcome: AttemptOutcome
    /// Seconds the test took (XCTest's own measure when it printed one).
    public var duration: Double
    /// Seconds from the run's start to this attempt's start (for the timeline).
    public var start: Double
    /// Shard (0-based) that ran it.
    /// Which of the run's shards ran it (0-based); `worker` in results.json (the format's name).
    public var shard: Int
    /// The batch (child process) it ran in.
    public var batch: Int
    /// Machine label when reports from several machines were merged.
    public var machine: String?
    public var failures: [FailureMessage]
    /// This test's own slice of the process output (truncated if huge).
    public var output: String
    public var artifacts: [Artifact]

    /// results.json keeps the format's field names (`worker` is the shard).
    enum CodingKeys: String, CodingKey {
        case number, outcome, duration, start, shard = "worker", batch, machine, failures, output, artifacts
    }

    /// An attempt from its parts: what happened and when, where it ran, what it left.
    public init(
        number: Int, outcome: AttemptOutcome, duration: Double, start: Double, placement: Placement,
        evidence: Evidence = Evidence()
    ) {
        self.number = number
        self.outcome = outcome
        self.duration = duration
        self.start = start
        shard = placement.shard
        batch = placement.batch
        machine = placement.machine
        failures = evidence.failures
        output = evidence.output
        artifacts = evidence.artifacts
    }

    /// Where an attempt ran.
    public struct Placement: Sendable, Equatable {
        /// Which of the run's shards ran it (0-based).
        public var shard: Int
        /// The batch (child process) it ran in.
        public var batch: Int
        /// Machine label when reports from several machines were merged.
        public var machine: String?

        public init(shard: Int, batch: Int, machine: String? = nil) {
            self.shard = shard
            self.batch = batch
            self.machine = machine
        }
    }

    /// What an attempt said and left behind.
    public struct Evidence: Sendable, Equatable {
        public var failures: [FailureMessage]
        /// The test's own slice of the process output.
        public var output: String
        public var artifacts: [Artifact]

        public init(failures: [FailureMessage] = [], output: String = "", artifacts: [Artifact] = []) {
            self.failures = failures
            self.output = output
            self.artifacts = artifacts
        }
    }
}
