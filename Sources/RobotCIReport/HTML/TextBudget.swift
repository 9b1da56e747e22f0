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
        let u = utf8
        let count = u.count
        guard count > maxBytes else { return (self, 0) }
        guard maxBytes > 0 else { return ("", count) }
        var i = u.index(u.endIndex, offsetBy: -maxBytes)
        // Prefer to start on a whole line if one starts within the first 10%.
        if let nl = u[i...].prefix(max(1, maxBytes / 10)).firstIndex(of: UInt8(ascii: "\n")) {
            i = u.index(after: nl)
        }
        while i < u.endIndex, u[i] & 0xC0 == 0x80 { i = u.index(after: i) }
        let kept = String(decoding: u[i...], as: UTF8.self)
        return (kept, count - kept.utf8.count)
    }

    /// The first `maxBytes` UTF-8 bytes, ending on a scalar boundary, plus how many were dropped.
    func utf8Head(_ maxBytes: Int) -> (text: String, dropped: Int) {
        let u = utf8
        let count = u.count
        guard count > maxBytes else { return (self, 0) }
        guard maxBytes > 0 else { return ("", count) }
        var end = u.index(u.startIndex, offsetBy: maxBytes)
        while end > u.startIndex, u[end] & 0xC0 == 0x80 { end = u.index(before: end) }
        let kept = String(decoding: u[..<end], as: UTF8.self)
        return (kept, count - kept.utf8.count)
    }
}
