/// Which pages may read the server's responses: the `Access-Control-Allow-Origin` a request
/// earns by its `Origin` header.
///
/// A mock on loopback is reachable from every page open in any browser on the machine; with
/// `Access-Control-Allow-Origin: *` any of them could read what it serves. So only pages of
/// loopback origins (the app under test served locally), the page RobotKit launched in this
/// process (``LaunchedPages``) and the configured origins are answered with a grant; a
/// request is still answered (and recorded) without one, and the browser keeps the answer
/// from the page.
struct CORSPolicy: Sendable {
    /// What a request's `Origin` header earns.
    enum Grant: Equatable, Sendable {
        /// No `Origin` header (a client that is not a browser, a same-origin `GET`): no CORS headers.
        case notAsked
        /// `Access-Control-Allow-Origin` with this value: the request's origin, or `*`.
        case allowed(String)
        /// An origin not allowed: no CORS headers, so the browser keeps the answer from the page.
        case refused(String)

        /// The `Access-Control-Allow-Origin` value to send, if any.
        var allowOrigin: String? {
            if case .allowed(let value) = self { value } else { nil }
        }
    }

    /// `http://127.0.0.1:*`, `http://localhost:*`, `http://[::1]:*`, and the same over https.
    static let loopbackRules: [OriginRule] = ["http", "https"].flatMap { scheme in
        ["127.0.0.1", "localhost", "[::1]"].map { OriginRule.anyPort(scheme: scheme, host: $0) }
    }

    private let rules: [OriginRule]
    private let allowsEvery: Bool
    private let launchedPages: LaunchedPages

    /// `allowedOrigins` as ``MockServer/Configuration/allowedOrigins`` holds them (already
    /// validated; an entry that does not parse is ignored).
    init(allowedOrigins: [String], launchedPages: LaunchedPages = MockServerProcess.current.launchedPages) {
        let configured = allowedOrigins.compactMap(OriginRule.init)
        rules = Self.loopbackRules + configured
        allowsEvery = configured.contains(.any)
        self.launchedPages = launchedPages
    }

    /// The grant for a request whose `Origin` header is `header` (nil when it has none).
    /// With `*` configured every response says `*`, as before origins were checked.
    func grant(forOrigin header: String?) -> Grant {
        if allowsEvery { return .allowed("*") }
        guard let header else { return .notAsked }
        guard let origin = RequestOrigin(header) else { return .refused(header) }
        // Echoed as the browser wrote it (it parsed, so it holds nothing but an origin):
        // the browser compares the two byte for byte.
        if rules.contains(where: { $0.allows(origin) }) || launchedPages.contains(origin) {
            return .allowed(header)
        }
        return .refused(header)
    }
}
