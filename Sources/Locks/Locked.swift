import Foundation

/// A value guarded by a lock: the one lock type of the code that shares mutable state between
/// threads (MockServer's event loops and actor, the runner's shard threads, RobotKit's test
/// thread and its clean-up). A class that keeps its state in a `Locked` holds only `let`s and
/// is `Sendable` as checked by the compiler, instead of being `@unchecked Sendable` with a lock
/// of its own beside its `var`s.
public final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    public init(_ value: Value) {
        self.value = value
    }

    public func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }

    /// A copy of the value now.
    public var current: Value { withLock { $0 } }
}
