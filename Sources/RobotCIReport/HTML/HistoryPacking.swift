/// A test's history as the report's data carries it (`ReportColumns.HistoryTest`), packed
/// because it is most of the data at scale: 30 runs as JSON numbers took ~180 bytes per test,
/// 18 of the 25 MB of a 100,000-test report. `report.js` (`lettersOf`, `durationsOf`) unpacks
/// it for the rows on screen only.
enum HistoryPacking {
    /// Last digit of a number (value 0-31).
    static let end = Array("0123456789abcdefghijklmnopqrstuv".utf8)
    /// Every digit before the last (value 0-31): more follow.
    static let more = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ*+-./:".utf8)
    /// A run the test did not run in (a negative duration).
    static let absent = UInt8(ascii: "_")

    /// Run-length coded letters: `PPPPPPK` → `P6K` (a letter, then its count when over one).
    /// A character that is no ASCII letter (a digit would read as a count) becomes `-`, which
    /// the page shows as it showed any unknown letter: not run.
    static func letters(_ letters: String) -> String {
        var out: [UInt8] = []
        var current: UInt8 = 0
        var count = 0
        func flush() {
            guard count > 0 else { return }
            out.append(current)
            if count > 1 { out.append(contentsOf: String(count).utf8) }
        }
        for c in letters {
            let byte = c.isASCII && c.isLetter ? c.asciiValue ?? UInt8(ascii: "-") : UInt8(ascii: "-")
            if byte == current { count += 1; continue }
            flush()
            current = byte
            count = 1
        }
        flush()
        return String(decoding: out, as: UTF8.self)
    }

    /// Milliseconds per run, each as its change from the test's previous duration (zigzag:
    /// 0, -1, 1, -2… → 0, 1, 2, 3…) in base 32, most significant digit first; `_` for a run
    /// without one. Durations wander around a test's own, so most take two characters.
    static func durations(_ ms: [Int]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(ms.count * 3)
        var previous = 0
        var digits: [UInt8] = []
        for d in ms {
            guard d >= 0 else { out.append(absent); continue }
            let delta = d - previous
            previous = d
            var z = UInt64(bitPattern: Int64((delta << 1) ^ (delta >> (Int.bitWidth - 1))))
            digits.removeAll(keepingCapacity: true)
            digits.append(end[Int(z & 31)])
            z >>= 5
            while z > 0 {
                digits.append(more[Int(z & 31)])
                z >>= 5
            }
            out.append(contentsOf: digits.reversed())
        }
        return String(decoding: out, as: UTF8.self)
    }
}
