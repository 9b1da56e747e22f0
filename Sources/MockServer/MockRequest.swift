import Foundation

/// A request as the server received it, handed to route handlers and kept in the journal.
public struct MockRequest: Sendable {
    /// The request method.
    public let method: HTTPMethod
    /// The path part of the request target, without the query (`/character/1`).
    public let path: String
    /// The raw query string without the `?`, or `nil` when the target had none.
    public let query: String?
    /// The header fields in the order received, names as the client spelled them.
    public let headerFields: [(name: String, value: String)]
    /// The request body; `nil` when the request had none (as in SwiftMockServer).
    public let body: Data?
    /// Values captured by a parameterized route: `["id": "1"]` for `/character/:id`.
    public let pathParameters: [String: String]

    /// Creates a request; the server builds these, tests of handlers may too.
    public init(
        method: HTTPMethod,
        path: String,
        query: String? = nil,
        headerFields: [(name: String, value: String)] = [],
        body: Data? = nil,
        pathParameters: [String: String] = [:]
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.headerFields = headerFields
        self.body = (body?.isEmpty ?? true) ? nil : body
        self.pathParameters = pathParameters
    }

    /// SwiftMockServer's initializer: query parameters and headers as dictionaries.
    @_disfavoredOverload
    public init(
        method: HTTPMethod,
        path: String,
        queryParameters: [String: String] = [:],
        headers: [String: String] = [:],
        body: Data? = nil
    ) {
        var components = URLComponents()
        components.queryItems = queryParameters.sorted { $0.key < $1.key }.map { URLQueryItem(name: $0.key, value: $0.value) }
        self.init(
            method: method, path: path, query: queryParameters.isEmpty ? nil : components.percentEncodedQuery,
            headerFields: headers.sorted { $0.key < $1.key }.map { (name: $0.key, value: $0.value) }, body: body)
    }

    /// The headers as a dictionary; repeated fields are joined with `, `.
    public var headers: [String: String] {
        headerFields.reduce(into: [:]) { result, field in
            result[field.name] = result[field.name].map { "\($0), \(field.value)" } ?? field.value
        }
    }

    /// The value of a header, looked up case-insensitively; repeated fields are joined with `, `.
    public func header(_ name: String) -> String? {
        let values = headerFields.filter { $0.name.caseInsensitiveCompare(name) == .orderedSame }
        return values.isEmpty ? nil : values.map(\.value).joined(separator: ", ")
    }

    /// The query parameters, percent-decoded; for a repeated name the last value wins.
    public var queryParameters: [String: String] {
        guard let query, !query.isEmpty else { return [:] }
        return query.split(separator: "&").reduce(into: [:]) { result, pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = Self.decode(parts[0])
            result[name] = parts.count > 1 ? Self.decode(parts[1]) : ""
        }
    }

    /// The body decoded as UTF-8, or `nil` when it is not valid UTF-8.
    public var bodyString: String? {
        body.flatMap { String(data: $0, encoding: .utf8) }
    }

    /// Decodes the body as JSON.
    /// - Throws: ``MockServerError/noBody`` when the request has no body, else the decoder's error.
    public func jsonBody<T: Decodable>(_ type: T.Type, decoder: JSONDecoder = JSONDecoder()) throws -> T {
        guard let body else { throw MockServerError.noBody }
        return try decoder.decode(type, from: body)
    }

    /// `GET /path?query`, the way the journal and `robotci mock` print a request.
    public var requestLine: String {
        "\(method) \(path)\(query.map { "?\($0)" } ?? "")"
    }

    /// The same request with at most the first `limit` bytes of its body, cut where a UTF-8
    /// character starts (so a text body stays text).
    func withBodyPrefix(_ limit: Int) -> MockRequest {
        guard let body, body.count > limit else { return self }
        var end = limit
        while end > 0, end > limit - 3, body[body.startIndex + end] & 0xC0 == 0x80 { end -= 1 }
        return MockRequest(
            method: method, path: path, query: query, headerFields: headerFields, body: Data(body.prefix(end)),
            pathParameters: pathParameters)
    }

    /// The same request with the parameters its route captured.
    func with(pathParameters: [String: String]) -> MockRequest {
        MockRequest(
            method: method, path: path, query: query, headerFields: headerFields, body: body,
            pathParameters: pathParameters
        )
    }

    private static func decode(_ component: Substring) -> String {
        let spaced = component.replacingOccurrences(of: "+", with: " ")
        return spaced.removingPercentEncoding ?? spaced
    }
}

/// SwiftMockServer's name for ``MockRequest``.
public typealias MockHTTPRequest = MockRequest
