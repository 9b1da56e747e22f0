/// The routes and server-wide answers, as one value the event loops read under a lock.
///
/// The actor replaces it on every registration; handlers take a copy per request,
/// so a request never sees a half-applied change.
struct RouteTable: Sendable {
    /// In registration order; later entries win within a kind.
    var routes: [RouteEntry] = []
    /// The answer when no route matches.
    var defaultResponse: EncodedResponse
    /// Added before every response that has no delay of its own.
    var responseDelay: Duration?

    /// The winning route for a request and the parameters it captured.
    func match(method: HTTPMethod, path: String) -> (route: RouteEntry, parameters: [String: String])? {
        var best: (route: RouteEntry, parameters: [String: String])?
        for route in routes.reversed() where route.accepts(method) {
            if let current = best, current.route.rank <= route.rank { continue }
            guard let parameters = route.pattern.match(path), route.claims?(path) ?? true else { continue }
            best = (route, parameters)
            if route.pattern.rank == 0 { break }
        }
        return best
    }

    /// Whether a route registered for `OPTIONS` itself matches, which turns off the automatic
    /// CORS preflight answer for that path.
    func hasExplicitOptionsRoute(for path: String) -> Bool {
        routes.contains { $0.method == .OPTIONS && $0.pattern.match(path) != nil }
    }
}
