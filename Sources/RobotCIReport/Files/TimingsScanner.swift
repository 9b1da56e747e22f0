import RobotCICore

/// Reads `timings.json` in the one shape robotci writes it (`{"tests":{"id":seconds,…},
/// "version":1}`, keys in any order, plain ids), in one pass over the bytes. Anything else
/// (an escape in an id, another key, a number JSON would not write) is not that shape, and
/// the caller decodes with `JSONDecoder`, which says what is wrong.
///
/// Why: `robotci merge` of 1,000 partition folders reads 1,000 timings files of the whole
/// suite (a CI cache restores it on every machine); `JSONDecoder` spent 33 of 60 seconds
/// decoding those dictionaries.
enum TimingsScanner {
    /// The file's timings; nil when it is not robotci's shape or names an id twice.
    static func timings(_ bytes: UnsafeRawBufferPointer) -> Timings? {
        var tests: [String: Double] = [:]
        // About one entry per 40 bytes (an id and its seconds): grown once, not step by step.
        tests.reserveCapacity(bytes.count / 40)
        var twice = false
        guard let version = scan(bytes, entry: { id, seconds in
            twice = tests.updateValue(seconds, forKey: String(decoding: id, as: UTF8.self)) != nil || twice
        }), !twice else { return nil }
        var timings = Timings(tests: tests)
        timings.version = version
        return timings
    }

    /// Calls `entry` with each id's UTF-8 (checked) and seconds, in file order, and returns the
    /// version; nil, part-way through, when the bytes are not robotci's shape.
    static func scan(_ bytes: UnsafeRawBufferPointer, entry: (UnsafeBufferPointer<UInt8>, Double) -> Void) -> Int? {
        var s = Scanner(bytes: bytes.assumingMemoryBound(to: UInt8.self))
        var sawTests = false
        var version: Int?
        guard s.take(UInt8(ascii: "{")) else { return nil }
        repeat {
            switch s.string().map({ String(decoding: $0, as: UTF8.self) }) {
            case "tests"? where !sawTests:
                guard s.take(UInt8(ascii: ":")), s.durations(entry) else { return nil }
                sawTests = true
            case "version"? where version == nil:
                guard s.take(UInt8(ascii: ":")), let v = s.number(), let i = Int(exactly: v) else { return nil }
                version = i
            default:
                return nil
            }
        } while s.take(UInt8(ascii: ","))
        guard s.take(UInt8(ascii: "}")), s.atEnd, sawTests else { return nil }
        return version
    }

    private struct Scanner {
        let bytes: UnsafeBufferPointer<UInt8>
        var i = 0

        init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

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

        /// A string's UTF-8, without escapes or control characters and valid; nil otherwise.
        mutating func string() -> UnsafeBufferPointer<UInt8>? {
            guard take(UInt8(ascii: "\"")) else { return nil }
            let start = i
            var ascii = true
            while i < bytes.count, bytes[i] != UInt8(ascii: "\"") {
                if bytes[i] == UInt8(ascii: "\\") || bytes[i] < 0x20 { return nil }
                ascii = ascii && bytes[i] < 0x80
                i += 1
            }
            guard i < bytes.count else { return nil }
            let text = UnsafeBufferPointer(rebasing: bytes[start..<i])
            i += 1
            // Decoding repairs bad UTF-8: the bytes must come back unchanged, or it was not text.
            guard ascii || String(decoding: text, as: UTF8.self).utf8.elementsEqual(text) else { return nil }
            return text
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
            let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<i]), as: UTF8.self)
            guard let value = Double(text), value.isFinite else { return nil }
            return value
        }

        /// `{"id": seconds, …}`, each entry to `entry`; false when it is not that shape.
        mutating func durations(_ entry: (UnsafeBufferPointer<UInt8>, Double) -> Void) -> Bool {
            guard take(UInt8(ascii: "{")) else { return false }
            if take(UInt8(ascii: "}")) { return true }
            repeat {
                guard let id = string(), take(UInt8(ascii: ":")), let seconds = number() else { return false }
                entry(id, seconds)
            } while take(UInt8(ascii: ","))
            return take(UInt8(ascii: "}"))
        }
    }
}
