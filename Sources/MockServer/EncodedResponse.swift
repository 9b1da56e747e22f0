import NIOCore

/// A ``MockResponse`` serialized to HTTP/1.1 bytes once, status line to body, so a
/// static route costs one buffer write per request and no encoding.
///
/// Three variants differ only in the `Connection` header: none (HTTP/1.1 keep-alive),
/// `keep-alive` (HTTP/1.0 keep-alive) and `close`.
struct EncodedResponse: Sendable {
    private struct Variant: Sendable {
        let bytes: ByteBuffer
        /// The length of the status line and headers, for answering `HEAD`.
        let headLength: Int
    }

    /// The response as the route gave it (what the journal records).
    let source: MockResponse
    let status: HTTPStatus
    let delay: Duration?
    private let persistent: Variant
    private let persistentHTTP10: Variant
    private let closing: Variant

    init(_ response: MockResponse) {
        source = response
        status = response.status
        delay = response.delay
        var fields = CORS.responseHeaders.map { (name: $0.0, value: $0.1) }
        for (name, value) in response.headers.sorted(by: { $0.key < $1.key }) {
            fields.removeAll { $0.name.caseInsensitiveCompare(name) == .orderedSame }
            fields.append((name, value))
        }
        fields.removeAll { ["content-length", "connection", "transfer-encoding"].contains($0.name.lowercased()) }
        fields.append(("Content-Length", String(response.body?.count ?? 0)))
        let statusLine = "HTTP/1.1 \(response.status.code) \(Self.clean(response.status.reasonPhrase))\r\n"
        let headers = fields.map { "\(Self.clean($0.name)): \(Self.clean($0.value))\r\n" }.joined()
        func variant(_ connection: String?) -> Variant {
            let head = statusLine + headers + (connection.map { "Connection: \($0)\r\n" } ?? "") + "\r\n"
            var bytes = ByteBuffer(string: head)
            if let body = response.body { bytes.writeBytes(body) }
            return Variant(bytes: bytes, headLength: head.utf8.count)
        }
        persistent = variant(nil)
        persistentHTTP10 = variant("keep-alive")
        closing = variant("close")
    }

    /// The bytes to send: without the body for `HEAD`, closing the connection when asked.
    func bytes(keepAlive: Bool, http10: Bool, headOnly: Bool) -> ByteBuffer {
        let variant = !keepAlive ? closing : http10 ? persistentHTTP10 : persistent
        guard headOnly else { return variant.bytes }
        return variant.bytes.getSlice(at: variant.bytes.readerIndex, length: variant.headLength) ?? variant.bytes
    }

    /// Header text cannot contain line breaks; a stray CR or LF would split the response.
    /// By scalar: "\r\n" is one Character, equal to neither "\r" nor "\n", so a header value
    /// "a\r\nSet-Cookie: x" got through whole (caught by an invariant of fuzz/FuzzScenario).
    private static func clean(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { $0 == "\r" || $0 == "\n" }) else { return text }
        return String(String.UnicodeScalarView(text.unicodeScalars.filter { $0 != "\r" && $0 != "\n" }))
    }
}
