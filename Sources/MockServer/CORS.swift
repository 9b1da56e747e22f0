/// Cross-origin headers, so the app under test, opened from another origin than the
/// server's (`file://`, another port), can call it; who gets them is ``CORSPolicy``'s call.
enum CORS {
    /// The names of the CORS headers the server adds to a response (fuzz/FuzzScenario checks
    /// that every header line of a response is one of these or the route's own).
    static let headerNames = ["Access-Control-Allow-Origin", "Access-Control-Expose-Headers", "Vary"]

    private static let standardMethods = ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]

    /// Whether a request is a browser's preflight check rather than a real `OPTIONS` call.
    static func isPreflight(_ request: MockRequest) -> Bool {
        request.method == .OPTIONS && request.header("Access-Control-Request-Method") != nil
    }

    /// `204` allowing the method and headers the preflight asked for (the origin is granted
    /// when the response is written, as for every response).
    static func preflightResponse(for request: MockRequest) -> MockResponse {
        let requested = request.header("Access-Control-Request-Method") ?? "GET"
        let methods = ([requested] + standardMethods.filter { $0 != requested.uppercased() }).joined(separator: ", ")
        let headers = request.header("Access-Control-Request-Headers") ?? "*"
        return MockResponse(
            status: .noContent,
            headers: [
                "Access-Control-Allow-Methods": methods,
                "Access-Control-Allow-Headers": headers,
                "Access-Control-Max-Age": "600",
            ]
        )
    }

    /// `403` for the preflight of a page whose origin is not allowed: the browser stops
    /// there, and the journal and the browser's network panel say why.
    static func refusedPreflight(origin: String) -> MockResponse {
        .text(refusal(origin: origin), status: .forbidden)
    }

    /// Why the page of `origin` cannot read the answers, and how to allow it.
    static func refusal(origin: String) -> String {
        let shown = printable(origin)
        return "origin '\(shown)' is not allowed to read this mock server's responses; allow it with "
            + "MockServer.Configuration(allowedOrigins: [\"\(shown)\"]) or robotci mock --allow-origin \(shown)"
    }

    /// A header value as it may be shown in a log: printable ASCII, at most 100 characters
    /// (a refused origin is whatever a client sent).
    static func printable(_ text: String) -> String {
        let kept = text.unicodeScalars.prefix(100).map { (" "..."~").contains($0) ? Character($0) : "?" }
        return String(kept) + (text.unicodeScalars.count > 100 ? "…" : "")
    }
}
