/// A run as the history and the flake ledger keep it: an id, a commit, a start time.
protocol RunColumn {
    var id: String { get }
    var commit: String? { get set }
    /// Seconds since 1970; 0 or less: unknown.
    var startedAt: Double { get set }
}

enum RunColumns {
    /// `runs` joined by id (one run seen by several partitions or machines is one run: the
    /// first commit known, the earliest start, and whatever `join` adds), ordered by start
    /// time; a run without one keeps its place relative to the others (a stable sort).
    static func joined<R: RunColumn>(_ runs: some Sequence<R>, join: (inout R, R) -> Void = { _, _ in }) -> [R] {
        var order: [R] = []
        var index: [String: Int] = [:]
        for r in runs {
            if let i = index[r.id] {
                if order[i].commit == nil { order[i].commit = r.commit }
                if r.startedAt > 0 && (order[i].startedAt <= 0 || r.startedAt < order[i].startedAt) { order[i].startedAt = r.startedAt }
                join(&order[i], r)
            } else {
                index[r.id] = order.count
                order.append(r)
            }
        }
        return order.enumerated().sorted { x, y in
            let a = x.element.startedAt, b = y.element.startedAt
            return a != b && a > 0 && b > 0 ? a < b : x.offset < y.offset
        }.map(\.element)
    }
}

/// JSON text written byte by byte, for the files robotci writes often and large (history,
/// ledger): a string escaped the one way both need.
enum JSONText {
    /// `s` as a JSON string: quotes and backslashes escaped, control bytes as `\u00XX`.
    static func appendString(_ s: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for b in s.utf8 {
            switch b {
            case UInt8(ascii: "\""): out.append(contentsOf: "\\\"".utf8)
            case UInt8(ascii: "\\"): out.append(contentsOf: "\\\\".utf8)
            case 0..<0x20: out.append(contentsOf: String(format: "\\u%04x", b).utf8)
            default: out.append(b)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}

extension RunHistory.Run: RunColumn {}
extension FlakeLedger.Run: RunColumn {}
