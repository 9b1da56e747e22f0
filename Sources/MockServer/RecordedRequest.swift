import Foundation

/// One entry of the request journal: the request, when it came, and how it was answered.
public struct RecordedRequest: Sendable {
    /// The request, with the parameters its route captured.
    public let request: MockRequest
    /// When the request finished arriving.
    public let timestamp: Date
    /// The route that answered (`GET /character/:id`), or `nil` when none matched.
    public let matchedRoute: String?
    /// The status sent back; `nil` while the handler is still running.
    public internal(set) var status: HTTPStatus?
    /// Why the request failed (a handler's error, a body over the limit), if it did.
    public internal(set) var error: String?

    /// Creates a journal entry.
    public init(
        request: MockRequest, timestamp: Date = Date(), matchedRoute: String? = nil,
        status: HTTPStatus? = nil, error: String? = nil
    ) {
        self.request = request
        self.timestamp = timestamp
        self.matchedRoute = matchedRoute
        self.status = status
        self.error = error
    }

    /// The request's method.
    public var method: HTTPMethod { request.method }
    /// The request's path, without the query.
    public var path: String { request.path }
}
