import Foundation

/// What joining a queue found. The run's nonce is random per run: every later script checks
/// it, so a machine never writes into another run that reuses the name (or into a Redis
/// rolled back to an earlier run).
public enum QueueJoin: Equatable, Sendable {
    /// This machine was first: it stored the plan (with `nonce`) and pushed the batches.
    case planned(nonce: String)
    /// The run `nonce` is going on: lease from it.
    case joined(nonce: String)
    /// The run `nonce` is over (a lease found the queue empty at `at`), or a machine found it
    /// lost (`lost`). A machine may re-open it for its tests that did not pass
    /// (`RedisQueue.reopen`).
    case finished(nonce: String, at: Date, lost: Bool)

    public var nonce: String {
        switch self {
        case .planned(let n), .joined(let n), .finished(let n, _, _): return n
        }
    }
}

/// Why this machine can no longer trust the queue. Always exit 2: the tests this machine
/// did not run may have run nowhere, and the whole run's verdict cannot be known.
public struct QueueLost: Error, Equatable, CustomStringConvertible, Sendable {
    public enum Kind: Equatable, Sendable {
        /// The plan key is gone (FLUSHALL, a restart without persistence, eviction, DEL).
        case vanished
        /// The plan is another run's (another nonce): the name was reused, or Redis was
        /// rolled back to an earlier run.
        case replaced(nonce: String)
        /// Another machine of this run found it lost and put back what it had.
        case marked
        /// A queued batch has no body any more (the batches key was evicted).
        case batchMissing(id: Int)
        /// A leased batch holds tests this machine did not discover.
        case tampered
        /// Redis stayed unreachable after the back-off.
        case unreachable
    }

    public var kind: Kind
    public var message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }

    /// Whether the run's keys may be put back from this machine's results (the plan is
    /// gone or already marked lost; never over a live or foreign plan).
    public var canSalvage: Bool {
        switch kind {
        case .vanished, .marked, .batchMissing: return true
        case .replaced, .tampered, .unreachable: return false
        }
    }
}
