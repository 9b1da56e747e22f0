import Foundation

/// `Locked` (ProcessToolkit) with a condition variable, for the state threads block on: the
/// shards waiting for a batch (`WorkQueue`, `RedisBatchSource`) or for a start
/// (`ConcurrencyGovernor`). A class that keeps such state in one holds only `let`s and is
/// checked `Sendable`. (It belongs beside `Locked` in ProcessToolkit once that moves.)
final class LockedCondition<Value>: @unchecked Sendable {
    private let condition = NSCondition()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        condition.lock()
        defer { condition.unlock() }
        return try body(&value)
    }

    /// Runs `body` with the lock held until it returns a result. While it returns nil, the
    /// lock is released and the thread sleeps until a `broadcast` (or, with `interval`, at
    /// most that many seconds), then runs `body` again.
    func wait<Result>(checkingEvery interval: TimeInterval? = nil, until body: (inout Value) throws -> Result?) rethrows -> Result {
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
    func sleep(atMost seconds: TimeInterval) {
        condition.lock()
        defer { condition.unlock() }
        _ = condition.wait(until: Date(timeIntervalSinceNow: seconds))
    }

    /// Wakes every thread sleeping in `wait`. Takes no lock, so a `withLock` or `wait` body
    /// may call it (the change it announces is then made under the same lock).
    func broadcast() {
        condition.broadcast()
    }

    /// A copy of the value now.
    var current: Value { withLock { $0 } }
}
