/// How a batch's process ended, decided in one place (`BatchRun.end`, for both drivers).
/// Stored as data in results.json and the journal (`{"exit": 0}`, `{"stopped": {"by":
/// "signal"}}`, …) and given to the report as data (a clean exit is a flag, not a text to
/// match); the description (`exit 0`, `killed (test timeout 30 s)`) is what a person reads.
/// Reports written before it was data stored the description: it reads back (`init(_:)`), and
/// a text this version does not know is kept as it is (`other`).
public enum BatchEnd: Sendable, Hashable, CustomStringConvertible {
    /// The process exited by itself with this status.
    case exited(Int32)
    /// The process died of this signal, not sent by robotci.
    case signaled(Int32)
    /// robotci killed it: a test ran past its timeout (seconds).
    case testTimeout(seconds: Int)
    /// robotci killed it: the whole batch ran past its budget (seconds; command driver).
    case batchTimeout(seconds: Int)
    /// robotci killed it: the run stopped (SIGINT/SIGTERM, `--max-failures`, another machine).
    case stopped(RunStop)
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
        case .stopped(.signal): "killed (interrupted)"
        case .stopped(let stop): "killed (run stopped: \(stop.summary))"
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
        } else if description == "killed (interrupted)" {
            self = .stopped(.signal)
        } else if let summary = number(after: "killed (run stopped: ", before: ")") {
            self = .stopped(summary.hasPrefix("--max-failures ") ? Self.maxFailures(in: summary) : .described(summary))
        } else if description == "killed (run stopped early)" {  // before stops were data
            self = .stopped(.described("the run stopped early"))
        } else {
            self = description == BatchEnd.spawnFailed.description ? .spawnFailed : .other(description)
        }
    }
}

extension BatchEnd {
    /// `.maxFailures(N)` from its summary, `--max-failures N reached (…)`.
    private static func maxFailures(in summary: String) -> RunStop {
        let n = summary.dropFirst("--max-failures ".count).prefix { $0.isNumber }
        return Int(n).map { .maxFailures($0) } ?? .described(summary)
    }
}

/// One key naming the end, with its number or stop: `{"exit": 0}`, `{"signal": 9}`,
/// `{"testTimeout": 30}`, `{"batchTimeout": 60}`, `{"stopped": {"by": "signal"}}`,
/// `{"spawnFailed": true}`, `{"other": "…"}`. A string is a report written before ends were
/// data: its description.
extension BatchEnd: Codable {
    private enum Key: String, CodingKey { case exit, signal, testTimeout, batchTimeout, stopped, spawnFailed, other }

    public init(from decoder: Decoder) throws {
        if let text = try? decoder.singleValueContainer().decode(String.self) {
            self.init(text)
            return
        }
        let c = try decoder.container(keyedBy: Key.self)
        guard let key = c.allKeys.first, c.allKeys.count == 1 else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "a batch end has one key (exit, signal, testTimeout, batchTimeout, stopped, spawnFailed or other)"))
        }
        switch key {
        case .exit: self = .exited(try c.decode(Int32.self, forKey: key))
        case .signal: self = .signaled(try c.decode(Int32.self, forKey: key))
        case .testTimeout: self = .testTimeout(seconds: try c.decode(Int.self, forKey: key))
        case .batchTimeout: self = .batchTimeout(seconds: try c.decode(Int.self, forKey: key))
        case .stopped: self = .stopped(try c.decode(RunStop.self, forKey: key))
        case .spawnFailed: self = .spawnFailed
        case .other: self = .other(try c.decode(String.self, forKey: key))
        }
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        switch self {
        case .exited(let code): try c.encode(code, forKey: .exit)
        case .signaled(let signal): try c.encode(signal, forKey: .signal)
        case .testTimeout(let seconds): try c.encode(seconds, forKey: .testTimeout)
        case .batchTimeout(let seconds): try c.encode(seconds, forKey: .batchTimeout)
        case .stopped(let stop): try c.encode(stop, forKey: .stopped)
        case .spawnFailed: try c.encode(true, forKey: .spawnFailed)
        case .other(let text): try c.encode(text, forKey: .other)
        }
    }
}

/// Tests and fixtures spell an end as its text: `termination: "exit 0"`.
extension BatchEnd: ExpressibleByStringLiteral {
    public init(stringLiteral value: String) {
        self.init(value)
    }
}
