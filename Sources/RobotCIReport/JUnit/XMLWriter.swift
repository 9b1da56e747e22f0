import CLibXML2
import Foundation

/// Error from libxml2, naming what was being written or read.
public struct XMLError: Error, CustomStringConvertible, Equatable {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// Owns one libxml2 text writer over a memory buffer; frees both in `deinit`.
final class XMLWriter {
    private let buffer: xmlBufferPtr
    private let writer: xmlTextWriterPtr

    init() throws {
        guard let buffer = xmlBufferCreate() else { throw XMLError("libxml2 could not allocate a buffer") }
        guard let writer = xmlNewTextWriterMemory(buffer, 0) else {
            xmlBufferFree(buffer)
            throw XMLError("libxml2 could not create a writer")
        }
        self.buffer = buffer
        self.writer = writer
        xmlTextWriterSetIndent(writer, 1)
        xmlTextWriterSetIndentString(writer, "  ")
        try check(xmlTextWriterStartDocument(writer, "1.0", "UTF-8", nil), "start document")
    }

    deinit {
        xmlFreeTextWriter(writer)
        xmlBufferFree(buffer)
    }

    func start(_ name: String) throws {
        try check(xmlTextWriterStartElement(writer, name), "start <\(name)>")
    }

    func end() throws {
        try check(xmlTextWriterEndElement(writer), "end element")
    }

    func attribute(_ name: String, _ value: String) throws {
        try check(xmlTextWriterWriteAttribute(writer, name, XMLWriter.sanitize(value)), "attribute \(name)")
    }

    func text(_ value: String) throws {
        try check(xmlTextWriterWriteString(writer, XMLWriter.sanitize(value)), "text")
    }

    /// `<name>text</name>` (text escaped by libxml2).
    func element(_ name: String, text value: String) throws {
        try start(name)
        try text(value)
        try end()
    }

    /// Ends the document and returns its bytes.
    func finish() throws -> Data {
        try check(xmlTextWriterEndDocument(writer), "end document")
        xmlTextWriterFlush(writer)
        guard let content = xmlBufferContent(buffer) else { return Data() }
        return Data(bytes: content, count: Int(xmlBufferLength(buffer)))
    }

    private func check(_ rc: Int32, _ what: String) throws {
        if rc < 0 { throw XMLError("libxml2 failed to write \(what)") }
    }

    /// Replaces characters XML 1.0 cannot carry (C0 controls but tab/newline/CR,
    /// U+FFFE/U+FFFF) with a visible `\u{XX}` escape, so output stays readable and the
    /// file parses with any XML parser. Swift strings are already valid UTF-8.
    static func sanitize(_ s: String) -> String {
        var needs = false
        for u in s.unicodeScalars where !isXMLChar(u) { needs = true; break }
        guard needs else { return s }
        var out = String.UnicodeScalarView()
        for u in s.unicodeScalars {
            if isXMLChar(u) {
                out.append(u)
            } else {
                out.append(contentsOf: "\\u{\(String(u.value, radix: 16))}".unicodeScalars)
            }
        }
        return String(out)
    }

    private static func isXMLChar(_ u: Unicode.Scalar) -> Bool {
        let v = u.value
        return v == 0x9 || v == 0xA || v == 0xD || (v >= 0x20 && v <= 0xD7FF) || (v >= 0xE000 && v <= 0xFFFD) || v >= 0x10000
    }
}
