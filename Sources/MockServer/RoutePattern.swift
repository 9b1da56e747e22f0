/// How a route matches a request path.
///
/// Exact and parameterized patterns ignore one trailing slash (`/users/` matches `/users`);
/// a pattern or path without a leading slash gets one (`api/users` is `/api/users`), as
/// in SwiftMockServer.
/// When several routes match, `exact` beats `parameterized`, which beats `prefix`,
/// which beats `catchAll`; among routes of one kind the one registered last wins,
/// so a test can override a route mid-test ("recovery" scenarios).
public enum RoutePattern: Hashable, Sendable, CustomStringConvertible {
    /// The path must equal this string (`/character`).
    case exact(String)
    /// `:name` segments match any one segment and are captured (`/character/:id`);
    /// `*` segments match any one segment and are not (`/files/*/download`).
    case parameterized(String)
    /// The path must start with this string (`/avatar/`).
    case prefix(String)
    /// Any path.
    case catchAll

    /// SwiftMockServer's name for ``catchAll``.
    public static let any = RoutePattern.catchAll

    /// The pattern as the journal shows it: `/character`, `/character/:id`, `/avatar/*`, `*`.
    public var description: String {
        switch self {
        case .exact(let path): path
        case .parameterized(let pattern): pattern
        case .prefix(let prefix): "\(prefix)*"
        case .catchAll: "*"
        }
    }

    /// Lower ranks win.
    var rank: Int {
        switch self {
        case .exact: 0
        case .parameterized: 1
        case .prefix: 2
        case .catchAll: 3
        }
    }

    /// The captured parameters when `path` matches, `nil` when it does not.
    func match(_ path: String) -> [String: String]? {
        switch self {
        case .exact(let expected):
            return path == expected || Self.trimmed(path) == Self.trimmed(expected) ? [:] : nil
        case .prefix(let prefix):
            return Self.rooted(path).hasPrefix(Self.rooted(prefix)) ? [:] : nil
        case .catchAll:
            return [:]
        case .parameterized(let pattern):
            return Self.capture(pattern: pattern, path: path)
        }
    }

    /// The path without one trailing slash (`/users/` → `/users`, `/` stays): like
    /// SwiftMockServer, exact and parameterized routes ignore a trailing slash.
    private static func trimmed(_ path: String) -> Substring {
        let rooted = rooted(path)
        return rooted.count > 1 && rooted.hasSuffix("/") ? rooted.dropLast() : Substring(rooted)
    }

    /// The path with a leading slash (`api/test` → `/api/test`).
    private static func rooted(_ path: String) -> String {
        path.hasPrefix("/") ? path : "/" + path
    }

    private static func capture(pattern: String, path: String) -> [String: String]? {
        let expected = trimmed(pattern).split(separator: "/", omittingEmptySubsequences: false)
        let actual = trimmed(path).split(separator: "/", omittingEmptySubsequences: false)
        guard expected.count == actual.count else { return nil }
        var parameters: [String: String] = [:]
        for (want, got) in zip(expected, actual) {
            if want.hasPrefix(":"), want.count > 1 {
                guard !got.isEmpty else { return nil }
                parameters[String(want.dropFirst())] = got.removingPercentEncoding ?? String(got)
            } else if want == "*" {
                guard !got.isEmpty else { return nil }
            } else if want != got {
                return nil
            }
        }
        return parameters
    }
}
