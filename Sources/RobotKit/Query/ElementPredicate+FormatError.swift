extension ElementPredicate {
    /// Why a format was refused: which part, where, and what to write instead.
    /// `unsupported operator '<' at column 7 of "value < 3": use ==, !=, BEGINSWITH, …`.
    public struct FormatError: Error, Equatable, CustomStringConvertible {
        /// The part refused: `unsupported key 'exists'`.
        public let problem: String
        /// 1-based column of that part in `format`.
        public let column: Int
        /// The whole format (filled in by the parser once the lexer refused a part).
        public internal(set) var format: String
        /// What to write instead, if anything.
        public let hint: String

        init(_ problem: String, column: Int, hint: String = "", format: String = "") {
            self.problem = problem
            self.column = column
            self.hint = hint
            self.format = format
        }

        /// A lowercase sentence naming the part, its column and the format.
        public var message: String {
            let place = "\(problem) at column \(column) of \"\(format)\""
            return hint.isEmpty ? place : "\(place): \(hint)"
        }

        public var description: String { message }
    }
}
