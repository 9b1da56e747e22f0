internal import CYaml  // libyaml, which Yams is built on: its event parser is iterative

/// How deep a YAML document nests, measured before Yams composes it: `Yams.compose`
/// recurses once per level, so a few KB of `{{{{…` overflowed the stack and crashed
/// `robotci mock` (found by fuzz/FuzzScenario).
enum YAMLDepth {
    /// Far more than any scenario needs, far less than overflows a thread's stack.
    static let limit = 128

    /// The 1-based line where the nesting first goes past `limit`; nil when it never does,
    /// or when the text does not parse (Yams then reports the syntax error).
    static func lineTooDeep(_ yaml: String, limit: Int = limit) -> Int? {
        var depth = 0
        return YAMLEvents.firstLine(in: yaml) { event in
            switch event.type {
            case YAML_SEQUENCE_START_EVENT, YAML_MAPPING_START_EVENT:
                depth += 1
                return depth > limit
            case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
                depth -= 1
            default:
                break
            }
            return false
        }
    }
}

/// libyaml's event stream, walked without building anything: the one loop the pre-checks
/// (`YAMLDepth`, `YAMLAliases`) share.
enum YAMLEvents {
    /// The 1-based line of the first event `stop` says yes to; nil at the end of the stream,
    /// or when the text does not parse (Yams then reports the syntax error).
    static func firstLine(in yaml: String, where stop: (yaml_event_t) -> Bool) -> Int? {
        let bytes = Array(yaml.utf8)
        guard !bytes.isEmpty else { return nil }
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) == 1 else { return nil }
        defer { yaml_parser_delete(&parser) }
        return bytes.withUnsafeBufferPointer { buffer -> Int? in
            yaml_parser_set_encoding(&parser, YAML_UTF8_ENCODING)
            yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)
            var event = yaml_event_t()
            while yaml_parser_parse(&parser, &event) == 1 {
                defer { yaml_event_delete(&event) }
                if event.type == YAML_STREAM_END_EVENT { return nil }
                if stop(event) { return Int(event.start_mark.line) + 1 }
            }
            return nil
        }
    }

    /// An anchor's name, as libyaml gives it.
    static func name(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
        pointer.map { String(cString: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self)) }
    }
}
