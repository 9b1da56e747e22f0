import Foundation
import NIOCore
import NIOHTTP1

/// Answers the requests of one connection, in order, writing pre-encoded responses.
///
/// NIO's `HTTPRequestDecoder` parses; this handler queues complete requests so that
/// pipelined requests are answered in order even when an async handler or a delay
/// finishes out of order, and writes each response as one buffer (no response encoder).
///
/// What one connection may cost is bounded: a body over `maxBodySize` is refused with `413`
/// at its head (a chunked one as soon as it passes the limit) and the rest of the connection
/// is dropped unread, not buffered; reading pauses while requests queue up or the client
/// does not read its answers; a connection that waits longer than `idleTimeout` for a
/// complete request is closed (``ConnectionTimer``).
final class MockHTTPHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = ByteBuffer

    /// A request that has fully arrived and waits for its turn.
    private struct Pending {
        let request: MockRequest
        let keepAlive: Bool
        let http10: Bool
        let bodyTooLarge: Bool
        /// What its `Origin` earns (the CORS headers of its answer).
        let grant: CORSPolicy.Grant
    }

    /// Pipelined requests held before reading pauses (browsers do not pipeline at all).
    static let maxQueued = 16

    private let shared: SharedState
    private var head: HTTPRequestHead?
    private var body: ByteBuffer?
    private var queue = CircularBuffer<Pending>()
    /// The body bytes of the queued requests.
    private var queuedBytes = 0
    private var isResponding = false
    private var isClosing = false
    /// After a `413`: whatever the client still sends is dropped until the connection closes.
    private var isDiscarding = false
    private var readsPaused = false
    private var timer = ConnectionTimer()

    init(shared: SharedState) {
        self.shared = shared
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { waitForRequest(context: context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        waitForRequest(context: context)
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !isDiscarding, !isClosing else { return }
        switch unwrapInboundIn(data) {
        case .head(let head):
            received(head, context: context)
        case .body(var chunk):
            guard let head else { return }
            if (body?.readableBytes ?? 0) + chunk.readableBytes > shared.maxBodySize {
                refuseBody(of: head, context: context)
            } else if body == nil {
                body = chunk
            } else {
                body?.writeBuffer(&chunk)
            }
        case .end:
            guard let head else { return }
            self.head = nil
            let request = makeRequest(head, body: body)
            body = nil
            enqueue(Pending(
                request: request, keepAlive: head.isKeepAlive, http10: head.version.minor == 0, bodyTooLarge: false,
                grant: shared.grant(forOrigin: head.headers.first(name: "origin"))), context: context)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // A parse error makes the rest of this connection unreadable: say 400 if no
        // answer is under way, then close. Other connections are unaffected.
        let shouldAnswer = error is HTTPParserError && !isResponding && !isClosing && !isDiscarding
        isClosing = true
        queue.removeAll()
        timer.cancel()
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
        timer.cancel()
        context.fireChannelInactive()
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        // A client that does not read its answers stops being read: its requests would
        // otherwise pile up answers in memory.
        if context.channel.isWritable {
            resumeReadsIfRoom(context: context)
        } else {
            pauseReads(context: context)
        }
        context.fireChannelWritabilityChanged()
    }

    private func received(_ head: HTTPRequestHead, context: ChannelHandlerContext) {
        self.head = head
        body = nil
        let length = head.headers.first(name: "content-length").flatMap { Int($0) }
        if let length, length > shared.maxBodySize {
            refuseBody(of: head, context: context)
            return
        }
        if let expect = head.headers.first(name: "expect"), expect.lowercased() == "100-continue" {
            context.writeAndFlush(wrapOutboundOut(Self.continueResponse), promise: nil)
        }
    }

    /// Queues a `413` for a request whose body is over the limit, in its turn after the
    /// requests before it, and drops everything the client sends from now on.
    private func refuseBody(of head: HTTPRequestHead, context: ChannelHandlerContext) {
        self.head = nil
        body = nil
        isDiscarding = true
        // The rest must be read (and dropped), or a client still sending would block.
        resumeReads(context: context)
        enqueue(Pending(
            request: makeRequest(head, body: nil), keepAlive: false, http10: head.version.minor == 0,
            bodyTooLarge: true, grant: shared.grant(forOrigin: head.headers.first(name: "origin"))), context: context)
    }

    private func enqueue(_ pending: Pending, context: ChannelHandlerContext) {
        timer.cancel()
        queue.append(pending)
        queuedBytes += pending.request.body?.count ?? 0
        if !isDiscarding, queue.count >= Self.maxQueued || queuedBytes > shared.maxBodySize {
            pauseReads(context: context)
        }
        answerQueued(context: context)
    }

    /// Answers queued requests one at a time; static answers finish at once, so this loops.
    /// Once nothing is left to answer, the connection waits for the client again.
    private func answerQueued(context: ChannelHandlerContext) {
        while !isResponding, !isClosing, let next = queue.popFirst() {
            queuedBytes -= next.request.body?.count ?? 0
            isResponding = true
            answer(next, context: context)
        }
        guard !isResponding, !isClosing else { return }
        resumeReadsIfRoom(context: context)
        waitForRequest(context: context)
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
        // Before any route, the CORS preflight included: a page reaching the mock under another
        // name (DNS rebinding) gets nothing it could read.
        guard shared.allows(hostHeader: request.header("host")) else {
            let message = HostPolicy.refusal(host: request.header("host") ?? "")
            let sequence = shared.journal.append(request: request, matchedRoute: nil)
            send(EncodedResponse(.text(message, status: .misdirectedRequest)), for: pending, sequence: sequence,
                 delay: nil, error: message, context: context)
            return
        }
        let table = shared.routes.withLock { $0 }
        if request.method == .OPTIONS, CORS.isPreflight(request), !table.hasExplicitOptionsRoute(for: request.path) {
            let sequence = shared.journal.append(request: request, matchedRoute: "cors-preflight", isPreflight: true)
            guard case .refused(let origin) = pending.grant else {
                send(EncodedResponse(CORS.preflightResponse(for: request)), for: pending, sequence: sequence,
                     delay: nil, context: context)
                return
            }
            send(EncodedResponse(CORS.refusedPreflight(origin: origin)), for: pending, sequence: sequence,
                 delay: nil, error: CORS.refusal(origin: origin), context: context)
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
        let (head, body) = response.wire(
            keepAlive: pending.keepAlive, http10: pending.http10, headOnly: pending.request.method == .HEAD,
            allowOrigin: pending.grant.allowOrigin)
        if body != nil {
            context.write(wrapOutboundOut(head), promise: nil)
        }
        let last = wrapOutboundOut(body ?? head)
        guard pending.keepAlive else {
            isClosing = true
            queue.removeAll()
            context.writeAndFlush(last).assumeIsolated().whenComplete { _ in
                self.closeAfterLastAnswer(context: context)
            }
            return
        }
        context.writeAndFlush(last, promise: nil)
    }

    /// Closes after a `Connection: close` answer. After a `413` or `408` the client may still
    /// be sending the body: the answer is ended with a FIN and what arrives is dropped for a
    /// moment (closing with unread bytes would reset the connection, and a client still
    /// writing could lose the answer), then the connection is closed.
    private func closeAfterLastAnswer(context: ChannelHandlerContext) {
        guard isDiscarding, context.channel.isActive else {
            context.close(promise: nil)
            return
        }
        context.close(mode: .output, promise: nil)
        timer.schedule(in: min(ConnectionTimer.drainTime, shared.idleTimeout), on: context) {
            context.close(promise: nil)
        }
    }

    /// Starts the idle timeout: the client has `idleTimeout` to deliver its next complete
    /// request. A request that started but did not finish in time is answered `408`.
    private func waitForRequest(context: ChannelHandlerContext) {
        guard !isClosing, !isDiscarding else { return }
        timer.schedule(in: shared.idleTimeout, on: context) {
            guard !self.isClosing else { return }
            self.isClosing = true
            self.queue.removeAll()
            guard self.head != nil else {
                context.close(promise: nil)
                return
            }
            // The client may still be sending its body: drained like a 413's.
            self.isDiscarding = true
            context.writeAndFlush(self.wrapOutboundOut(Self.requestTimeout)).assumeIsolated().whenComplete { _ in
                self.closeAfterLastAnswer(context: context)
            }
        }
    }

    private func pauseReads(context: ChannelHandlerContext) {
        guard !readsPaused, !isDiscarding else { return }
        readsPaused = true
        try? context.channel.syncOptions?.setOption(.autoRead, value: false)
    }

    private func resumeReadsIfRoom(context: ChannelHandlerContext) {
        guard queue.count < Self.maxQueued, queuedBytes <= shared.maxBodySize, context.channel.isWritable else { return }
        resumeReads(context: context)
    }

    private func resumeReads(context: ChannelHandlerContext) {
        guard readsPaused else { return }
        readsPaused = false
        try? context.channel.syncOptions?.setOption(.autoRead, value: true)
    }

    private func makeRequest(_ head: HTTPRequestHead, body: ByteBuffer?) -> MockRequest {
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
    private static let requestTimeout = ByteBuffer(
        string: "HTTP/1.1 408 Request Timeout\r\nConnection: close\r\nContent-Length: 0\r\n\r\n")
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
