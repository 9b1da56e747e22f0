import Foundation

/// Finds where a results.json holds its partition's whole suite (the array at
/// `plan.partition.suite`) in one pass over the bytes, without decoding it, so that merge can
/// cut out a copy it has already read (`PartitionSuite`).
///
/// Why: every partition's results.json carries the whole suite. `robotci merge` of 1,000
/// partitions of 10,000 tests spent most of its JSON decoding on ten million ids that were
/// one list, twice per file (the format probe and the decode).
///
/// The scan is only trusted where there is no doubt about what a JSON decoder sees: a key of
/// the top-level object, of `plan` or of `partition` that is spelt with an escape or non-ASCII
/// bytes, or given twice, makes it return nil (the caller then decodes the file in full).
/// It checks structure, not validity: the caller decodes what is left with `JSONDecoder`.
enum SuiteScanner {
    /// Where the array is, and whether it is byte for byte `known`.
    struct Found: Equatable {
        var range: Range<Int>
        var isKnown: Bool
    }

    /// The byte range of `plan.partition.suite` (an array, brackets included); nil when the
    /// file has none or the scan cannot be sure. When `known` (an array as another file wrote
    /// it) is there byte for byte, it is not scanned again: a JSON array ends where its bytes
    /// say, whatever follows.
    static func find(in bytes: UnsafeRawBufferPointer, known: UnsafeRawBufferPointer? = nil) -> Found? {
        var s = Walker(bytes: bytes.assumingMemoryBound(to: UInt8.self), known: known.map { $0.assumingMemoryBound(to: UInt8.self) })
        return s.document()
    }

    private struct Walker {
        let bytes: UnsafeBufferPointer<UInt8>
        let known: UnsafeBufferPointer<UInt8>?
        var i = 0

        init(bytes: UnsafeBufferPointer<UInt8>, known: UnsafeBufferPointer<UInt8>?) {
            self.bytes = bytes
            self.known = known
        }

        mutating func document() -> Found? {
            var found: Found?
            guard object(keys: ["plan"], { s, _ in
                guard s.peek == UInt8(ascii: "{") else { return s.skipValue() }
                return s.object(keys: ["partition"]) { s, _ in
                    guard s.peek == UInt8(ascii: "{") else { return s.skipValue() }
                    return s.object(keys: ["suite"]) { s, _ in
                        found = s.suite()
                        return found != nil
                    }
                }
            }) else { return nil }
            return found
        }

        var peek: UInt8? {
            mutating get {
                skipSpace()
                return i < bytes.count ? bytes[i] : nil
            }
        }

        mutating func skipSpace() {
            while i < bytes.count {
                switch bytes[i] {
                case 0x20, 0x0A, 0x0D, 0x09: i += 1
                default: return
                }
            }
        }

        mutating func take(_ byte: UInt8) -> Bool {
            guard peek == byte else { return false }
            i += 1
            return true
        }

        /// An object whose keys named in `keys` go to `value` (once each: a second is a doubt),
        /// the others skipped. Keys are compared as written, so any key spelt with an escape or
        /// a non-ASCII byte is a doubt too (it might decode to one of `keys`).
        mutating func object(keys: Set<String>, _ value: (inout Walker, String) -> Bool) -> Bool {
            guard take(UInt8(ascii: "{")) else { return false }
            if take(UInt8(ascii: "}")) { return true }
            var seen: Set<String> = []
            repeat {
                guard let key = string() else { return false }
                guard take(UInt8(ascii: ":")) else { return false }
                let plain = UnsafeBufferPointer(rebasing: bytes[key]).allSatisfy { $0 < 0x80 && $0 != UInt8(ascii: "\\") }
                if !plain { return false }
                let name = String(decoding: UnsafeBufferPointer(rebasing: bytes[key]), as: UTF8.self)
                if keys.contains(name) {
                    guard seen.insert(name).inserted, value(&self, name) else { return false }
                } else {
                    guard skipValue() else { return false }
                }
            } while take(UInt8(ascii: ","))
            return take(UInt8(ascii: "}"))
        }

        /// The suite's array: `known` when its bytes are next, else skipped to its end.
        mutating func suite() -> Found? {
            guard peek == UInt8(ascii: "[") else { return nil }
            let start = i
            if let known, let expected = known.baseAddress, let here = bytes.baseAddress, known.count <= bytes.count - start,
               memcmp(expected, here + start, known.count) == 0 {
                i = start + known.count
                return Found(range: start..<i, isKnown: true)
            }
            guard skipValue() else { return nil }
            return Found(range: start..<i, isKnown: false)
        }

        /// A string's contents (between the quotes), escapes skipped over, not decoded.
        mutating func string() -> Range<Int>? {
            guard take(UInt8(ascii: "\"")) else { return nil }
            let start = i
            while i < bytes.count {
                switch bytes[i] {
                case UInt8(ascii: "\""):
                    i += 1
                    return start..<(i - 1)
                case UInt8(ascii: "\\"): i += 2
                default: i += 1
                }
            }
            return nil
        }

        /// Any value, nested ones by their brackets (strings skipped, so a bracket in one is
        /// text); scalars to the next delimiter. False at the end of the bytes or on a stray
        /// closing bracket.
        mutating func skipValue() -> Bool {
            guard let first = peek else { return false }
            switch first {
            case UInt8(ascii: "\""):
                return string() != nil
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                var depth = 0
                while i < bytes.count {
                    switch bytes[i] {
                    case UInt8(ascii: "\""):
                        guard string() != nil else { return false }
                        continue
                    case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                    case UInt8(ascii: "}"), UInt8(ascii: "]"):
                        depth -= 1
                        if depth == 0 {
                            i += 1
                            return true
                        }
                    default: break
                    }
                    i += 1
                }
                return false
            case UInt8(ascii: "}"), UInt8(ascii: "]"), UInt8(ascii: ","), UInt8(ascii: ":"):
                return false
            default:
                while i < bytes.count {
                    switch bytes[i] {
                    case UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), 0x20, 0x0A, 0x0D, 0x09: return true
                    default: i += 1
                    }
                }
                return true
            }
        }
    }
}
