/// Splits a byte stream into lines as it arrives, keeping a partial last line
/// until its newline comes. Invalid UTF-8 is repaired on decoding.
struct LineSplitter {
    private var pending: [UInt8] = []
    /// A single line longer than this is emitted in pieces (a test writing megabytes
    /// without a newline must not grow memory without bound).
    let maxLineBytes: Int
    /// When a long line is emitted in pieces, its last bytes stay for the next piece: XCTest's
    /// result line glued to the end of a test's megabytes is never cut in two.
    let carriedBytes: Int

    init(maxLineBytes: Int = 1 << 20, carriedBytes: Int = 16 * 1024) {
        self.maxLineBytes = maxLineBytes
        self.carriedBytes = min(carriedBytes, maxLineBytes / 2)
    }

    mutating func feed(_ bytes: UnsafeBufferPointer<UInt8>, _ emit: (Substring) -> Void) {
        var start = 0
        for i in 0..<bytes.count where bytes[i] == 10 {
            if pending.isEmpty {
                emit(decode(UnsafeBufferPointer(rebasing: bytes[start..<i])))
            } else {
                pending.append(contentsOf: bytes[start..<i])
                emit(pending.withUnsafeBufferPointer { decode($0) })
                pending.removeAll(keepingCapacity: true)
            }
            start = i + 1
        }
        if start < bytes.count {
            pending.append(contentsOf: bytes[start...])
            if pending.count > maxLineBytes {
                let cut = pending.count - carriedBytes
                emit(pending.withUnsafeBufferPointer { decode(UnsafeBufferPointer(rebasing: $0[0..<cut])) })
                pending.removeFirst(cut)
            }
        }
    }

    /// Emits what is left when the stream ends.
    mutating func finish(_ emit: (Substring) -> Void) {
        if !pending.isEmpty {
            emit(pending.withUnsafeBufferPointer { decode($0) })
            pending.removeAll()
        }
    }

    private func decode(_ bytes: UnsafeBufferPointer<UInt8>) -> Substring {
        var s = String(decoding: bytes, as: UTF8.self)
        if s.last == "\r" { s.removeLast() }
        return Substring(s)
    }
}
