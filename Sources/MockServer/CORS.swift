/// Cross-origin headers, so a page loaded from `file://` or another port can call the server.
enum CORS {
    /// Sent with every response.
    static let responseHeaders: [(String, String)] = [
        ("Access-Control-Allow-Origin", "*"),
        ("Access-Control-Expose-Headers", "*"),
    ]

    private static let standardMethods = ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]

    /// Whether a request is a browser's preflight check rather than a real `OPTIONS` call.
    static func isPreflight(_ request: MockRequest) -> Bool {
        request.method == .OPTIONS && request.header("Access-Control-Request-Method") != nil
    }

    /// `204` allowing the method and headers the preflight asked for.
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
}
