/// A condition on an element's accessibility attributes, the subset of `NSPredicate` that UI
/// tests write: `label BEGINSWITH[c] "Total"`, `identifier == "save" OR value CONTAINS "1"`.
/// It is evaluated in the page (`robotkit-page/query.js`), against the same label,
/// identifier and value that queries and `debugDescription` show.
///
/// Spelled as XCUITest does, `query.matching(NSPredicate(format: "label BEGINSWITH %@", "Total"))`,
/// or in Swift, `query.matching(.label(.beginsWith("Total")))`, or from a format that
/// throws at once: `try ElementPredicate(format: "label BEGINSWITH %@", "Total")`.
public struct ElementPredicate: Sendable, Equatable, CustomStringConvertible {
    /// The attributes a predicate can compare, named as in `XCUIElementAttributes`.
    public enum Key: String, Sendable, CaseIterable {
        case label, identifier, value, placeholderValue, elementType
    }

    /// How a comparison treats case and diacritics: NSPredicate's `[c]`, `[d]` and `[cd]`.
    public struct Options: OptionSet, Sendable, Hashable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }
        /// `[c]`: `"TOTAL"` equals `"total"`.
        public static let caseInsensitive = Options(rawValue: 1)
        /// `[d]`: `"café"` equals `"cafe"`.
        public static let diacriticInsensitive = Options(rawValue: 2)
    }

    /// The string operators of the subset.
    public enum Operator: String, Sendable, CaseIterable {
        case equals = "==", notEquals = "!="
        case beginsWith = "BEGINSWITH", contains = "CONTAINS", endsWith = "ENDSWITH"
        /// `*` stands for any run of characters, `?` for one; the whole string must match.
        case like = "LIKE"
        /// A regular expression the whole string must match.
        case matches = "MATCHES"
    }

    /// One `key OPERATOR "text"`, without the key: what `.label(_:)` and its siblings take.
    public struct StringTest: Sendable, Equatable {
        public var `operator`: Operator
        public var text: String
        public var options: Options

        public init(_ operator: Operator, _ text: String, options: Options = []) {
            self.operator = `operator`
            self.text = text
            self.options = options
        }

        public static func equals(_ text: String, options: Options = []) -> Self { .init(.equals, text, options: options) }
        public static func notEquals(_ text: String, options: Options = []) -> Self { .init(.notEquals, text, options: options) }
        public static func beginsWith(_ text: String, options: Options = []) -> Self { .init(.beginsWith, text, options: options) }
        public static func contains(_ text: String, options: Options = []) -> Self { .init(.contains, text, options: options) }
        public static func endsWith(_ text: String, options: Options = []) -> Self { .init(.endsWith, text, options: options) }
        public static func like(_ pattern: String, options: Options = []) -> Self { .init(.like, pattern, options: options) }
        public static func matches(_ regex: String, options: Options = []) -> Self { .init(.matches, regex, options: options) }
    }

    /// The tree the parser builds and the page evaluates.
    indirect enum Node: Sendable, Equatable {
        case comparison(Key, StringTest)
        case and(Node, Node)
        case or(Node, Node)
        case not(Node)
        case constant(Bool)
    }

    /// The parsed tree, or why the format was refused: a query carries the refusal to the
    /// moment it runs, as XCUITest's lazy queries fail when used, not when built.
    let parsed: Result<Node, FormatError>

    init(_ node: Node) { parsed = .success(node) }
    init(refusing error: FormatError) { parsed = .failure(error) }

    /// Parses `format`, substituting `%@` (and `%d`, `%K`, …) from `arguments` in order.
    public init(format: String, _ arguments: any CVarArg...) throws(FormatError) {
        try self.init(format: format, argumentArray: arguments)
    }

    /// Parses `format` with its arguments as an array, like `NSPredicate(format:argumentArray:)`.
    public init(format: String, argumentArray: [Any]) throws(FormatError) {
        var parser = PredicateParser(format: format, arguments: argumentArray)
        parsed = .success(try parser.parse())
    }

    public static func label(_ test: StringTest) -> Self { .init(.comparison(.label, test)) }
    public static func identifier(_ test: StringTest) -> Self { .init(.comparison(.identifier, test)) }
    public static func value(_ test: StringTest) -> Self { .init(.comparison(.value, test)) }
    public static func placeholderValue(_ test: StringTest) -> Self { .init(.comparison(.placeholderValue, test)) }
    /// Elements of `type` (useful under `.any` and in `containing(_:)`).
    public static func elementType(_ type: WebElement.ElementType) -> Self {
        .init(.comparison(.elementType, StringTest(.equals, type.rawValue)))
    }

    /// Holds for every element.
    public static let always = Self(.constant(true))

    public static func && (lhs: Self, rhs: Self) -> Self { lhs.combined(with: rhs, Node.and) }
    public static func || (lhs: Self, rhs: Self) -> Self { lhs.combined(with: rhs, Node.or) }
    public static prefix func ! (operand: Self) -> Self { .init(parsed: operand.parsed.map(Node.not)) }

    private init(parsed: Result<Node, FormatError>) { self.parsed = parsed }

    private func combined(with other: Self, _ join: (Node, Node) -> Node) -> Self {
        switch (parsed, other.parsed) {
        case (.success(let lhs), .success(let rhs)): .init(join(lhs, rhs))
        case (.failure(let error), _), (_, .failure(let error)): .init(refusing: error)
        }
    }

    /// The predicate in NSPredicate's syntax, with every string quoted: `label BEGINSWITH[c] "Total"`.
    public var description: String {
        switch parsed {
        case .success(let node): node.format(nested: false)
        // The reason is the query's error message: a description that repeated it would say it twice.
        case .failure(let error): "<refused predicate \"\(error.format)\">"
        }
    }
}
