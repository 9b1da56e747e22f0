import Foundation

/// The arguments of a format, taken in order by its placeholders, as NSPredicate does.
struct PredicateArguments {
    private let values: [Any]
    private var next = 0

    init(_ values: [Any]) { self.values = values }

    /// The next argument as the text a comparison uses.
    mutating func value(column: Int) throws(ElementPredicate.FormatError) -> String {
        let argument = try take(column: column)
        if let text = Self.text(of: argument) { return text }
        throw .init(
            "argument \(next) (a \(type(of: argument))) is not a string or a number", column: column,
            hint: "pass a String, a number or an element type's rawValue")
    }

    /// The next argument as a key name, for `%K`.
    mutating func key(column: Int) throws(ElementPredicate.FormatError) -> String {
        let argument = try take(column: column)
        guard let name = argument as? String else {
            throw .init("argument \(next) for %K is not a string", column: column, hint: "pass the key's name, such as \"label\"")
        }
        return name
    }

    func requireAllUsed(column: Int) throws(ElementPredicate.FormatError) {
        guard next < values.count else { return }
        throw .init(
            "\(values.count) arguments for \(next) placeholders", column: column,
            hint: "add a %@ for each argument or remove the extra ones")
    }

    private mutating func take(column: Int) throws(ElementPredicate.FormatError) -> Any {
        guard next < values.count else {
            throw .init(
                "placeholder without an argument", column: column,
                hint: "pass one argument per %@ or %K (\(values.count) given)")
        }
        next += 1
        return values[next - 1]
    }

    private static func text(of argument: Any) -> String? {
        switch argument {
        case let text as String: text
        case let text as Substring: String(text)
        case let type as WebElement.ElementType: type.rawValue
        case let flag as Bool: flag ? "1" : "0"
        case let number as any BinaryInteger: "\(number)"
        case let number as Double: number.rounded() == number && abs(number) < 1e15 ? "\(Int(number))" : "\(number)"
        case let number as Float: text(of: Double(number))
        case let number as NSNumber: number.stringValue
        case let text as NSString: String(describing: text)
        default: nil
        }
    }
}
