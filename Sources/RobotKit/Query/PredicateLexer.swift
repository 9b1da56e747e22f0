/// The tokens of an NSPredicate format, each with the column it starts at, so every
/// refusal can point at the part of the format it is about.
struct PredicateToken: Equatable {
    enum Kind: Equatable {
        /// A name or keyword: `label`, `AND`, `BEGINSWITH`, `TRUEPREDICATE`.
        case word(String)
        /// A quoted literal, its escapes resolved.
        case string(String)
        case number(String)
        /// `%@`, `%K`, `%d`, …: the conversion letter(s) after `%`.
        case placeholder(String)
        /// Operators and punctuation: `==`, `!=`, `&&`, `(`, `<`, `{`, ….
        case symbol(String)
        /// What is between `[` and `]` after an operator: `c`, `cd`.
        case modifier(String)
        case end
    }

    var kind: Kind
    /// 1-based, in characters of the format.
    var column: Int

    /// The token as the format spelled it, for messages.
    var text: String {
        switch kind {
        case .word(let word): word
        case .string(let string): "\"\(string)\""
        case .number(let number): number
        case .placeholder(let conversion): "%" + conversion
        case .symbol(let symbol): symbol
        case .modifier(let modifier): "[\(modifier)]"
        case .end: "the end of the format"
        }
    }
}

/// Splits a format into `PredicateToken`s.
struct PredicateLexer {
    private let characters: [Character]
    private var index = 0

    init(_ format: String) { characters = Array(format) }

    /// Longest first, so `==` is not read as `=` twice.
    private static let symbols = ["==", "!=", "<>", "<=", ">=", "=<", "=>", "&&", "||", "=", "!", "<", ">", "(", ")", "{", "}", ",", "."]
    private static let conversions: Set<Character> = ["@", "K", "d", "i", "u", "x", "X", "f", "g", "e", "s", "c", "o"]

    static func tokens(of format: String) throws(ElementPredicate.FormatError) -> [PredicateToken] {
        var lexer = PredicateLexer(format)
        var tokens: [PredicateToken] = []
        while true {
            let token = try lexer.next()
            tokens.append(token)
            if token.kind == .end { return tokens }
        }
    }

    private mutating func next() throws(ElementPredicate.FormatError) -> PredicateToken {
        while index < characters.count, characters[index].isWhitespace { index += 1 }
        let start = index
        let column = start + 1
        guard index < characters.count else { return PredicateToken(kind: .end, column: column) }
        let first = characters[index]
        if first == "\"" || first == "'" { return PredicateToken(kind: .string(try quoted(by: first)), column: column) }
        if first == "%" { return PredicateToken(kind: .placeholder(try placeholder()), column: column) }
        if first == "[" { return PredicateToken(kind: .modifier(try modifier()), column: column) }
        if first.isNumber || (first == "-" && index + 1 < characters.count && characters[index + 1].isNumber) {
            index += 1
            while index < characters.count, characters[index].isNumber || characters[index] == "." { index += 1 }
            return PredicateToken(kind: .number(String(characters[start..<index])), column: column)
        }
        if first.isLetter || first == "_" || first == "$" || first == "@" || first == "#" {
            index += 1
            while index < characters.count, characters[index].isLetter || characters[index].isNumber || characters[index] == "_" {
                index += 1
            }
            return PredicateToken(kind: .word(String(characters[start..<index])), column: column)
        }
        for symbol in Self.symbols where characters[index...].starts(with: symbol) {
            index += symbol.count
            return PredicateToken(kind: .symbol(symbol), column: column)
        }
        throw .init("unexpected character '\(first)'", column: column)
    }

    private mutating func quoted(by quote: Character) throws(ElementPredicate.FormatError) -> String {
        let column = index + 1
        index += 1
        var text = ""
        while index < characters.count {
            let character = characters[index]
            index += 1
            if character == quote { return text }
            guard character == "\\" else {
                text.append(character)
                continue
            }
            guard index < characters.count else { break }
            let escaped = characters[index]
            index += 1
            switch escaped {
            case "n": text.append("\n")
            case "t": text.append("\t")
            case "r": text.append("\r")
            case "0": text.append("\0")
            default: text.append(escaped)
            }
        }
        throw .init("unterminated string", column: column, hint: "add the closing \(quote)")
    }

    private mutating func placeholder() throws(ElementPredicate.FormatError) -> String {
        let column = index + 1
        index += 1
        var conversion = ""
        // Length modifiers (`%ld`, `%lld`, `%hd`, `%qd`, `%zu`) name the same argument as `%d`.
        while index < characters.count, "lhqz".contains(characters[index]) {
            conversion.append(characters[index])
            index += 1
        }
        guard index < characters.count, Self.conversions.contains(characters[index]) else {
            let shown = index < characters.count ? conversion + String(characters[index]) : conversion
            throw .init("unsupported placeholder '%\(shown)'", column: column, hint: "use %@ for a value or %K for a key")
        }
        conversion.append(characters[index])
        index += 1
        return conversion
    }

    private mutating func modifier() throws(ElementPredicate.FormatError) -> String {
        let column = index + 1
        guard let close = characters[index...].firstIndex(of: "]") else {
            throw .init("unterminated modifier", column: column, hint: "close it with ]")
        }
        let text = String(characters[(index + 1)..<close])
        index = close + 1
        return text
    }
}
