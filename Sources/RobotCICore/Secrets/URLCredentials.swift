import Foundation

/// Passwords written into URLs (`redis://:PASSWORD@host/run`, `postgres://user:PASSWORD@db/x`):
/// found wherever text carries them (a command line, an error, a test's output) and masked.
public enum URLCredentials {
    /// What stands in for a password.
    public static let mask = "***"

    /// `text` with the password of every `scheme://user:password@host` replaced by `***`
    /// (the user name stays, so a reader still sees which account was used).
    public static func masked(_ text: String) -> String {
        guard text.contains("://") else { return text }
        var out = ""
        var rest = Substring(text)
        while let found = rest.range(of: "://") {
            out += rest[..<found.upperBound]
            rest = rest[found.upperBound...]
            guard let (user, _, after) = userInfo(at: rest) else { continue }
            out += user + ":" + mask + "@"
            rest = after
        }
        return out + rest
    }

    /// The passwords (as written, and percent-decoded) of every URL in `text` that has one.
    public static func passwords(in text: String) -> [String] {
        var found: [String] = []
        var rest = Substring(text)
        while let start = rest.range(of: "://") {
            rest = rest[start.upperBound...]
            guard let (_, password, after) = userInfo(at: rest) else { continue }
            found.append(String(password))
            if let decoded = String(password).removingPercentEncoding, decoded != String(password) { found.append(decoded) }
            rest = after
        }
        return found
    }

    /// At the start of an authority (`user:password@host…`): user, password and what follows
    /// the `@`; nil when there is no `user:password@` (no colon, or no `@` before the host ends).
    private static func userInfo(at authority: Substring) -> (Substring, Substring, Substring)? {
        // The authority ends at the path, query, fragment or anything that ends a URL in text.
        let end = authority.firstIndex { " \t\r\n/?#\"'<>`\\".contains($0) } ?? authority.endIndex
        let span = authority[..<end]
        // The last `@`: an unencoded `@` in a password is a common mistake, and still a password.
        guard let at = span.lastIndex(of: "@"), let colon = span[..<at].firstIndex(of: ":") else { return nil }
        let password = span[span.index(after: colon)..<at]
        guard !password.isEmpty, password != Substring(mask) else { return nil }
        return (span[..<colon], password, authority[authority.index(after: at)...])
    }
}
