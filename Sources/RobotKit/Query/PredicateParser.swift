import Foundation

/// Parses the NSPredicate subset into `ElementPredicate.Node`, by recursive descent with
/// NSPredicate's precedence: `NOT` binds tightest, then `AND`, then `OR`; parentheses group.
/// Anything outside the subset is refused by name and column, never guessed at.
struct PredicateParser {
    private let format: String
    var arguments: PredicateArguments
    private var tokens: [PredicateToken] = []
    private var position = 0

    init(format: String, arguments: [Any]) {
        self.format = format
        self.arguments = PredicateArguments(arguments)
    }

    mutating func parse() throws(ElementPredicate.FormatError) -> ElementPredicate.Node {
        do throws(ElementPredicate.FormatError) {
            tokens = try PredicateLexer.tokens(of: format)
            let node = try parseOr()
            guard current.kind == .end else { throw refusal("unexpected \(current.text)", hint: "join conditions with AND or OR") }
            try arguments.requireAllUsed(column: current.column)
            return node
        } catch {
            var error = error
            error.format = format
            throw error
        }
    }

    var current: PredicateToken { tokens[min(position, tokens.count - 1)] }

    func refusal(_ problem: String, at token: PredicateToken? = nil, hint: String = "") -> ElementPredicate.FormatError {
        .init(problem, column: (token ?? current).column, hint: hint)
    }

    mutating func advance() -> PredicateToken {
        let token = current
        position += 1
        return token
    }

    /// Consumes the current token if it is one of `words` (any case) or `symbols`.
    private mutating func accept(words: Set<String> = [], symbols: Set<String> = []) -> Bool {
        switch current.kind {
        case .word(let word) where words.contains(word.uppercased()), .symbol(let word) where symbols.contains(word):
            position += 1
            return true
        default:
            return false
        }
    }

    private mutating func parseOr() throws(ElementPredicate.FormatError) -> ElementPredicate.Node {
        var node = try parseAnd()
        while accept(words: ["OR"], symbols: ["||"]) { node = .or(node, try parseAnd()) }
        return node
    }

    private mutating func parseAnd() throws(ElementPredicate.FormatError) -> ElementPredicate.Node {
        var node = try parseNot()
        while accept(words: ["AND"], symbols: ["&&"]) { node = .and(node, try parseNot()) }
        return node
    }

    private mutating func parseNot() throws(ElementPredicate.FormatError) -> ElementPredicate.Node {
        if accept(words: ["NOT"], symbols: ["!"]) { return .not(try parseNot()) }
        return try parsePrimary()
    }

    private mutating func parsePrimary() throws(ElementPredicate.FormatError) -> ElementPredicate.Node {
        if accept(symbols: ["("]) {
            let opening = tokens[position - 1]
            let node = try parseOr()
            guard accept(symbols: [")"]) else {
                throw refusal("expected ) to close the ( at column \(opening.column), found \(current.text)")
            }
            return node
        }
        if accept(words: ["TRUEPREDICATE"]) { return .constant(true) }
        if accept(words: ["FALSEPREDICATE"]) { return .constant(false) }
        return try parseComparison()
    }

    private mutating func parseComparison() throws(ElementPredicate.FormatError) -> ElementPredicate.Node {
        let key = try parseKey()
        let (comparison, operatorToken) = try parseOperator()
        let options = try parseOptions()
        let valueToken = current
        let text = try parseValue()
        let test = ElementPredicate.StringTest(comparison, text, options: options)
        if key == .elementType { return try elementTypeComparison(test, operatorToken, valueToken) }
        return .comparison(key, test)
    }
}
