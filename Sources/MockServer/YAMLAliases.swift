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
        // Each anchor's size once expanded; each open collection's size so far (capped past
        // the budget, so nothing overflows).
        var anchors: [String: Int] = [:]
        var open: [(anchor: String?, nodes: Int)] = []
        var added = 0
        func count(_ nodes: Int) {
            guard !open.isEmpty else { return }
            open[open.count - 1].nodes = min(open[open.count - 1].nodes + nodes, budget + 1)
        }
        let name = YAMLEvents.name
        return YAMLEvents.firstLine(in: yaml) { event in
            switch event.type {
            case YAML_SCALAR_EVENT:
                if let anchor = name(event.data.scalar.anchor) { anchors[anchor] = 1 }
                count(1)
            case YAML_ALIAS_EVENT:
                let nodes = name(event.data.alias.anchor).flatMap { anchors[$0] } ?? 1
                added += nodes
                if added > budget { return true }
                count(nodes)
            case YAML_SEQUENCE_START_EVENT:
                open.append((name(event.data.sequence_start.anchor), 1))
            case YAML_MAPPING_START_EVENT:
                open.append((name(event.data.mapping_start.anchor), 1))
            case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
                guard let closed = open.popLast() else { break }
                if let anchor = closed.anchor { anchors[anchor] = closed.nodes }
                count(closed.nodes)
            default:
                break
            }
            return false
        }
    }
}
