/// Why a run stopped before its plan ran out. Decided once per run (the runner's
/// `RunInterruption`, the first stop wins), stored as data in results.json's metadata and in
/// every batch it ended (`BatchEnd.stopped`), and read as data by the report, the history
/// (a stopped run's durations are not timings) and the exit code (a signal is 130).
public enum RunStop: Hashable, Sendable {
    /// SIGINT or SIGTERM: the report is partial.
    case signal
    /// `--max-failures N`: N tests failed for good.
    case maxFailures(Int)
    /// A stop this robotci did not decide and cannot name: another machine of a queue run
    /// stopped it, or a report written before stops were data says so in words.
    case described(String)

    /// True for SIGINT/SIGTERM: the report is partial and the exit code 130.
    public var isSignal: Bool { self == .signal }

    /// One line for the console and the report: what stopped the run.
    public var summary: String {
        switch self {
        case .signal: "interrupted (SIGINT/SIGTERM)"
        case .maxFailures(let n): "--max-failures \(n) reached (\(n) test\(n == 1 ? "" : "s") failed for good)"
        case .described(let text): text.components(separatedBy: ";").first ?? text
        }
    }

    /// Why a test this stop left without a result has none: its `notRun` failure message.
    public var notRunReason: String {
        switch self {
        case .signal: "the run was interrupted (SIGINT/SIGTERM) before this test had a result"
        case .maxFailures: summary + "; robotci stopped the run before this test had a result"
        case .described(let text): text
        }
    }
}

/// `{"by": "signal"}`, `{"by": "maxFailures", "limit": 3}`, `{"by": "described", "reason": "…"}`.
extension RunStop: Codable {
    private enum Key: String, CodingKey { case by, limit, reason }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: Key.self)
        switch try c.decode(String.self, forKey: .by) {
        case "signal": self = .signal
        case "maxFailures": self = .maxFailures(try c.decode(Int.self, forKey: .limit))
        case "described": self = .described(try c.decode(String.self, forKey: .reason))
        case let other:
            throw DecodingError.dataCorruptedError(forKey: .by, in: c, debugDescription: "unknown run stop '\(other)': expected signal, maxFailures or described")
        }
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        switch self {
        case .signal: try c.encode("signal", forKey: .by)
        case .maxFailures(let n):
            try c.encode("maxFailures", forKey: .by)
            try c.encode(n, forKey: .limit)
        case .described(let text):
            try c.encode("described", forKey: .by)
            try c.encode(text, forKey: .reason)
        }
    }
}
