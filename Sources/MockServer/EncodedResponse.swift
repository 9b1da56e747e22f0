import NIOCore

/// A ``MockResponse`` serialized to HTTP/1.1 bytes once, so a static route costs two buffer
/// writes per request (head, body; one flush) and no encoding.
///
/// The body is held once; three ready heads differ only in the `Connection` header: none
/// (HTTP/1.1 keep-alive), `keep-alive` (HTTP/1.0 keep-alive) and `close`. A request from an
/// allowed origin also gets `Access-Control-Allow-Origin` (its origin, so it cannot be
/// pre-encoded): then its head is written afresh, the body still shared, never copied.
struct EncodedResponse: Sendable {
    /// The response as the route gave it (what the journal records).
    let source: MockResponse
    let status: HTTPStatus
    let delay: Duration?
    private let persistent: ByteBuffer
    private let persistentHTTP10: ByteBuffer
    private let closing: ByteBuffer
    /// The status line and headers, without `Connection` and the blank line.
    private let headPrefix: String
    /// Whether the route sets these itself; then a grant leaves that header as it is.
    private let setsAllowOrigin: Bool
    private let setsExposeHeaders: Bool
    private let body: ByteBuffer?

    init(_ response: MockResponse) {
        source = response
        status = response.status
        delay = response.delay
        var fields: [(name: String, value: String)] = []
        for (name, value) in response.headers.sorted(by: { $0.key < $1.key }) {
            fields.removeAll { $0.name.caseInsensitiveCompare(name) == .orderedSame }
            fields.append((name, value))
        }
        fields.removeAll { ["content-length", "connection", "transfer-encoding"].contains($0.name.lowercased()) }
        func sets(_ name: String) -> Bool {
            fields.contains { $0.name.caseInsensitiveCompare(name) == .orderedSame }
        }
        setsAllowOrigin = sets("Access-Control-Allow-Origin")
        setsExposeHeaders = sets("Access-Control-Expose-Headers")
        // What a response says depends on the request's Origin: a cache must know.
        let varies = fields.contains {
            $0.name.lowercased() == "vary" && ($0.value.lowercased().contains("origin") || $0.value.contains("*"))
        }
        if !varies { fields.append(("Vary", "Origin")) }
        fields.append(("Content-Length", String(response.body?.count ?? 0)))
        let statusLine = "HTTP/1.1 \(response.status.code) \(Self.clean(response.status.reasonPhrase))\r\n"
        headPrefix = statusLine + fields.map { "\(Self.clean($0.name)): \(Self.clean($0.value))\r\n" }.joined()
        body = response.body.flatMap { $0.isEmpty ? nil : ByteBuffer(bytes: $0) }
        let prefix = headPrefix
        func head(_ connection: String?) -> ByteBuffer { ByteBuffer(string: prefix + Self.connectionLine(connection) + "\r\n") }
        persistent = head(nil)
        persistentHTTP10 = head("keep-alive")
        closing = head("close")
    }

    /// The bytes to send, in one buffer: without the body for `HEAD`, closing the connection
    /// when asked, granting `allowOrigin` (an `Access-Control-Allow-Origin` value) if given.
    func bytes(keepAlive: Bool, http10: Bool, headOnly: Bool, allowOrigin: String? = nil) -> ByteBuffer {
        var (head, body) = wire(keepAlive: keepAlive, http10: http10, headOnly: headOnly, allowOrigin: allowOrigin)
        if var body { head.writeBuffer(&body) }
        return head
    }

    /// The bytes to send as head and body (nil for `HEAD` or an empty body); the body buffer is
    /// the shared one, never a copy.
    func wire(keepAlive: Bool, http10: Bool, headOnly: Bool, allowOrigin: String?) -> (head: ByteBuffer, body: ByteBuffer?) {
        let grant = allowOrigin.map { origin in
            (setsAllowOrigin ? "" : "Access-Control-Allow-Origin: \(Self.clean(origin))\r\n")
                + (setsExposeHeaders ? "" : "Access-Control-Expose-Headers: *\r\n")
        }
        let head: ByteBuffer
        if let grant, !grant.isEmpty {
            let connection = !keepAlive ? "close" : http10 ? "keep-alive" : nil
            head = ByteBuffer(string: headPrefix + grant + Self.connectionLine(connection) + "\r\n")
        } else {
            head = !keepAlive ? closing : http10 ? persistentHTTP10 : persistent
        }
        return (head, headOnly ? nil : body)
    }

    private static func connectionLine(_ connection: String?) -> String {
        connection.map { "Connection: \($0)\r\n" } ?? ""
    }

    /// Header text cannot contain line breaks; a stray CR or LF would split the response.
    /// By scalar: "\r\n" is one Character, equal to neither "\r" nor "\n", so a header value
    /// "a\r\nSet-Cookie: x" got through whole (caught by an invariant of fuzz/FuzzScenario).
    private static func clean(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { $0 == "\r" || $0 == "\n" }) else { return text }
        return String(String.UnicodeScalarView(text.unicodeScalars.filter { $0 != "\r" && $0 != "\n" }))
    }
}
