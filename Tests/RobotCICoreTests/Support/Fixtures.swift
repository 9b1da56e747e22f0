import RobotCICore

/// An attempt with only the fields a test cares about set.
func attempt(
    _ outcome: AttemptOutcome, number: Int = 1, duration: Double = 1, start: Double = 0, shard: Int = 0,
    failures: [FailureMessage] = []
) -> Attempt {
    Attempt(number: number, outcome: outcome, duration: duration, start: start, placement: .init(shard: shard, batch: 0),
            evidence: .init(failures: failures))
}

func metadata(runID: String = "run-1", wallTime: Double = 0, interrupted: Bool = false) -> RunMetadata {
    var metadata = RunMetadata(runID: runID, startedAt: 1_700_000_000, wallTime: wallTime, shards: 2, retries: 2,
                               robotciVersion: "0.1.0")
    metadata.commandLine = ["robotci", "run"]
    metadata.interrupted = interrupted
    return metadata
}

/// Deterministic PRNG (SplitMix64) so generated suites are the same on every run.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
