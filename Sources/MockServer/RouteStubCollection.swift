/// Static routes defined together and registered with ``MockServer/registerAll(_:)``
/// (SwiftMockServer's `RouteStubCollection`), written with a result builder:
///
/// ```swift
/// let stubs = RouteStubCollection {
///     RouteStubCollection.Stub(method: .GET, path: "/api/users", response: .json("[]"))
///     if loggedIn { RouteStubCollection.Stub(method: .GET, path: "/api/me", response: .json("{}")) }
/// }
/// ```
public struct RouteStubCollection: Sendable {
    /// One static route.
    public struct Stub: Sendable {
        let method: HTTPMethod?
        let path: String
        let response: MockResponse

        /// A route answering `method` (any when `nil`) on exactly `path` with `response`.
        public init(method: HTTPMethod? = nil, path: String, response: MockResponse) {
            self.method = method
            self.path = path
            self.response = response
        }
    }

    /// The routes, registered in this order (so a later stub of a path wins).
    public var stubs: [Stub]

    /// A collection of these stubs.
    public init(_ stubs: [Stub] = []) {
        self.stubs = stubs
    }

    /// A collection written with ``RouteStubBuilder`` (`if`, `else`, `for` allowed).
    public init(@RouteStubBuilder builder: () -> [Stub]) {
        stubs = builder()
    }

    /// Appends a stub.
    public mutating func add(_ method: HTTPMethod? = nil, _ path: String, response: MockResponse) {
        stubs.append(Stub(method: method, path: path, response: response))
    }
}

/// Builds a ``RouteStubCollection``'s list of stubs.
@resultBuilder
public enum RouteStubBuilder {
    public static func buildBlock(_ components: [RouteStubCollection.Stub]...) -> [RouteStubCollection.Stub] {
        components.flatMap { $0 }
    }

    public static func buildExpression(_ stub: RouteStubCollection.Stub) -> [RouteStubCollection.Stub] {
        [stub]
    }

    public static func buildArray(_ components: [[RouteStubCollection.Stub]]) -> [RouteStubCollection.Stub] {
        components.flatMap { $0 }
    }

    public static func buildOptional(_ component: [RouteStubCollection.Stub]?) -> [RouteStubCollection.Stub] {
        component ?? []
    }

    public static func buildEither(first component: [RouteStubCollection.Stub]) -> [RouteStubCollection.Stub] {
        component
    }

    public static func buildEither(second component: [RouteStubCollection.Stub]) -> [RouteStubCollection.Stub] {
        component
    }
}

extension MockServer {
    /// Registers every stub of `collection`, in order.
    public func registerAll(_ collection: RouteStubCollection) {
        for stub in collection.stubs {
            self.stub(stub.method, stub.path, response: stub.response)
        }
    }
}
