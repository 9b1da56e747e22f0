/// Shares a byte budget among many texts so the report stays small at any scale:
/// short texts are kept whole, long ones are all cut to the same length.
enum TextBudget {
    /// The largest per-text cap `c` such that `Σ min(length, c) ≤ budget`.
    static func cap(for lengths: [Int], budget: Int) -> Int {
        let sorted = lengths.filter { $0 > 0 }.sorted()
        var remaining = max(0, budget)
        var left = sorted.count
        for length in sorted {
            if length * left <= remaining {
                remaining -= length
                left -= 1
            } else {
                return remaining / left
            }
        }
        return sorted.last ?? 0
    }
}

extension String {
    /// The last `maxBytes` UTF-8 bytes, starting on a scalar boundary (and a line
    /// start when one is near), plus how many bytes were dropped.
    func utf8Tail(_ maxBytes: Int) -> (text: String, dropped: Int) {
        let count = utf8.count
        guard count > maxBytes else { return (self, 0) }
        guard maxBytes > 0 else { return ("", count) }
        var copy = self
        return copy.withUTF8 { buf in
            var start = count - maxBytes
            // Prefer to start on a whole line if one starts within the first 10%.
            let look = min(count, start + max(1, maxBytes / 10))
            if let nl = buf[start..<look].firstIndex(of: UInt8(ascii: "\n")) { start = nl + 1 }
            while start < count, buf[start] & 0xC0 == 0x80 { start += 1 }
            return (String(decoding: UnsafeBufferPointer(rebasing: buf[start...]), as: UTF8.self), start)
        }
    }

    /// The first `maxBytes` UTF-8 bytes, ending on a scalar boundary, plus how many were dropped.
    func utf8Head(_ maxBytes: Int) -> (text: String, dropped: Int) {
        let count = utf8.count
        guard count > maxBytes else { return (self, 0) }
        guard maxBytes > 0 else { return ("", count) }
        var copy = self
        return copy.withUTF8 { buf in
            var end = maxBytes
            while end > 0, buf[end] & 0xC0 == 0x80 { end -= 1 }
            return (String(decoding: UnsafeBufferPointer(rebasing: buf[..<end]), as: UTF8.self), count - end)
        }
    }
}
