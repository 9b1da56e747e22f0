#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Which `Host` headers the server answers: loopback names, and the configured ones.
///
/// The server listens on loopback only, yet a page of `evil.example` whose name its owner then
/// points at 127.0.0.1 (DNS rebinding) reaches it as its own origin: CORS never applies, and
/// the page could read what the mock serves. Its requests still carry `Host: evil.example`, so
/// such a request is answered `421 Misdirected Request` (and recorded), not served.
struct HostPolicy: Sendable {
    /// Host names (lowercase, no port) allowed beside loopback ones; `*` allows every host.
    private let configured: Set<String>

    /// `allowedHosts` as ``MockServer/Configuration/allowedHosts`` holds them (already validated).
    init(allowedHosts: [String]) {
        configured = Set(allowedHosts.map { $0.lowercased() })
    }

    /// Whether a request with this `Host` header is served. No header at all (HTTP/1.0, a
    /// hand-written request) is: every browser sends one.
    func allows(hostHeader: String?) -> Bool {
        guard let hostHeader else { return true }
        if configured.contains("*") { return true }
        guard let host = Self.hostName(hostHeader) else { return false }
        return Self.isLoopback(host) || configured.contains(host)
    }

    /// The host of a `Host` header (`name[:port]`, `[v6][:port]`), lowercase, without the
    /// port or a trailing dot; nil when it is not a well-formed host.
    static func hostName(_ header: String) -> String? {
        var text = Substring(header.lowercased())
        var host: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return nil }
            host = text[...close]
            text = text[text.index(after: close)...]
        } else {
            let colon = text.firstIndex(of: ":") ?? text.endIndex
            host = text[..<colon]
            text = text[colon...]
        }
        if !text.isEmpty {
            let port = text.dropFirst()
            guard text.hasPrefix(":"), (1...5).contains(port.count), port.allSatisfy(\.isASCII), port.allSatisfy(\.isNumber) else {
                return nil
            }
        }
        if host.hasSuffix(".") { host = host.dropLast() }
        guard !host.isEmpty, host.unicodeScalars.allSatisfy({ isHostCharacter($0) }) else { return nil }
        return String(host)
    }

    /// `localhost`, an address in 127.0.0.0/8, or `[::1]` (in any spelling `inet_pton` reads).
    static func isLoopback(_ host: String) -> Bool {
        if host == "localhost" { return true }
        if host.hasPrefix("[") && host.hasSuffix("]") {
            var address = in6_addr()
            guard inet_pton(AF_INET6, String(host.dropFirst().dropLast()), &address) == 1 else { return false }
            return withUnsafeBytes(of: &address) { bytes in bytes.prefix(15).allSatisfy { $0 == 0 } && bytes[15] == 1 }
        }
        var address = in_addr()
        guard inet_pton(AF_INET, host, &address) == 1 else { return false }
        return withUnsafeBytes(of: &address) { $0[0] == 127 }
    }

    /// Letters, digits, `.`, `-`, `_`, and what a bracketed IPv6 literal holds.
    private static func isHostCharacter(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar) || ".-_[]:".unicodeScalars.contains(scalar)
    }

    /// Why a request for `host` was not answered, and how to allow it.
    static func refusal(host: String) -> String {
        let shown = CORS.printable(host)
        return "host '\(shown)' is not served: this mock server answers requests for 127.0.0.1, localhost and [::1] only "
            + "(a page reaching it under another name may be DNS rebinding); to allow a name, use "
            + "MockServer.Configuration(allowedHosts: [\"NAME\"]) or robotci mock --allow-host NAME"
    }
}
