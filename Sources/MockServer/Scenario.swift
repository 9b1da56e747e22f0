import Foundation

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

    /// A folder served as files (a built web app), like ``MockServer/serveFolder(_:at:spaFallback:)``.
    public struct Folder: Sendable, Equatable {
        /// The folder (a scenario file's `folders[].path` is relative to the scenario's folder).
        public var url: URL
        /// Where its files appear: `/` or `/app/`.
        public var prefix: String
        /// `index.html` for paths that name no file (a single-page app's routes).
        public var spaFallback: Bool

        /// Creates a served folder.
        public init(url: URL, prefix: String = "/", spaFallback: Bool = false) {
            self.url = url
            self.prefix = prefix
            self.spaFallback = spaFallback
        }
    }

    /// The routes, in file order; later routes win over earlier ones of the same kind.
    public var routes: [Route]
    /// Folders served as files; routes win over them, they win over a catch-all.
    public var folders: [Folder] = []
    /// The answer when no route matches; `nil` keeps the server's default (`404`).
    public var defaultResponse: MockResponse?

    /// Creates a scenario.
    public init(routes: [Route] = [], folders: [Folder] = [], defaultResponse: MockResponse? = nil) {
        self.routes = routes
        self.folders = folders
        self.defaultResponse = defaultResponse
    }
}
