import Foundation
import NIOCore
import NIOHTTP1

/// Turns HTTP/1.1 request parts into journal entries and responses, one connection each.
///
/// NIO's `HTTPServerPipelineHandler` sits in front and holds back pipelined requests
/// until the previous response is complete, so responses leave in request order.
final class MockHTTPHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let shared: SharedState
    private var head: HTTPRequestHead?
    private var body: ByteBuffer?
    private var bodyTooLarge = false

    init(shared: SharedState) {
        self.shared = shared
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            self.head = head
            body = nil
            bodyTooLarge = declaredLength(head).map { $0 > shared.maxBodySize } ?? false
            if !bodyTooLarge, head.headers["expect"].contains(where: { $0.lowercased() == "100-continue" }) {
                context.writeAndFlush(
                    wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: .continue))), promise: nil)
            }
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
            guard let head else { return }
            self.head = nil
            let request = makeRequest(head)
            body = nil
            respond(to: request, head: head, context: context)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // Parse errors were already answered with 400 by HTTPServerProtocolErrorHandler;
        // this connection is unusable, the others keep being served.
        context.close(promise: nil)
    }

    private func respond(to request: MockRequest, head: HTTPRequestHead, context: ChannelHandlerContext) {
        let keepAlive = head.isKeepAlive
        if bodyTooLarge {
            let sequence = shared.journal.append(RecordedRequest(request: request, matchedRoute: nil))
            let limit = shared.maxBodySize
            let response = EncodedResponse(.text("request body exceeds the limit of \(limit) bytes", status: .contentTooLarge))
            write(response, version: head.version, keepAlive: false, headOnly: false, context: context)
            shared.complete(sequence, status: .contentTooLarge, error: "request body exceeds the limit of \(limit) bytes")
            return
        }
        let table = shared.routes.withLock { $0 }
        if CORS.isPreflight(request), !table.hasExplicitOptionsRoute(for: request.path) {
            let sequence = shared.journal.append(RecordedRequest(request: request, matchedRoute: "cors-preflight"))
            send(EncodedResponse(CORS.preflightResponse(for: request)), sequence: sequence, delay: nil,
                 head: head, keepAlive: keepAlive, context: context)
            return
        }
        guard let (route, parameters) = table.match(method: request.method, path: request.path) else {
            let sequence = shared.journal.append(RecordedRequest(request: request, matchedRoute: nil))
            let response = table.defaultResponse
            send(response, sequence: sequence, delay: response.delay ?? table.responseDelay,
                 head: head, keepAlive: keepAlive, context: context)
            return
        }
        let matched = parameters.isEmpty ? request : request.with(pathParameters: parameters)
        let sequence = shared.journal.append(RecordedRequest(request: matched, matchedRoute: route.label))
        switch route.responder {
        case .fixed(let response):
            send(response, sequence: sequence, delay: response.delay ?? table.responseDelay,
                 head: head, keepAlive: keepAlive, context: context)
        case .handler(let handler):
            let promise = context.eventLoop.makePromise(of: MockResponse.self)
            promise.completeWithTask { try await handler(matched) }
            promise.futureResult.assumeIsolated().whenComplete { result in
                switch result {
                case .success(let response):
                    self.send(EncodedResponse(response), sequence: sequence,
                              delay: response.delay ?? table.responseDelay,
                              head: head, keepAlive: keepAlive, context: context)
                case .failure(let error):
                    let message = "handler for \(route.label) threw: \(String(describing: error))"
                    self.send(EncodedResponse(.text(message, status: .internalServerError)), sequence: sequence,
                              delay: nil, head: head, keepAlive: keepAlive, context: context, error: message)
                }
            }
        }
    }

    private func send(
        _ response: EncodedResponse, sequence: Int, delay: Duration?, head: HTTPRequestHead, keepAlive: Bool,
        context: ChannelHandlerContext, error: String? = nil
    ) {
        let headOnly = head.method == .HEAD
        guard let delay, delay > .zero else {
            write(response, version: head.version, keepAlive: keepAlive, headOnly: headOnly, context: context)
            shared.complete(sequence, status: response.status, error: error)
            return
        }
        context.eventLoop.assumeIsolated().scheduleTask(in: TimeAmount(delay)) {
            self.write(response, version: head.version, keepAlive: keepAlive, headOnly: headOnly, context: context)
            self.shared.complete(sequence, status: response.status, error: error)
        }
    }

    private func write(
        _ response: EncodedResponse, version: HTTPVersion, keepAlive: Bool, headOnly: Bool,
        context: ChannelHandlerContext
    ) {
        context.write(wrapOutboundOut(.head(response.head(for: version, keepAlive: keepAlive))), promise: nil)
        if !headOnly, response.body.readableBytes > 0 {
            context.write(wrapOutboundOut(.body(.byteBuffer(response.body))), promise: nil)
        }
        if keepAlive {
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        } else {
            context.writeAndFlush(wrapOutboundOut(.end(nil))).assumeIsolated().whenComplete { _ in
                context.close(promise: nil)
            }
        }
    }

    private func makeRequest(_ head: HTTPRequestHead) -> MockRequest {
        let (path, query) = Self.splitTarget(head.uri)
        let bodyData = body.map { buffer in buffer.withUnsafeReadableBytes { Data($0) } } ?? Data()
        return MockRequest(
            method: HTTPMethod(rawValue: head.method.rawValue),
            path: path,
            query: query,
            headerFields: head.headers.map { ($0.name, $0.value) },
            body: bodyData
        )
    }

    private func declaredLength(_ head: HTTPRequestHead) -> Int? {
        head.headers.first(name: "content-length").flatMap { Int($0) }
    }

    /// Splits `/a/b?x=1` (or an absolute `http://host/a/b?x=1`) into path and query.
    static func splitTarget(_ target: String) -> (path: String, query: String?) {
        var target = Substring(target)
        if target.hasPrefix("http://") || target.hasPrefix("https://"),
           let schemeEnd = target.range(of: "://")
        {
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
