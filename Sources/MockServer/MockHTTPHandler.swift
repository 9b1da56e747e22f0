import Foundation
import NIOCore
import NIOHTTP1

/// Answers the requests of one connection, in order, writing pre-encoded responses.
///
/// NIO's `HTTPRequestDecoder` parses; this handler queues complete requests so that
/// pipelined requests are answered in order even when an async handler or a delay
/// finishes out of order, and writes each response as one buffer (no response encoder).
final class MockHTTPHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = ByteBuffer

    /// A request that has fully arrived and waits for its turn.
    private struct Pending {
        let request: MockRequest
        let keepAlive: Bool
        let http10: Bool
        let bodyTooLarge: Bool
    }

    private let shared: SharedState
    private var head: HTTPRequestHead?
    private var body: ByteBuffer?
    private var bodyTooLarge = false
    private var queue = CircularBuffer<Pending>()
    private var isResponding = false
    private var isClosing = false

    init(shared: SharedState) {
        self.shared = shared
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            received(head, context: context)
        case .body(var chunk):
            guard !bodyTooLarge else { return }
            if (body?.readableBytes ?? 0) + chunk.readableBytes > shared.maxBodySize {
                bodyTooLarge = true
                body = nil
            } else if body == nil {
                body = chunk
            } else {
                body?.writeBuffer(&chunk)
            }
        case .end:
            guard let head, !isClosing else { return }
            self.head = nil
            queue.append(Pending(
                request: makeRequest(head), keepAlive: head.isKeepAlive && !bodyTooLarge,
                http10: head.version.minor == 0, bodyTooLarge: bodyTooLarge))
            body = nil
            answerQueued(context: context)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // A parse error makes the rest of this connection unreadable: say 400 if no
        // answer is under way, then close. Other connections are unaffected.
        let shouldAnswer = error is HTTPParserError && !isResponding && !isClosing
        isClosing = true
        queue.removeAll()
        guard shouldAnswer else {
            context.close(promise: nil)
            return
        }
        context.writeAndFlush(wrapOutboundOut(Self.badRequest)).assumeIsolated().whenComplete { _ in
            context.close(promise: nil)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        isClosing = true
        queue.removeAll()
        context.fireChannelInactive()
    }

    private func received(_ head: HTTPRequestHead, context: ChannelHandlerContext) {
        self.head = head
        body = nil
        bodyTooLarge = head.headers.first(name: "content-length").flatMap { Int($0) }.map { $0 > shared.maxBodySize }
            ?? false
        if !bodyTooLarge, let expect = head.headers.first(name: "expect"), expect.lowercased() == "100-continue" {
            context.writeAndFlush(wrapOutboundOut(Self.continueResponse), promise: nil)
        }
    }

    /// Answers queued requests one at a time; static answers finish at once, so this loops.
    private func answerQueued(context: ChannelHandlerContext) {
        while !isResponding, !isClosing, let next = queue.popFirst() {
            isResponding = true
            answer(next, context: context)
        }
    }

    private func answer(_ pending: Pending, context: ChannelHandlerContext) {
        let request = pending.request
        if pending.bodyTooLarge {
            let message = "request body exceeds the limit of \(shared.maxBodySize) bytes"
            let sequence = shared.journal.append(request: request, matchedRoute: nil)
            send(EncodedResponse(.text(message, status: .contentTooLarge)), for: pending, sequence: sequence,
                 delay: nil, error: message, context: context)
            return
        }
        let table = shared.routes.withLock { $0 }
        if request.method == .OPTIONS, CORS.isPreflight(request), !table.hasExplicitOptionsRoute(for: request.path) {
            let sequence = shared.journal.append(request: request, matchedRoute: "cors-preflight", isPreflight: true)
            send(EncodedResponse(CORS.preflightResponse(for: request)), for: pending, sequence: sequence,
                 delay: nil, context: context)
            return
        }
        guard let (route, parameters) = table.match(method: request.method, path: request.path) else {
            let sequence = shared.journal.append(request: request, matchedRoute: nil)
            let response = table.defaultResponse
            send(response, for: pending, sequence: sequence, delay: response.delay ?? table.responseDelay,
                 context: context)
            return
        }
        let matched = parameters.isEmpty ? request : request.with(pathParameters: parameters)
        let sequence = shared.journal.append(request: matched, matchedRoute: route.label)
        switch route.responder {
        case .fixed(let response):
            send(response, for: pending, sequence: sequence, delay: response.delay ?? table.responseDelay,
                 context: context)
        case .handler(let handler):
            let promise = context.eventLoop.makePromise(of: MockResponse.self)
            promise.completeWithTask { try await handler(matched) }
            promise.futureResult.assumeIsolated().whenComplete { result in
                switch result {
                case .success(let response):
                    self.send(EncodedResponse(response), for: pending, sequence: sequence,
                              delay: response.delay ?? table.responseDelay, context: context)
                case .failure(let error):
                    let message = "handler for \(route.label) threw: \(String(describing: error))"
                    self.send(EncodedResponse(.text(message, status: .internalServerError)), for: pending,
                              sequence: sequence, delay: nil, error: message, context: context)
                }
                self.answerQueued(context: context)
            }
        }
    }

    private func send(
        _ response: EncodedResponse, for pending: Pending, sequence: Int, delay: Duration?, error: String? = nil,
        context: ChannelHandlerContext
    ) {
        // The journal is completed before the bytes leave, so a client that has its
        // answer always finds the status in `requests`.
        guard let delay, delay > .zero else {
            shared.complete(sequence, response: response.source, error: error)
            write(response, for: pending, context: context)
            return
        }
        context.eventLoop.assumeIsolated().scheduleTask(in: TimeAmount(delay)) {
            self.shared.complete(sequence, response: response.source, error: error)
            self.write(response, for: pending, context: context)
            self.answerQueued(context: context)
        }
    }

    private func write(_ response: EncodedResponse, for pending: Pending, context: ChannelHandlerContext) {
        isResponding = false
        guard !isClosing else { return }
        let bytes = response.bytes(
            keepAlive: pending.keepAlive, http10: pending.http10, headOnly: pending.request.method == .HEAD)
        guard pending.keepAlive else {
            isClosing = true
            queue.removeAll()
            context.writeAndFlush(wrapOutboundOut(bytes)).assumeIsolated().whenComplete { _ in
                context.close(promise: nil)
            }
            return
        }
        context.writeAndFlush(wrapOutboundOut(bytes), promise: nil)
    }

    private func makeRequest(_ head: HTTPRequestHead) -> MockRequest {
        let (path, query) = Self.splitTarget(head.uri)
        let bodyData = body.map { buffer in buffer.withUnsafeReadableBytes { Data($0) } } ?? Data()
        return MockRequest(
            method: HTTPMethod(verbatim: head.method.rawValue),
            path: path,
            query: query,
            headerFields: head.headers.map { ($0.name, $0.value) },
            body: bodyData
        )
    }

    private static let badRequest = ByteBuffer(
        string: "HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n")
    private static let continueResponse = ByteBuffer(string: "HTTP/1.1 100 Continue\r\n\r\n")

    /// Splits `/a/b?x=1` (or an absolute `http://host/a/b?x=1`) into path and query.
    static func splitTarget(_ target: String) -> (path: String, query: String?) {
        var target = Substring(target)
        if !target.hasPrefix("/"), let schemeEnd = target.range(of: "://") {
            let afterScheme = target[schemeEnd.upperBound...]
            target = afterScheme.firstIndex(where: { $0 == "/" || $0 == "?" }).map { afterScheme[$0...] } ?? "/"
        }
        guard let mark = target.firstIndex(of: "?") else {
            return (target.isEmpty ? "/" : String(target), nil)
        }
        let path = target[..<mark]
        return (path.isEmpty ? "/" : String(path), String(target[target.index(after: mark)...]))
    }
}
