/// A set of canned routes, usually read from a YAML file by ``ScenarioLoader``
/// and served by `robotci mock --scenario FILE`.
public struct Scenario: Sendable {
    /// One route of a scenario.
    public struct Route: Sendable {
        /// The method to answer; `nil` answers every method.
        public var method: HTTPMethod?
        /// Which paths the route answers.
        public var pattern: RoutePattern
        /// The response, the same for every request.
        public var response: MockResponse
        /// Where the route was written, for messages.
        public var line: Int?

        /// Creates a route.
        public init(method: HTTPMethod?, pattern: RoutePattern, response: MockResponse, line: Int? = nil) {
            self.method = method
            self.pattern = pattern
            self.response = response
            self.line = line
        }
    }

    /// The routes, in file order; later routes win over earlier ones of the same kind.
    public var routes: [Route]
    /// The answer when no route matches; `nil` keeps the server's default (`404`).
    public var defaultResponse: MockResponse?

    /// Creates a scenario.
    public init(routes: [Route] = [], defaultResponse: MockResponse? = nil) {
        self.routes = routes
        self.defaultResponse = defaultResponse
    }
}
