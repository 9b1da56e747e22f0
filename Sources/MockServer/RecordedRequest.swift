import Foundation

/// One answered request: what came in, what went out, and which route answered.
public struct RecordedRequest: Sendable {
    /// The request, with the parameters its route captured. Its body is at most the first
    /// ``MockServer/Configuration/maxRecordedBodySize`` bytes of what arrived (``bodySize``).
    public let request: MockRequest
    /// The response sent back (for a handler that threw: the `500` that reported it).
    public let response: MockResponse
    /// When the request finished arriving.
    public let timestamp: Date
    /// The route that answered (`GET /character/:id`), or `nil` when none matched.
    public let matchedRoute: String?
    /// Why the request failed (a handler's error, a body over the limit), if it did.
    public let error: String?
    /// A CORS preflight the server answered itself. Browsers send these, the apps the
    /// references test do not: they are in the journal file, never in `requests`.
    public internal(set) var isPreflight = false
    /// The size of the body that arrived, in bytes (the route's handler got all of it).
    public internal(set) var bodySize: Int

    /// Creates a journal entry: not a preflight, its body whole. The journal sets the others.
    public init(
        request: MockRequest, response: MockResponse, timestamp: Date = Date(), matchedRoute: String? = nil, error: String? = nil
    ) {
        self.request = request
        self.response = response
        self.timestamp = timestamp
        self.matchedRoute = matchedRoute
        self.error = error
        bodySize = request.body?.count ?? 0
    }

    /// Whether `request.body` is only the first part of the body that arrived.
    public var isBodyTruncated: Bool { bodySize > (request.body?.count ?? 0) }

    /// The request's method.
    public var method: HTTPMethod { request.method }
    /// The request's path, without the query.
    public var path: String { request.path }
    /// The status sent back.
    public var status: HTTPStatus { response.status }
}
