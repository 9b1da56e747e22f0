import Foundation

/// `Locked` with a condition variable, for the state threads block on: the runner's shards
/// waiting for a batch (`WorkQueue`, `RedisBatchSource`) or for a start
/// (`ConcurrencyGovernor`). A class that keeps such state in one holds only `let`s and is
/// checked `Sendable`.
public final class LockedCondition<Value>: @unchecked Sendable {
    private let condition = NSCondition()
    private var value: Value

    public init(_ value: Value) {
        self.value = value
    }

    public func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure) -> Result {
        condition.lock()
        defer { condition.unlock() }
        return try body(&value)
    }

    /// Runs `body` with the lock held until it returns a result. While it returns nil, the
    /// lock is released and the thread sleeps until a `broadcast` (or, with `interval`, at
    /// most that many seconds), then runs `body` again.
    public func wait<Result, Failure: Error>(checkingEvery interval: TimeInterval? = nil,
                                             until body: (inout Value) throws(Failure) -> Result?) throws(Failure) -> Result {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let result = try body(&value) { return result }
            if let interval {
                _ = condition.wait(until: Date(timeIntervalSinceNow: interval))
            } else {
                condition.wait()
            }
        }
    }

    /// Sleeps until a `broadcast`, or for `seconds` at most.
    public func sleep(atMost seconds: TimeInterval) {
        condition.lock()
        defer { condition.unlock() }
        _ = condition.wait(until: Date(timeIntervalSinceNow: seconds))
    }

    /// Wakes every thread sleeping in `wait`. Takes no lock, so a `withLock` or `wait` body
    /// may call it (the change it announces is then made under the same lock).
    public func broadcast() {
        condition.broadcast()
    }

    /// A copy of the value now.
    public var current: Value { withLock { $0 } }
}
