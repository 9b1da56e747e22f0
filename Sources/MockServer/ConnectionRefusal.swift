import NIOCore

/// Answers a connection over ``MockServer/Configuration/maxConnections`` with `503` and
/// closes it at once (what the client sent is dropped): a clear answer, not a hang.
final class ConnectionRefusal: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private static let response: ByteBuffer = {
        let body = "too many connections to the mock server"
        return ByteBuffer(
            string: "HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nRetry-After: 1\r\n"
                + "Content-Type: text/plain; charset=utf-8\r\nContent-Length: \(body.utf8.count)\r\n\r\n" + body)
    }()

    func channelActive(context: ChannelHandlerContext) {
        context.writeAndFlush(wrapOutboundOut(Self.response)).assumeIsolated().whenComplete { _ in
            context.close(promise: nil)
        }
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        // Whatever the client sent is dropped; the connection is closing.
    }
}
