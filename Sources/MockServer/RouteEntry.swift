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
    /// A `serveFolder` route: it ranks after prefix routes and before catch-alls, so an
    /// app's API routes win over its files whatever the order they were registered in.
    var servesFolder = false
    /// For a folder: whether it has something at a path (a file, a folder, the app's fallback,
    /// or a refusal). A path it has nothing at goes on to a catch-all, so a folder served at
    /// `/` does not hide a scenario's catch-all answers for the app's API.
    var claims: (@Sendable (String) -> Bool)?

    /// Lower ranks win: exact, parameterized, prefix, a served folder, catch-all.
    var rank: Int { pattern.rank * 2 + (servesFolder ? 1 : 0) }

    /// How the journal names this route: `GET /character/:id`, `* /avatar/*`, `catch-all`.
    var label: String {
        if case .catchAll = pattern, method == nil { return "catch-all" }
        if servesFolder { return "folder \(pattern)" }
        return "\(method?.rawValue ?? "*") \(pattern)"
    }

    /// Whether this route answers `method`; a `GET` route also answers `HEAD`.
    func accepts(_ method: HTTPMethod) -> Bool {
        guard let own = self.method else { return true }
        return own == method || (method == .HEAD && own == .GET)
    }
}
