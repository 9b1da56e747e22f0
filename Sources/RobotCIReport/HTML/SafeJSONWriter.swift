/// Writes JSON that is safe to place inside an HTML `<script type="application/json">`.
///
/// `<`, `>` and `&` become `\u003c`/`\u003e`/`\u0026`, so neither `</script>` nor `<!--`
/// can end or bend the element; U+2028/2029 are escaped for older JS parsers. Test text
/// is also made readable: ANSI colour sequences are dropped, `\r\n` becomes `\n`, other
/// C0/C1 controls become visible stand-ins (U+2400 control pictures, U+FFFD).
struct SafeJSONWriter {
    private(set) var bytes: [UInt8] = []

    init(capacity: Int = 1 << 16) { bytes.reserveCapacity(capacity) }

    /// Bytes already written by another SafeJSONWriter.
    mutating func append(_ part: [UInt8]) { bytes.append(contentsOf: part) }

    mutating func raw(_ s: StaticString) {
        s.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    mutating func int(_ v: Int) {
        var v = v
        if v < 0 {
            bytes.append(UInt8(ascii: "-"))
            if v == .min { v = .max } else { v = -v }
        }
        var digits: [UInt8] = []
        repeat {
            digits.append(UInt8(ascii: "0") + UInt8(v % 10))
            v /= 10
        } while v > 0
        bytes.append(contentsOf: digits.reversed())
    }

    /// Non-finite numbers have no JSON form; they are written as 0.
    mutating func double(_ v: Double) {
        guard v.isFinite else { return raw("0") }
        if v == v.rounded(), abs(v) < 1e15 { return int(Int(v)) }
        bytes.append(contentsOf: Array(v.description.utf8))
    }

    /// Seconds as whole milliseconds (the data's only time unit).
    mutating func millis(_ seconds: Double) {
        guard seconds.isFinite else { return raw("0") }
        int(Int(max(-1e15, min(1e15, (seconds * 1000).rounded()))))
    }

    mutating func bool(_ v: Bool) { v ? raw("true") : raw("false") }

    mutating func string(_ value: String?) {
        guard var s = value else { return raw("null") }
        bytes.append(UInt8(ascii: "\""))
        s.withUTF8 { appendEscaped($0) }
        bytes.append(UInt8(ascii: "\""))
    }

    private static let hex: [UInt8] = Array("0123456789abcdef".utf8)

    private mutating func unicodeEscape(_ v: UInt16) {
        raw("\\u")
        for shift in stride(from: 12, through: 0, by: -4) {
            bytes.append(Self.hex[Int((v >> UInt16(shift)) & 0xF)])
        }
    }

    private mutating func appendEscaped(_ utf8: UnsafeBufferPointer<UInt8>) {
        var i = 0
        let n = utf8.count
        while i < n {
            let b = utf8[i]
            switch b {
            case UInt8(ascii: "\""): raw("\\\"")
            case UInt8(ascii: "\\"): raw("\\\\")
            case UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "&"): unicodeEscape(UInt16(b))
            case UInt8(ascii: "\n"): raw("\\n")
            case UInt8(ascii: "\t"): raw("\\t")
            case UInt8(ascii: "\r"):
                // \r\n is a line break; a lone \r (progress bars) is one too.
                if i + 1 < n, utf8[i + 1] == UInt8(ascii: "\n") { break }
                raw("\\n")
            case 0x1B:
                if let end = Self.csiEnd(utf8, from: i) {
                    i = end
                } else {
                    controlPicture(b)
                }
            case 0x00..<0x20: controlPicture(b)
            case 0x7F: bytes.append(contentsOf: [0xE2, 0x90, 0xA1])  // ␡
            case 0xC2 where i + 1 < n && (0x80...0x9F).contains(utf8[i + 1]):
                bytes.append(contentsOf: [0xEF, 0xBF, 0xBD])  // C1 control → U+FFFD
                i += 1
            case 0xE2 where i + 2 < n && utf8[i + 1] == 0x80 && (utf8[i + 2] == 0xA8 || utf8[i + 2] == 0xA9):
                unicodeEscape(utf8[i + 2] == 0xA8 ? 0x2028 : 0x2029)
                i += 2
            default: bytes.append(b)
            }
            i += 1
        }
    }

    /// U+2400 + code: ␀ ␇ ␛ … keeps the fact that a control was there without its effect.
    private mutating func controlPicture(_ b: UInt8) {
        bytes.append(contentsOf: [0xE2, 0x90, 0x80 + b])
    }

    /// Index of the final byte of an ANSI CSI sequence (`ESC [ params final`) starting at `i`.
    private static func csiEnd(_ utf8: UnsafeBufferPointer<UInt8>, from i: Int) -> Int? {
        guard i + 1 < utf8.count, utf8[i + 1] == UInt8(ascii: "[") else { return nil }
        var j = i + 2
        while j < utf8.count, j < i + 64 {
            let c = utf8[j]
            if (0x40...0x7E).contains(c) { return j }
            if !(0x20...0x3F).contains(c) { return nil }
            j += 1
        }
        return nil
    }

    /// JSON another encoder wrote (a trace viewer's data), made safe the same way: `<`, `>`,
    /// `&` and the JavaScript line separators escaped, so no text of a test can end the block.
    /// (Those characters only occur inside JSON strings, where `\uXXXX` means the same.)
    static func scriptSafe(_ json: String) -> String {
        var out = ""
        out.reserveCapacity(json.utf8.count)
        for scalar in json.unicodeScalars {
            switch scalar {
            case "<": out += "\\u003c"
            case ">": out += "\\u003e"
            case "&": out += "\\u0026"
            case "\u{2028}": out += "\\u2028"
            case "\u{2029}": out += "\\u2029"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
