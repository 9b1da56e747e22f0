import NIOCore
import NIOHTTP1

/// A ``MockResponse`` turned into NIO's head and body once, so a static route costs
/// no encoding per request.
struct EncodedResponse: Sendable {
    let status: HTTPStatus
    let head: HTTPResponseHead
    let body: ByteBuffer
    let delay: Duration?

    init(_ response: MockResponse) {
        var headers = HTTPHeaders()
        for (name, value) in CORS.responseHeaders {
            headers.add(name: name, value: value)
        }
        for (name, value) in response.headers.sorted(by: { $0.key < $1.key }) {
            headers.replaceOrAdd(name: name, value: value)
        }
        headers.replaceOrAdd(name: "Content-Length", value: String(response.body.count))
        status = response.status
        head = HTTPResponseHead(
            version: .http1_1,
            status: HTTPResponseStatus(statusCode: response.status.code, reasonPhrase: response.status.reasonPhrase),
            headers: headers
        )
        body = ByteBuffer(bytes: response.body)
        delay = response.delay
    }

    /// The head to send for a request of `version`, closing the connection when asked to.
    func head(for version: HTTPVersion, keepAlive: Bool) -> HTTPResponseHead {
        var head = self.head
        head.version = version
        if !keepAlive {
            head.headers.replaceOrAdd(name: "Connection", value: "close")
        } else if version.major == 1 && version.minor == 0 {
            head.headers.replaceOrAdd(name: "Connection", value: "keep-alive")
        }
        return head
    }
}
