import Locks
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import Foundation

/// Prints one line per answered request (`GET /character -> 200 (GET /character, 3 ms)`),
/// for `robotci mock`.
///
/// Lines are batched and written at most `flushInterval` after they are logged, so a
/// person watching sees them at once while a load test does not pay a write per request.
public final class RequestLogPrinter: Sendable {
    private struct State {
        var pending: [UInt8] = []
        var flushScheduled = false
    }

    private let fileDescriptor: Int32
    private let flushInterval: Duration
    private let state = Locked(State())
    private let queue = DispatchQueue(label: "robotci.mock.log")

    /// Prints to `fileDescriptor` (standard output by default).
    public init(fileDescriptor: Int32 = 1, flushInterval: Duration = .milliseconds(20)) {
        self.fileDescriptor = fileDescriptor
        self.flushInterval = flushInterval
    }

    /// Queues the line for `entry`; use as ``MockServer/Configuration/onResponse``.
    public func log(_ entry: RecordedRequest) {
        print(Self.line(for: entry))
    }

    /// Queues one line of text.
    public func print(_ line: String) {
        let scheduleFlush = state.withLock { state -> Bool in
            state.pending.append(contentsOf: line.utf8)
            state.pending.append(UInt8(ascii: "\n"))
            guard !state.flushScheduled else { return false }
            state.flushScheduled = true
            return true
        }
        if scheduleFlush {
            let nanoseconds = Int(flushInterval.components.seconds) * 1_000_000_000
                + Int(flushInterval.components.attoseconds / 1_000_000_000)
            queue.asyncAfter(deadline: .now() + .nanoseconds(nanoseconds)) { self.writePending() }
        }
    }

    /// Writes every queued line now.
    public func flush() {
        queue.sync { writePending() }
    }

    /// Runs on `queue`, which keeps batches in order.
    private func writePending() {
        let bytes = state.withLock { state -> [UInt8] in
            state.flushScheduled = false
            defer { state.pending.removeAll(keepingCapacity: true) }
            return state.pending
        }
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(fileDescriptor, $0.baseAddress, $0.count) }
            guard written > 0 else { return }
            offset += written
        }
    }

    /// `GET /character?page=2 -> 200 (GET /character, 3 ms)`; unmatched requests say
    /// `no route, default`, failures end with `: error`.
    public static func line(for entry: RecordedRequest) -> String {
        let status = String(entry.status.code)
        let route = entry.matchedRoute ?? "no route, default"
        let milliseconds = Int(Date().timeIntervalSince(entry.timestamp) * 1000)
        let error = entry.error.map { ": \($0)" } ?? ""
        let preflight = entry.isPreflight ? " [preflight]" : ""
        return "\(entry.request.requestLine) -> \(status) (\(route), \(milliseconds) ms)\(error)\(preflight)"
    }
}
