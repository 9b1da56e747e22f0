import RobotCICore

/// Reads `timings.json` in the one shape robotci writes it (`{"tests":{"id":seconds,…},
/// "version":1}`, keys in any order, plain ids), in one pass over the bytes. Anything else
/// (an escape in an id, another key, a duplicate, a number JSON would not write) gives nil,
/// and the caller decodes with `JSONDecoder`, which says what is wrong.
///
/// Why: `robotci merge` of 1,000 partition folders reads 1,000 timings files of the whole
/// suite (a CI cache restores it on every machine); `JSONDecoder` spent 33 of 60 seconds
/// decoding those dictionaries.
enum TimingsScanner {
    static func timings(_ bytes: UnsafeRawBufferPointer) -> Timings? {
        var s = Scanner(bytes: bytes)
        var tests: [String: Double]?
        var version: Int?
        guard s.take(UInt8(ascii: "{")) else { return nil }
        repeat {
            switch s.string() {
            case "tests"? where tests == nil:
                guard s.take(UInt8(ascii: ":")), let t = s.durations() else { return nil }
                tests = t
            case "version"? where version == nil:
                guard s.take(UInt8(ascii: ":")), let v = s.number(), let i = Int(exactly: v) else { return nil }
                version = i
            default:
                return nil
            }
        } while s.take(UInt8(ascii: ","))
        guard s.take(UInt8(ascii: "}")), s.atEnd, let tests, let version else { return nil }
        var timings = Timings(tests: tests)
        timings.version = version
        return timings
    }

    private struct Scanner {
        let bytes: UnsafeRawBufferPointer
        var i = 0

        init(bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

        mutating func skipSpace() {
            while i < bytes.count {
                switch bytes[i] {
                case 0x20, 0x0A, 0x0D, 0x09: i += 1
                default: return
                }
            }
        }

        var atEnd: Bool {
            mutating get { skipSpace(); return i == bytes.count }
        }

        /// Consumes `byte` (after whitespace) when it is next.
        mutating func take(_ byte: UInt8) -> Bool {
            skipSpace()
            guard i < bytes.count, bytes[i] == byte else { return false }
            i += 1
            return true
        }

        /// A string without escapes or control characters; nil for anything else.
        mutating func string() -> String? {
            guard take(UInt8(ascii: "\"")) else { return nil }
            let start = i
            while i < bytes.count, bytes[i] != UInt8(ascii: "\"") {
                if bytes[i] == UInt8(ascii: "\\") || bytes[i] < 0x20 { return nil }
                i += 1
            }
            guard i < bytes.count else { return nil }
            defer { i += 1 }
            return String(validating: UnsafeRawBufferPointer(rebasing: bytes[start..<i]), as: UTF8.self)
        }

        /// A JSON number (`-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`), finite.
        mutating func number() -> Double? {
            skipSpace()
            let start = i
            func digits() -> Int {
                let from = i
                while i < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[i]) { i += 1 }
                return i - from
            }
            if i < bytes.count, bytes[i] == UInt8(ascii: "-") { i += 1 }
            let leadingZero = i < bytes.count && bytes[i] == UInt8(ascii: "0")
            let whole = digits()
            guard whole > 0, !(leadingZero && whole > 1) else { return nil }
            if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
                i += 1
                guard digits() > 0 else { return nil }
            }
            if i < bytes.count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
                i += 1
                if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { i += 1 }
                guard digits() > 0 else { return nil }
            }
            let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<i]), as: UTF8.self)
            guard let value = Double(text), value.isFinite else { return nil }
            return value
        }

        /// `{"id": seconds, …}`; nil on a duplicate id or anything but that shape.
        mutating func durations() -> [String: Double]? {
            guard take(UInt8(ascii: "{")) else { return nil }
            var out: [String: Double] = [:]
            if take(UInt8(ascii: "}")) { return out }
            repeat {
                guard let id = string(), take(UInt8(ascii: ":")), let seconds = number(),
                      out.updateValue(seconds, forKey: id) == nil else { return nil }
            } while take(UInt8(ascii: ","))
            return take(UInt8(ascii: "}")) ? out : nil
        }
    }
}
