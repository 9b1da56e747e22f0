import Foundation

/// One HTTP request for `HTTPClient.send(_:)`.
package struct HTTPRequest: Sendable {
    /// `GET`, `POST`, `DELETE`, … (any token libcurl accepts as a custom request).
    package var method: String
    /// Absolute URL, `http://` or `https://`.
    package var url: String
    /// Header lines as name/value pairs, sent in order.
    package var headers: [(name: String, value: String)]
    /// Request body; `nil` sends none.
    package var body: Data?
    /// Whole-exchange timeout in seconds; `nil` uses the client's default.
    package var timeout: Double?

    package init(
        method: String = "GET", url: String, headers: [(name: String, value: String)] = [],
        body: Data? = nil, timeout: Double? = nil
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.timeout = timeout
    }
}

/// The answer to an `HTTPRequest`.
package struct HTTPResponse: Sendable, Equatable {
    /// HTTP status code, e.g. 200.
    package var status: Int
    /// Response headers, names lowercased, in arrival order (last one wins on lookup).
    package var headers: [(name: String, value: String)]
    /// Raw response body.
    package var body: Data
    /// New connections this exchange opened: 0 when it reused a kept-alive one.
    package var newConnections: Int = 0

    /// The value of the last header called `name` (case-insensitive).
    package func header(_ name: String) -> String? {
        let lowered = name.lowercased()
        return headers.last { $0.name == lowered }?.value
    }

    package static func == (lhs: HTTPResponse, rhs: HTTPResponse) -> Bool {
        lhs.status == rhs.status && lhs.body == rhs.body
            && lhs.headers.map(\.name) == rhs.headers.map(\.name)
            && lhs.headers.map(\.value) == rhs.headers.map(\.value)
    }
}
