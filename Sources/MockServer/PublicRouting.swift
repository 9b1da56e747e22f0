import Foundation
import NIOCore

// SwiftMockServer makes its routing types public ("for advanced use cases like testing
// HTTP handling in isolation"). These are the same shapes over this package's matching;
// the server itself keeps its own route table (`RouteEntry`, `RouteTable`).

/// A route as SwiftMockServer's `Route`: an id, an optional method, a pattern, a handler.
public struct Route: Sendable {
    public let id: String
    public let method: HTTPMethod?
    public let pattern: RoutePattern
    public let handler: RouteHandler

    /// A route; `id` defaults to a new UUID string.
    public init(
        id: String = UUID().uuidString, method: HTTPMethod? = nil, pattern: RoutePattern,
        handler: @escaping RouteHandler
    ) {
        self.id = id
        self.method = method
        self.pattern = pattern
        self.handler = handler
    }
}

/// The route that matched a request and the parameters its pattern captured.
public struct RouteMatch: Sendable {
    public let route: Route
    public let pathParameters: [String: String]

    public init(route: Route, pathParameters: [String: String] = [:]) {
        self.route = route
        self.pathParameters = pathParameters
    }
}

/// SwiftMockServer's stateless matcher: the first route of `routes`, in order, whose method
/// (when set) equals the request's and whose pattern matches its path. SwiftMockServer keeps
/// its list newest first, which makes this "last registered wins".
public enum RouterEngine: Sendable {
    public static func match(request: MockHTTPRequest, routes: [Route]) -> RouteMatch? {
        for route in routes {
            if let method = route.method, method != request.method { continue }
            if let parameters = route.pattern.match(request.path) {
                return RouteMatch(route: route, pathParameters: parameters)
            }
        }
        return nil
    }
}

/// SwiftMockServer's stand-alone HTTP/1.1 parser and serializer, for testing request
/// handling without a socket. The server itself parses with SwiftNIO.
public enum HTTPParser: Sendable {
    /// Parses one complete request (request line with a standard method, headers, body).
    /// - Throws: ``MockServerError`` `.invalidRequest` naming what is malformed.
    public static func parse(_ data: Data) throws -> MockHTTPRequest {
        let separator = Data("\r\n\r\n".utf8)
        let headEnd = data.range(of: separator)
        let headData = headEnd.map { data[data.startIndex..<$0.lowerBound] } ?? data[...]
        guard let head = String(data: headData, encoding: .utf8), !head.isEmpty else {
            throw MockServerError.invalidRequest("empty or non-UTF-8 request head")
        }
        var lines = head.components(separatedBy: "\r\n")
        let requestLine = lines.removeFirst()
        let parts = requestLine.split(separator: " ", omittingEmptySubsequences: true)
        guard parts.count >= 2 else {
            throw MockServerError.invalidRequest("malformed request line '\(requestLine)'; expected 'METHOD /path HTTP/1.1'")
        }
        let token = String(parts[0])
        // SwiftMockServer's parser knows the standard methods only; the server itself takes any token.
        guard let method = HTTPMethod(rawValue: token), HTTPMethod.allCases.contains(method) else {
            throw MockServerError.invalidRequest("'\(token)' is not a standard HTTP method (\(HTTPMethod.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        var fields: [(name: String, value: String)] = []
        for line in lines where !line.isEmpty {
            guard let colon = line.firstIndex(of: ":") else {
                throw MockServerError.invalidRequest("malformed header line '\(line)'; expected 'Name: value'")
            }
            fields.append((
                String(line[..<colon]).trimmingCharacters(in: .whitespaces),
                String(line[line.index(after: colon)...]).trimmingCharacters(in: .whitespaces)))
        }
        let body = headEnd.map { data[$0.upperBound...] }.map { Data($0) }
        let (path, query) = MockHTTPHandler.splitTarget(String(parts[1]))
        return MockHTTPRequest(
            method: method, path: path, query: query, headerFields: fields, body: body)
    }

    /// Whether `data` holds a whole request: the head has ended (`\r\n\r\n`) and, when it
    /// declares a body, all of it has arrived (`Content-Length` bytes, or a chunked body up
    /// to its last chunk). A head with an unreadable `Content-Length` is never complete.
    public static func hasCompleteRequest(_ data: Data) -> Bool {
        guard let headEnd = data.range(of: Data("\r\n\r\n".utf8)),
            let head = String(data: data[data.startIndex..<headEnd.lowerBound], encoding: .utf8)
        else { return false }
        let body = data[headEnd.upperBound...]
        for line in head.components(separatedBy: "\r\n").dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            if name == "content-length" {
                guard let length = Int(value), length >= 0 else { return false }
                return body.count >= length
            }
            if name == "transfer-encoding", value.lowercased().hasSuffix("chunked") {
                return body.starts(with: Data("0\r\n\r\n".utf8))
                    || body.range(of: Data("\r\n0\r\n\r\n".utf8)) != nil
            }
        }
        return true
    }

    /// The response as HTTP/1.1 bytes: status line, headers (with `Content-Length` and
    /// `Connection: close`), body.
    public static func serialize(_ response: MockHTTPResponse) -> Data {
        let bytes = EncodedResponse(response).bytes(keepAlive: false, http10: false, headOnly: false)
        return Data(bytes.readableBytesView)
    }
}
