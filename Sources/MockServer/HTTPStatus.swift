/// An HTTP response status: a code and its reason phrase.
///
/// Common statuses are static members (`.ok`, `.notFound`, …); any other code can be
/// written as an integer literal: `.status(418)`.
public struct HTTPStatus: Hashable, Sendable, ExpressibleByIntegerLiteral, CustomStringConvertible {
    /// The numeric status code, 100...599.
    public let code: Int
    /// The reason phrase sent on the status line.
    public let reasonPhrase: String

    /// Creates a status with a code and, optionally, a reason phrase.
    public init(code: Int, reasonPhrase: String? = nil) {
        self.code = code
        self.reasonPhrase = reasonPhrase ?? HTTPStatus.phrases[code] ?? "Status \(code)"
    }

    /// SwiftMockServer's spelling: a status with its reason phrase.
    public init(code: Int, reason: String) {
        self.init(code: code, reasonPhrase: reason)
    }

    /// SwiftMockServer's name for ``reasonPhrase``.
    public var reason: String { reasonPhrase }

    /// Creates a status from an integer literal such as `404`.
    public init(integerLiteral value: Int) {
        self.init(code: value)
    }

    /// The code and reason phrase, for example `404 Not Found`.
    public var description: String { "\(code) \(reasonPhrase)" }

    /// `200 OK`
    public static let ok = HTTPStatus(code: 200)
    /// `201 Created`
    public static let created = HTTPStatus(code: 201)
    /// `202 Accepted`
    public static let accepted = HTTPStatus(code: 202)
    /// `204 No Content`
    public static let noContent = HTTPStatus(code: 204)
    /// `301 Moved Permanently`
    public static let movedPermanently = HTTPStatus(code: 301)
    /// `302 Found`
    public static let found = HTTPStatus(code: 302)
    /// `304 Not Modified`
    public static let notModified = HTTPStatus(code: 304)
    /// `400 Bad Request`
    public static let badRequest = HTTPStatus(code: 400)
    /// `401 Unauthorized`
    public static let unauthorized = HTTPStatus(code: 401)
    /// `403 Forbidden`
    public static let forbidden = HTTPStatus(code: 403)
    /// `404 Not Found`
    public static let notFound = HTTPStatus(code: 404)
    /// `405 Method Not Allowed`
    public static let methodNotAllowed = HTTPStatus(code: 405)
    /// `408 Request Timeout`
    public static let requestTimeout = HTTPStatus(code: 408)
    /// `409 Conflict`
    public static let conflict = HTTPStatus(code: 409)
    /// `410 Gone`
    public static let gone = HTTPStatus(code: 410)
    /// `413 Content Too Large`
    public static let contentTooLarge = HTTPStatus(code: 413)
    /// `421 Misdirected Request`: a request for a host this server does not answer.
    public static let misdirectedRequest = HTTPStatus(code: 421)
    /// `422 Unprocessable Content`
    public static let unprocessableContent = HTTPStatus(code: 422)
    /// `422 Unprocessable Entity`: SwiftMockServer's name (and the older phrase) for ``unprocessableContent``.
    public static let unprocessableEntity = HTTPStatus(code: 422, reasonPhrase: "Unprocessable Entity")
    /// `429 Too Many Requests`
    public static let tooManyRequests = HTTPStatus(code: 429)
    /// `500 Internal Server Error`
    public static let internalServerError = HTTPStatus(code: 500)
    /// `501 Not Implemented`
    public static let notImplemented = HTTPStatus(code: 501)
    /// `502 Bad Gateway`
    public static let badGateway = HTTPStatus(code: 502)
    /// `503 Service Unavailable`
    public static let serviceUnavailable = HTTPStatus(code: 503)
    /// `504 Gateway Timeout`
    public static let gatewayTimeout = HTTPStatus(code: 504)

    private static let phrases: [Int: String] = [
        100: "Continue", 101: "Switching Protocols",
        200: "OK", 201: "Created", 202: "Accepted", 204: "No Content", 206: "Partial Content",
        301: "Moved Permanently", 302: "Found", 303: "See Other", 304: "Not Modified",
        307: "Temporary Redirect", 308: "Permanent Redirect",
        400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found",
        405: "Method Not Allowed", 406: "Not Acceptable", 408: "Request Timeout", 409: "Conflict",
        410: "Gone", 413: "Content Too Large", 415: "Unsupported Media Type", 421: "Misdirected Request",
        422: "Unprocessable Content", 429: "Too Many Requests",
        500: "Internal Server Error", 501: "Not Implemented", 502: "Bad Gateway",
        503: "Service Unavailable", 504: "Gateway Timeout",
    ]
}
