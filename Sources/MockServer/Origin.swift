import Foundation

/// A web origin as browsers send it in the `Origin` header: `scheme://host[:port]`.
///
/// Parsed strictly (ASCII letters, digits, `.`, `-`, `_`, a bracketed IPv6 host, a numeric
/// port), so `http://127.0.0.1.evil.example` is never taken for a loopback origin and an
/// origin that is echoed back cannot carry anything but itself.
struct Origin: Hashable, Sendable, CustomStringConvertible {
    /// Lowercase, e.g. `http`.
    let scheme: String
    /// Lowercase; an IPv6 host keeps its brackets, e.g. `[::1]`.
    let host: String
    /// The port, nil for the scheme's default (80 for http, 443 for https) or none.
    let port: Int?

    /// `scheme://host[:port]`, as a browser serializes it.
    var description: String {
        port.map { "\(scheme)://\(host):\($0)" } ?? "\(scheme)://\(host)"
    }

    /// Parses an `Origin` header's value; nil for anything else (`null` included).
    init?(_ text: String) {
        guard let parsed = Self.parse(text, allowAnyPort: false) else { return nil }
        self = parsed.origin
    }

    private init(scheme: String, host: String, port: Int?) {
        self.scheme = scheme
        self.host = host
        self.port = port
    }

    /// `scheme://host[:port]` or, when `allowAnyPort`, `scheme://host:*`.
    static func parse(_ text: String, allowAnyPort: Bool) -> (origin: Origin, anyPort: Bool)? {
        let lower = text.lowercased()
        guard let separator = lower.range(of: "://") else { return nil }
        let scheme = String(lower[..<separator.lowerBound])
        guard let first = scheme.unicodeScalars.first, ("a"..."z").contains(first),
            scheme.unicodeScalars.allSatisfy({ isAlphanumeric($0) || "+-.".unicodeScalars.contains($0) })
        else { return nil }
        var rest = lower[separator.upperBound...]
        let host: Substring
        if rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]") else { return nil }
            host = rest[...close]
            let inside = host.dropFirst().dropLast()
            guard !inside.isEmpty, inside.unicodeScalars.allSatisfy({ isHexDigit($0) || $0 == ":" || $0 == "." })
            else { return nil }
            rest = rest[rest.index(after: close)...]
        } else {
            let end = rest.firstIndex(of: ":") ?? rest.endIndex
            host = rest[..<end]
            guard !host.isEmpty, host.unicodeScalars.allSatisfy({ isAlphanumeric($0) || "-._".unicodeScalars.contains($0) })
            else { return nil }
            rest = rest[end...]
        }
        guard !rest.isEmpty else { return (Origin(scheme: scheme, host: String(host), port: nil), false) }
        guard rest.hasPrefix(":") else { return nil }
        let portText = rest.dropFirst()
        if allowAnyPort, portText == "*" { return (Origin(scheme: scheme, host: String(host), port: nil), true) }
        guard (1...5).contains(portText.count), portText.unicodeScalars.allSatisfy({ ("0"..."9").contains($0) }),
            let port = Int(portText), port <= 65535
        else { return nil }
        let isDefault = (scheme == "http" && port == 80) || (scheme == "https" && port == 443)
        return (Origin(scheme: scheme, host: String(host), port: isDefault ? nil : port), false)
    }

    private static func isAlphanumeric(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar)
    }

    private static func isHexDigit(_ scalar: Unicode.Scalar) -> Bool {
        ("0"..."9").contains(scalar) || ("a"..."f").contains(scalar)
    }
}

/// What a request's `Origin` header names: a web origin, a page opened from disk by a
/// Chromium with `--allow-file-access-from-files` (`file://`, as RobotKit's sends), or an
/// opaque origin (`null`: a page opened from disk in a browser as installed, sandboxed
/// frames, data: URLs…).
enum RequestOrigin: Hashable, Sendable {
    case web(Origin)
    case file
    case opaque

    /// Nil for a header that is none of these.
    init?(_ header: String) {
        switch header {
        case "null": self = .opaque
        case "file://": self = .file
        default:
            guard let origin = Origin(header) else { return nil }
            self = .web(origin)
        }
    }

    /// The origin of the page at `url`: `file` for a file, `scheme://host[:port]` for
    /// http(s); nil for other schemes (`about:`, `data:`, `blob:`), which have none worth naming.
    init?(pageAt url: URL) {
        switch url.scheme?.lowercased() {
        case "file":
            self = .file
        case "http", "https":
            guard let scheme = url.scheme, var host = url.host, !host.isEmpty else { return nil }
            if host.contains(":"), !host.hasPrefix("[") { host = "[\(host)]" }
            guard let web = Origin(url.port.map { "\(scheme)://\(host):\($0)" } ?? "\(scheme)://\(host)") else {
                return nil
            }
            self = .web(web)
        default:
            return nil
        }
    }

    /// As a browser serializes it in an `Origin` header.
    var serialized: String {
        switch self {
        case .web(let origin): origin.description
        case .file: "file://"
        case .opaque: "null"
        }
    }
}

/// One entry of ``MockServer/Configuration/allowedOrigins``.
enum OriginRule: Hashable, Sendable {
    /// `*`: every origin, answered `Access-Control-Allow-Origin: *`.
    case any
    /// `null`: pages opened from `file://`, whichever way the browser names them (`null` or
    /// `file://`), and other opaque origins.
    case opaque
    /// `file://`: pages opened from disk by a Chromium with `--allow-file-access-from-files`.
    case file
    /// One origin exactly.
    case exact(Origin)
    /// `scheme://host:*`: that host on any port.
    case anyPort(scheme: String, host: String)

    /// Parses a configured entry; nil when it is not one of these forms.
    init?(_ text: String) {
        switch text {
        case "*": self = .any
        case "null": self = .opaque
        case "file://": self = .file
        default:
            guard let (origin, anyPort) = Origin.parse(text, allowAnyPort: true) else { return nil }
            self = anyPort ? .anyPort(scheme: origin.scheme, host: origin.host) : .exact(origin)
        }
    }

    /// Whether a request from `origin` is allowed.
    func allows(_ origin: RequestOrigin) -> Bool {
        switch (self, origin) {
        case (.any, _): true
        case (.opaque, .opaque), (.opaque, .file), (.file, .file): true
        case (.exact(let allowed), .web(let origin)): allowed == origin
        case (.anyPort(let scheme, let host), .web(let origin)): origin.scheme == scheme && origin.host == host
        default: false
        }
    }
}
