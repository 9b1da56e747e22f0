internal import CYaml  // libyaml's event parser: the text is measured before anything is built

/// How far a YAML document's aliases expand, measured on libyaml's event stream before Yams
/// composes it. Yams keeps an alias as a copy of its anchor's node, so composing is cheap, but
/// everything that walks the result (the scenario reader, `json:` → JSON) visits each copy:
/// nine anchors of ten aliases each ("billion laughs") are 10⁹ nodes in a few hundred bytes.
enum YAMLAliases {
    /// Nodes that aliases may add to a document in all: far more than any scenario reuses.
    static let budget = 100_000

    /// The 1-based line of the alias that takes the nodes added by aliases past `budget`; nil
    /// when they stay within it, or when the text does not parse (Yams then reports the error).
    static func lineOverBudget(_ yaml: String, budget: Int = budget) -> Int? {
        let bytes = Array(yaml.utf8)
        guard !bytes.isEmpty else { return nil }
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) == 1 else { return nil }
        defer { yaml_parser_delete(&parser) }
        return bytes.withUnsafeBufferPointer { buffer -> Int? in
            yaml_parser_set_encoding(&parser, YAML_UTF8_ENCODING)
            yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)
            // Each anchor's size once expanded; each open collection's size so far (capped past
            // the budget, so nothing overflows).
            var anchors: [String: Int] = [:]
            var open: [(anchor: String?, nodes: Int)] = []
            var added = 0
            func count(_ nodes: Int) {
                guard !open.isEmpty else { return }
                open[open.count - 1].nodes = min(open[open.count - 1].nodes + nodes, budget + 1)
            }
            var event = yaml_event_t()
            while yaml_parser_parse(&parser, &event) == 1 {
                defer { yaml_event_delete(&event) }
                switch event.type {
                case YAML_SCALAR_EVENT:
                    if let anchor = name(event.data.scalar.anchor) { anchors[anchor] = 1 }
                    count(1)
                case YAML_ALIAS_EVENT:
                    let nodes = name(event.data.alias.anchor).flatMap { anchors[$0] } ?? 1
                    added += nodes
                    if added > budget { return Int(event.start_mark.line) + 1 }
                    count(nodes)
                case YAML_SEQUENCE_START_EVENT:
                    open.append((name(event.data.sequence_start.anchor), 1))
                case YAML_MAPPING_START_EVENT:
                    open.append((name(event.data.mapping_start.anchor), 1))
                case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
                    guard let closed = open.popLast() else { break }
                    if let anchor = closed.anchor { anchors[anchor] = closed.nodes }
                    count(closed.nodes)
                case YAML_STREAM_END_EVENT:
                    return nil
                default:
                    break
                }
            }
            return nil
        }
    }

    private static func name(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
        pointer.map { String(cString: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self)) }
    }
}
