import Foundation

/// What a `DecodingError` says, in one line a person can act on (`missing 'test' at
/// .tests[0].id`): every reader of robotci's files and of the queue names what is wrong
/// with a file someone else wrote the same way.
public enum DecodingFailure {
    public static func describe(_ error: Swift.Error) -> String {
        switch error as? DecodingError {
        case .dataCorrupted(let c)?: return c.debugDescription + underlying(c)
        case .keyNotFound(let key, let c)?: return "missing '\(key.stringValue)' at \(location(c))"
        case .typeMismatch(_, let c)?, .valueNotFound(_, let c)?: return "\(c.debugDescription) at \(location(c))"
        default: return "\(error)"
        }
    }

    private static func underlying(_ c: DecodingError.Context) -> String {
        c.underlyingError.map { " (\(($0 as NSError).localizedDescription))" } ?? ""
    }

    private static func location(_ c: DecodingError.Context) -> String {
        let path = c.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
        return path.isEmpty ? "top level" : path
    }
}
