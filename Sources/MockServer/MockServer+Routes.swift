import Foundation

extension MockServer {
    /// Answers requests whose path is exactly `path` (`/character`).
    ///
    /// Exact routes beat parameterized, prefix and catch-all routes; registering the same
    /// path again overrides the earlier route (a mid-test recovery).
    /// - Parameter method: the method to answer; `nil` answers every method.
    @discardableResult
    public func register(_ method: HTTPMethod? = nil, _ path: String, handler: @escaping RouteHandler) -> RouteID {
        add(method, .exact(path), .handler(handler))
    }

    /// Answers requests whose path starts with `prefix` (`/avatar/`).
    @discardableResult
    public func registerPrefix(_ method: HTTPMethod? = nil, _ prefix: String, handler: @escaping RouteHandler)
        -> RouteID
    {
        add(method, .prefix(prefix), .handler(handler))
    }

    /// Answers paths matching `pattern`, where `:name` matches one segment
    /// (`/character/:id`); the handler finds the values in `request.pathParameters`.
    @discardableResult
    public func registerParameterized(
        _ method: HTTPMethod? = nil, _ pattern: String, handler: @escaping RouteHandler
    ) -> RouteID {
        add(method, .parameterized(pattern), .handler(handler))
    }

    /// Answers every request no other route matches (the usual way to set up a scenario
    /// before `launch()`).
    @discardableResult
    public func registerCatchAll(handler: @escaping RouteHandler) -> RouteID {
        add(nil, .catchAll, .handler(handler))
    }

    /// Answers requests matching `pattern` with a closure.
    @discardableResult
    public func register(_ method: HTTPMethod?, matching pattern: RoutePattern, handler: @escaping RouteHandler)
        -> RouteID
    {
        add(method, pattern, .handler(handler))
    }

    /// Answers `path` with the same response every time (encoded once, fastest).
    @discardableResult
    public func stub(_ method: HTTPMethod? = nil, _ path: String, response: MockResponse) -> RouteID {
        add(method, .exact(path), .fixed(EncodedResponse(response)))
    }

    /// Answers requests matching `pattern` with the same response every time.
    @discardableResult
    public func stub(_ method: HTTPMethod?, matching pattern: RoutePattern, response: MockResponse) -> RouteID {
        add(method, pattern, .fixed(EncodedResponse(response)))
    }

    /// Answers `path` with this JSON text every time.
    @discardableResult
    public func stubJSON(_ method: HTTPMethod? = nil, _ path: String, json: String, status: HTTPStatus = .ok)
        -> RouteID
    {
        stub(method, path, response: .json(json, status: status))
    }

    /// Removes one route; unknown ids are ignored.
    public func removeRoute(id: RouteID) {
        shared.routes.withLock { $0.routes.removeAll { $0.id == id } }
    }

    /// SwiftMockServer's `stubImage`: answers `path` with the image file `filename`
    /// (`avatar.png`; `avatar` means `avatar.png`) from `bundle`, typed by its extension.
    /// - Throws: ``MockServerError`` `.invalidRequest` when the bundle has no such file.
    @discardableResult
    public func stubImage(
        _ method: HTTPMethod? = nil, _ path: String, named filename: String, in bundle: Bundle,
        status: HTTPStatus = .ok
    ) throws -> RouteID {
        guard let response = MockResponse.imageFile(named: filename, in: bundle, status: status) else {
            throw MockServerError.invalidRequest(
                "image fixture '\(filename)' not found in \(bundle.bundlePath); add it to the test target's resources")
        }
        return stub(method, path, response: response)
    }

    /// Removes every route; requests then get the default response.
    public func removeAllRoutes() {
        shared.routes.withLock { $0.routes.removeAll() }
    }

    /// Sets the answer for requests no route matches (initially `404`).
    public func setDefaultResponse(_ response: MockResponse) {
        let encoded = EncodedResponse(response)
        shared.routes.withLock { $0.defaultResponse = encoded }
    }

    /// Delays every response that has no delay of its own; `nil` or `.zero` turns it off.
    public func setResponseDelay(_ delay: Duration?) {
        shared.routes.withLock { $0.responseDelay = delay }
    }

    private func add(_ method: HTTPMethod?, _ pattern: RoutePattern, _ responder: RouteEntry.Responder) -> RouteID {
        let route = RouteEntry(id: UUID().uuidString, method: method, pattern: pattern, responder: responder)
        shared.routes.withLock { $0.routes.append(route) }
        return route.id
    }
}
