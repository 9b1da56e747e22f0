import Foundation
@preconcurrency import Yams

/// Writes a YAML node as JSON text, keeping the key order of the file
/// (JSONSerialization would not), so `json: {a: 1}` in a scenario serves `{"a":1}`.
enum YAMLToJSON {
    /// Thrown for values JSON cannot hold; `line` points at the value.
    struct Unrepresentable: Error {
        let problem: String
        let line: Int?
    }

    static func encode(_ node: Node) throws -> Data {
        var output = ""
        try write(node, to: &output)
        return Data(output.utf8)
    }

    private static func write(_ node: Node, to output: inout String) throws {
        switch node {
        case .scalar(let scalar):
            try writeScalar(node, scalar, to: &output)
        case .sequence(let sequence):
            output += "["
            for (index, element) in sequence.enumerated() {
                if index > 0 { output += "," }
                try write(element, to: &output)
            }
            output += "]"
        case .mapping(let mapping):
            output += "{"
            for (index, pair) in mapping.enumerated() {
                if index > 0 { output += "," }
                guard case .scalar(let key) = pair.key else {
                    throw Unrepresentable(problem: "JSON object keys must be plain values", line: pair.key.mark?.line)
                }
                writeString(key.string, to: &output)
                output += ":"
                try write(pair.value, to: &output)
            }
            output += "}"
        }
    }

    private static func writeScalar(_ node: Node, _ scalar: Node.Scalar, to output: inout String) throws {
        switch node.tag.description {
        case Tag.Name.null.rawValue:
            output += "null"
        case Tag.Name.bool.rawValue:
            output += (node.bool ?? false) ? "true" : "false"
        case Tag.Name.int.rawValue:
            guard let value = node.checkedInt else { return writeString(scalar.string, to: &output) }
            output += String(value)
        case Tag.Name.float.rawValue:
            guard let value = node.float else { return writeString(scalar.string, to: &output) }
            guard value.isFinite else {
                throw Unrepresentable(problem: "'\(scalar.string)' has no JSON form; quote it to send a string", line: scalar.mark?.line)
            }
            output += value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
        default:
            writeString(scalar.string, to: &output)
        }
    }

    private static func writeString(_ string: String, to output: inout String) {
        output += "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case _ where scalar.value < 0x20:
                output += String(format: "\\u%04x", scalar.value)
            default:
                output.unicodeScalars.append(scalar)
            }
        }
        output += "\""
    }
}
