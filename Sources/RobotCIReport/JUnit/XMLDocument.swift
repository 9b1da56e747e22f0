import CLibXML2
import Foundation

/// Owns one parsed libxml2 document; frees it in `deinit`.
final class XMLTree {
    private let doc: xmlDocPtr

    /// Parses `data`; a malformed document throws with libxml2's line and message.
    init(data: Data, name: String) throws {
        var parsed: xmlDocPtr?
        var failure: String?
        data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
            guard let base = raw.baseAddress?.assumingMemoryBound(to: CChar.self) else { return }
            // No network, no entity expansion from outside, no DTD loading.
            let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue | XML_PARSE_HUGE.rawValue)
            guard let ctxt = xmlNewParserCtxt() else { failure = "libxml2 could not allocate a parser"; return }
            defer { xmlFreeParserCtxt(ctxt) }
            parsed = xmlCtxtReadMemory(ctxt, base, Int32(raw.count), name, nil, options)
            if parsed == nil || ctxt.pointee.wellFormed == 0 {
                if let err = xmlCtxtGetLastError(ctxt), let msg = err.pointee.message {
                    failure = "line \(err.pointee.line): \(String(cString: msg).trimmingCharacters(in: .whitespacesAndNewlines))"
                } else {
                    failure = "not well-formed XML"
                }
            }
        }
        if data.isEmpty { failure = "the file is empty" }
        guard let doc = parsed, failure == nil else {
            if let d = parsed { xmlFreeDoc(d) }
            throw XMLError("\(name): not well-formed XML (\(failure ?? "unknown error"))")
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
