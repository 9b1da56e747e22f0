import Foundation

extension ElementPredicate {
    /// What `robotkit-page/query.js` evaluates (`compilePredicate`): a refused format travels as
    /// `invalid` with its message, so the query fails when it runs, at the caller's line.
    var json: [String: Any] {
        switch parsed {
        case .success(let node): node.json
        case .failure(let error): ["op": "invalid", "message": error.message]
        }
    }
}

extension ElementPredicate.Node {
    var json: [String: Any] {
        switch self {
        case .comparison(let key, let test):
            [
                "op": "compare", "key": key.rawValue, "test": test.operator.pageName, "text": test.text,
                "c": test.options.contains(.caseInsensitive), "d": test.options.contains(.diacriticInsensitive),
            ]
        case .and(let lhs, let rhs): ["op": "and", "of": [lhs.json, rhs.json]]
        case .or(let lhs, let rhs): ["op": "or", "of": [lhs.json, rhs.json]]
        case .not(let operand): ["op": "not", "of": [operand.json]]
        case .constant(let value): ["op": "constant", "value": value]
        }
    }

    /// NSPredicate's syntax, parenthesized where precedence needs it (`nested`: inside AND/NOT).
    func format(nested: Bool) -> String {
        switch self {
        case .comparison(let key, let test):
            return "\(key.rawValue) \(test.operator.rawValue)\(test.options.modifier) \(Self.quoted(test.text))"
        case .and(let lhs, let rhs):
            return "\(lhs.format(nested: true)) AND \(rhs.format(nested: true))"
        case .or(let lhs, let rhs):
            let text = "\(lhs.format(nested: false)) OR \(rhs.format(nested: false))"
            return nested ? "(\(text))" : text
        case .not(let operand):
            return "NOT \(operand.isLeaf ? operand.format(nested: true) : "(\(operand.format(nested: false)))")"
        case .constant(let value):
            return value ? "TRUEPREDICATE" : "FALSEPREDICATE"
        }
    }

    private var isLeaf: Bool {
        switch self {
        case .comparison, .constant: true
        case .and, .or, .not: false
        }
    }

    private static func quoted(_ text: String) -> String {
        let escaped = text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
        return "\"\(escaped)\""
    }
}

extension ElementPredicate.Operator {
    /// The name `query.js` switches on.
    var pageName: String {
        switch self {
        case .equals: "equals"
        case .notEquals: "notEquals"
        case .beginsWith: "beginsWith"
        case .contains: "contains"
        case .endsWith: "endsWith"
        case .like: "like"
        case .matches: "matches"
        }
    }
}

extension ElementPredicate.Options {
    /// `[c]`, `[d]`, `[cd]` or nothing.
    var modifier: String {
        let letters = (contains(.caseInsensitive) ? "c" : "") + (contains(.diacriticInsensitive) ? "d" : "")
        return letters.isEmpty ? "" : "[\(letters)]"
    }
}
