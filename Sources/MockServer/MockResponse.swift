import Foundation

/// What a route answers: a status, headers, a body and, optionally, a delay.
///
/// Build one with the static helpers, as with SwiftMockServer:
/// `.json(data)`, `.image(png)`, `.text("hi")`, `.status(.notFound)`.
public struct MockResponse: Sendable {
    /// The response status.
    public var status: HTTPStatus
    /// Extra headers; `Content-Type` set here wins over the helper's.
    public var headers: [String: String]
    /// The response body; `nil` for none (as in SwiftMockServer).
    public var body: Data?
    /// How long to wait before answering; `nil` uses the server's `setResponseDelay` value.
    public var delay: Duration?

    /// Creates a response.
    public init(
        status: HTTPStatus = .ok,
        headers: [String: String] = [:],
        body: Data? = nil,
        delay: Duration? = nil
    ) {
        self.status = status
        self.headers = headers
        self.body = body
        self.delay = delay
    }

    /// JSON bytes, `Content-Type: application/json`.
    public static func json(_ data: Data, status: HTTPStatus = .ok) -> MockResponse {
        .data(data, contentType: MediaType.json, status: status)
    }

    /// A JSON document given as text, `Content-Type: application/json`.
    public static func json(_ text: String, status: HTTPStatus = .ok) -> MockResponse {
        .data(Data(text.utf8), contentType: MediaType.json, status: status)
    }

    /// An `Encodable` value encoded as JSON, `Content-Type: application/json`.
    public static func json<Value: Encodable>(
        _ value: Value, status: HTTPStatus = .ok, encoder: JSONEncoder = JSONEncoder()
    ) throws -> MockResponse {
        .data(try encoder.encode(value), contentType: MediaType.json, status: status)
    }

    /// Image bytes. Without `contentType` the type is read from the magic bytes (PNG, JPEG,
    /// GIF, WebP, BMP, ICO, AVIF, SVG); bytes no signature matches are sent as PNG, as
    /// SwiftMockServer does.
    public static func image(_ data: Data, contentType: ImageContentType? = nil, status: HTTPStatus = .ok)
        -> MockResponse
    {
        let sniffed = MediaType.sniffImage(data)
        let type = contentType?.rawValue ?? (sniffed == MediaType.octetStream ? ImageContentType.png.rawValue : sniffed)
        return .data(data, contentType: type, status: status)
    }

    /// Plain UTF-8 text.
    public static func text(_ text: String, status: HTTPStatus = .ok) -> MockResponse {
        .data(Data(text.utf8), contentType: MediaType.text, status: status)
    }

    /// An HTML document.
    public static func html(_ html: String, status: HTTPStatus = .ok) -> MockResponse {
        .data(Data(html.utf8), contentType: MediaType.html, status: status)
    }

    /// Any bytes with the given content type.
    public static func data(_ data: Data, contentType: String, status: HTTPStatus = .ok) -> MockResponse {
        MockResponse(status: status, headers: ["Content-Type": contentType], body: data)
    }

    /// A status with an empty body.
    public static func status(_ status: HTTPStatus) -> MockResponse {
        MockResponse(status: status)
    }

    /// The same response with these headers added (replacing headers of the same name).
    public func withHeaders(_ extra: [String: String]) -> MockResponse {
        var copy = self
        for (name, value) in extra {
            copy.headers = copy.headers.filter { $0.key.caseInsensitiveCompare(name) != .orderedSame }
            copy.headers[name] = value
        }
        return copy
    }

    /// The same response, answered only after `delay` (to show loading states).
    public func delayed(by delay: Duration) -> MockResponse {
        var copy = self
        copy.delay = delay
        return copy
    }
}

/// SwiftMockServer's name for ``MockResponse``.
public typealias MockHTTPResponse = MockResponse
