/// How a batch's process ended. Stored as its description (`exit 0`, `signal 9`,
/// `killed (test timeout 30 s)`, …) in results.json, the journal and the report, so reports
/// written before this type existed read back unchanged; a text this version does not know
/// is kept as it is (`other`).
public enum BatchEnd: Sendable, Hashable, CustomStringConvertible {
    /// The process exited by itself with this status.
    case exited(Int32)
    /// The process died of this signal, not sent by robotci.
    case signaled(Int32)
    /// robotci killed it: a test ran past its timeout (seconds).
    case testTimeout(seconds: Int)
    /// robotci killed it: the whole batch ran past its budget (seconds; command driver).
    case batchTimeout(seconds: Int)
    /// robotci killed it: the run stopped early (`--max-failures`).
    case stoppedEarly
    /// robotci killed it: SIGINT/SIGTERM.
    case interrupted
    /// The process could not be started.
    case spawnFailed
    /// A description of an end this version does not name (another version's report).
    case other(String)

    /// Whether the process ran to its end and exited 0.
    public var isCleanExit: Bool { self == .exited(0) }

    public var description: String {
        switch self {
        case .exited(let code): "exit \(code)"
        case .signaled(let signal): "signal \(signal)"
        case .testTimeout(let seconds): "killed (test timeout \(seconds) s)"
        case .batchTimeout(let seconds): "killed (batch timeout \(seconds) s)"
        case .stoppedEarly: "killed (run stopped early)"
        case .interrupted: "killed (interrupted)"
        case .spawnFailed: "spawn failed"
        case .other(let text): text
        }
    }

    /// The end a description stands for: the inverse of `description`.
    public init(_ description: String) {
        func number(after prefix: String, before suffix: String = "") -> String? {
            guard description.hasPrefix(prefix), description.hasSuffix(suffix),
                  description.count > prefix.count + suffix.count else { return nil }
            return String(description.dropFirst(prefix.count).dropLast(suffix.count))
        }
        if let code = number(after: "exit ").flatMap(Int32.init) {
            self = .exited(code)
        } else if let signal = number(after: "signal ").flatMap(Int32.init) {
            self = .signaled(signal)
        } else if let seconds = number(after: "killed (test timeout ", before: " s)").flatMap(Int.init) {
            self = .testTimeout(seconds: seconds)
        } else if let seconds = number(after: "killed (batch timeout ", before: " s)").flatMap(Int.init) {
            self = .batchTimeout(seconds: seconds)
        } else {
            self = [BatchEnd.stoppedEarly, .interrupted, .spawnFailed].first { $0.description == description } ?? .other(description)
        }
    }
}

extension BatchEnd: Codable {
    public init(from decoder: Decoder) throws {
        self.init(try decoder.singleValueContainer().decode(String.self))
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(description)
    }
}

/// Tests and fixtures spell an end as its text: `termination: "exit 0"`.
extension BatchEnd: ExpressibleByStringLiteral {
    public init(stringLiteral value: String) {
        self.init(value)
    }
}
