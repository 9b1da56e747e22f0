/// Answers a request. Handlers run off the event loop, so they may `await` freely.
public typealias RouteHandler = @Sendable (MockRequest) async throws -> MockResponse

/// A registered route: what it matches and how it answers.
struct RouteEntry: Sendable {
    /// How a route produces its response.
    enum Responder: Sendable {
        /// A static response, encoded once and written straight from the event loop.
        case fixed(EncodedResponse)
        /// A closure, run in a task for every request.
        case handler(RouteHandler)
    }

    let id: RouteID
    /// `nil` matches every method.
    let method: HTTPMethod?
    let pattern: RoutePattern
    let responder: Responder

    /// How the journal names this route: `GET /character/:id`, `* /avatar/*`, `catch-all`.
    var label: String {
        if case .catchAll = pattern, method == nil { return "catch-all" }
        return "\(method?.rawValue ?? "*") \(pattern)"
    }

    /// Whether this route answers `method`; a `GET` route also answers `HEAD`.
    func accepts(_ method: HTTPMethod) -> Bool {
        guard let own = self.method else { return true }
        return own == method || (method == .HEAD && own == .GET)
    }
}
