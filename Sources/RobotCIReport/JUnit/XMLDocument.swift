import CLibXML2
import Foundation

/// Owns one parsed libxml2 document; frees it in `deinit`.
final class XMLTree {
    private let doc: xmlDocPtr

    /// Parses `data`; a malformed document throws with libxml2's line and message.
    ///
    /// A document type declaration is refused before libxml2 reads its internal subset: JUnit
    /// needs none, and a DTD is where entity bombs ("billion laughs") and external entities
    /// live. `XML_PARSE_HUGE` lifts libxml2's 10 MB limit on one text node: a test's
    /// `<system-out>` may be longer (the file itself is capped by `RegularFile.junitLimit`).
    /// Without it libxml2 stopped at the limit and returned the document cut there as
    /// well-formed, so the tests after it were lost; a parse that stopped before the end is refused.
    init(data: Data, name: String) throws {
        if data.isEmpty { throw XMLError("\(name): not well-formed XML (the file is empty)") }
        guard data.count <= Int(Int32.max) else {
            throw XMLError("\(name): \(data.count) bytes is more than libxml2 parses at once")
        }
        var parsed: xmlDocPtr?
        var failure: String?
        data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
            guard let base = raw.baseAddress?.assumingMemoryBound(to: CChar.self) else { return }
            // No network, no DTD loading, no entity substitution (no NOENT, DTDLOAD).
            let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue
                | XML_PARSE_HUGE.rawValue)
            guard let ctxt = xmlNewParserCtxt() else { failure = "libxml2 could not allocate a parser"; return }
            defer { xmlFreeParserCtxt(ctxt) }
            // `<!DOCTYPE …`: stop at once, before the internal subset's entity declarations.
            ctxt.pointee.sax?.pointee.internalSubset = { context, _, _, _ in
                xmlStopParser(context?.assumingMemoryBound(to: xmlParserCtxt.self))
            }
            parsed = xmlCtxtReadMemory(ctxt, base, Int32(raw.count), name, nil, options)
            if ctxt.pointee.errNo == Int32(XML_ERR_USER_STOP.rawValue) {
                failure = "it has a <!DOCTYPE> declaration; JUnit XML needs none, and robotci reads no DTD "
                    + "(entity definitions can expand without bound or read other files): remove the <!DOCTYPE …> part"
            } else if parsed == nil || ctxt.pointee.wellFormed == 0 || ctxt.pointee.disableSAX != 0 {
                if let err = xmlCtxtGetLastError(ctxt), let msg = err.pointee.message {
                    failure = "line \(err.pointee.line): \(String(cString: msg).trimmingCharacters(in: .whitespacesAndNewlines))"
                } else {
                    failure = "not well-formed XML"
                }
            }
        }
        guard let doc = parsed, failure == nil else {
            if let d = parsed { xmlFreeDoc(d) }
            let reason = failure ?? "unknown error"
            throw XMLError(reason.hasPrefix("it has") ? "\(name): refused: \(reason)" : "\(name): not well-formed XML (\(reason))")
        }
        self.doc = doc
    }

    deinit { xmlFreeDoc(doc) }

    var root: XMLNodeRef? { xmlDocGetRootElement(doc).map(XMLNodeRef.init) }
}

/// A borrowed element of an `XMLTree` (valid while the tree lives).
struct XMLNodeRef {
    let node: xmlNodePtr

    var name: String { node.pointee.name.map { String(cString: $0) } ?? "" }

    func attribute(_ name: String) -> String? {
        guard let value = xmlGetProp(node, name) else { return nil }
        defer { robotci_xml_free(value) }
        return String(cString: value)
    }

    var children: [XMLNodeRef] {
        var out: [XMLNodeRef] = []
        var child = node.pointee.children
        while let c = child {
            if c.pointee.type == XML_ELEMENT_NODE { out.append(XMLNodeRef(node: c)) }
            child = c.pointee.next
        }
        return out
    }

    var text: String {
        guard let content = xmlNodeGetContent(node) else { return "" }
        defer { robotci_xml_free(content) }
        return String(cString: content)
    }
}
