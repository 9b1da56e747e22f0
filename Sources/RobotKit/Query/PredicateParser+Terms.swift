extension PredicateParser {
    static let keyHint = "RobotKit predicates compare label, identifier, value, placeholderValue or elementType"
    static let operatorHint = "use ==, !=, BEGINSWITH, CONTAINS, ENDSWITH, LIKE or MATCHES"
    private static let aggregates: Set<String> = ["ANY", "ALL", "SOME", "NONE", "SUBQUERY", "FUNCTION"]
    private static let wordOperators: [String: ElementPredicate.Operator] = [
        "BEGINSWITH": .beginsWith, "CONTAINS": .contains, "ENDSWITH": .endsWith, "LIKE": .like, "MATCHES": .matches,
    ]
    private static let symbolOperators: [String: ElementPredicate.Operator] = [
        "==": .equals, "=": .equals, "!=": .notEquals, "<>": .notEquals,
    ]

    mutating func parseKey() throws(ElementPredicate.FormatError) -> ElementPredicate.Key {
        let token = advance()
        let name: String
        switch token.kind {
        case .word(let word) where Self.aggregates.contains(word.uppercased()):
            throw refusal("unsupported \(word.uppercased())", at: token, hint: Self.keyHint + ", each of one element")
        case .word(let word):
            name = word
        case .placeholder("K"):
            name = try arguments.key(column: token.column)
        case .end:
            throw refusal("missing condition", at: token, hint: "write a comparison such as label == \"Save\"")
        default:
            throw refusal("expected a key, found \(token.text)", at: token, hint: Self.keyHint)
        }
        guard let key = ElementPredicate.Key(rawValue: name) else {
            throw refusal("unsupported key '\(name)'", at: token, hint: Self.keyHint)
        }
        if case .symbol(".") = current.kind {
            throw refusal("unsupported key path '\(name).'", at: token, hint: Self.keyHint)
        }
        return key
    }

    mutating func parseOperator() throws(ElementPredicate.FormatError) -> (ElementPredicate.Operator, PredicateToken) {
        let token = advance()
        switch token.kind {
        case .word(let word):
            if let found = Self.wordOperators[word.uppercased()] { return (found, token) }
        case .symbol(let symbol):
            if let found = Self.symbolOperators[symbol] { return (found, token) }
        case .end:
            throw refusal("missing operator", at: token, hint: Self.operatorHint)
        default:
            break
        }
        throw refusal("unsupported operator '\(token.text)'", at: token, hint: Self.operatorHint)
    }

    mutating func parseOptions() throws(ElementPredicate.FormatError) -> ElementPredicate.Options {
        guard case .modifier(let letters) = current.kind else { return [] }
        let token = advance()
        var options: ElementPredicate.Options = []
        for letter in letters.lowercased() {
            switch letter {
            case "c": options.insert(.caseInsensitive)
            case "d": options.insert(.diacriticInsensitive)
            default: throw refusal("unsupported modifier '[\(letters)]'", at: token, hint: "use [c], [d] or [cd]")
            }
        }
        guard !letters.isEmpty else { throw refusal("empty modifier '[]'", at: token, hint: "use [c], [d] or [cd]") }
        return options
    }

    mutating func parseValue() throws(ElementPredicate.FormatError) -> String {
        let token = advance()
        switch token.kind {
        case .string(let text), .number(let text):
            return text
        case .placeholder(let conversion) where conversion != "K":
            return try arguments.value(column: token.column)
        case .word(let word) where ["TRUE", "YES"].contains(word.uppercased()):
            return "1"  // a switch's value, as XCUITest reports it
        case .word(let word) where ["FALSE", "NO"].contains(word.uppercased()):
            return "0"
        case .word(let word) where ["NIL", "NULL"].contains(word.uppercased()):
            throw refusal("unsupported \(word)", at: token, hint: "an element without a value has the value \"\"; compare with that")
        case .end:
            throw refusal("missing value", at: token, hint: "put a quoted string or %@ after the operator")
        default:
            throw refusal("expected a quoted string, a number or %@, found \(token.text)", at: token)
        }
    }

    /// `elementType` compares by type name only: `elementType == "button"` or `%@` with
    /// `XCUIElement.ElementType.button.rawValue`; XCUITest's numbers mean nothing here.
    func elementTypeComparison(_ test: ElementPredicate.StringTest, _ operatorToken: PredicateToken, _ valueToken: PredicateToken)
        throws(ElementPredicate.FormatError) -> ElementPredicate.Node
    {
        guard test.operator == .equals || test.operator == .notEquals, test.options.isEmpty else {
            throw refusal("unsupported operator '\(operatorToken.text)' for elementType", at: operatorToken, hint: "use == or !=")
        }
        let names = WebElement.ElementType.allCases.map(\.rawValue)
        guard let type = WebElement.ElementType.allCases.first(where: { $0.rawValue.lowercased() == test.text.lowercased() }) else {
            throw refusal("unknown element type \"\(test.text)\"", at: valueToken, hint: "use one of " + names.joined(separator: ", "))
        }
        let node = ElementPredicate.Node.comparison(.elementType, .init(.equals, type.rawValue))
        return test.operator == .equals ? node : .not(node)
    }
}
