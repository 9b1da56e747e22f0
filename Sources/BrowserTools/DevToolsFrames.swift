#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The DevTools pipe's framing: each message is JSON followed by one NUL byte. Bytes go in as
/// they arrive; whole messages come out. A message longer than `limit` is an error, so a
/// peer that never sends a NUL cannot make the reader hold unbounded memory.
public struct DevToolsFrames: Sendable {
    /// The longest message accepted: a full-page screenshot of a large viewport is a few MB of base64.
    public let limit: Int
    private var buffer: [UInt8] = []
    /// Where the search for the next NUL resumes (bytes before it have none).
    private var scanned = 0

    public init(limit: Int = 256 << 20) {
        self.limit = limit
    }

    /// The bytes of a message begun and not yet ended.
    public var pendingCount: Int { buffer.count }

    /// Adds `bytes`; the messages they complete, without their NULs.
    public mutating func append<Bytes: Collection>(_ bytes: Bytes) throws(TooLong) -> [[UInt8]] where Bytes.Element == UInt8 {
        buffer.append(contentsOf: bytes)
        var messages: [[UInt8]] = []
        var start = 0
        // memchr, not a byte loop: tests run debug builds, and a screenshot is megabytes.
        buffer.withUnsafeBufferPointer { all in
            guard let base = all.baseAddress else { return }
            var from = scanned
            while from < all.count, let hit = memchr(base + from, 0, all.count - from) {
                let index = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
                messages.append(Array(all[start..<index]))
                start = index + 1
                from = start
            }
        }
        if start > 0 { buffer.removeFirst(start) }
        scanned = buffer.count
        if buffer.count > limit { throw TooLong(count: buffer.count, limit: limit) }
        return messages
    }

    /// Forgets a message begun and not ended (its sender went away).
    public mutating func dropPending() {
        buffer.removeAll(keepingCapacity: true)
        scanned = 0
    }

    /// A message went past `limit` bytes with no end in sight.
    public struct TooLong: Error, CustomStringConvertible, Equatable {
        public var count: Int
        public var limit: Int
        public var description: String { "a DevTools message of more than \(limit) bytes (\(count) so far)" }
    }
}
