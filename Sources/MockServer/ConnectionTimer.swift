import NIOCore

/// The one deadline a connection has at a time: the idle timeout while the server waits for
/// the client's next request, or the end of the drain after a `413`. Setting one replaces
/// the other; answering a request cancels it (a route's `delay` may be longer).
struct ConnectionTimer {
    /// How long a client refused with `413` may go on sending (dropped) before the close.
    static let drainTime: Duration = .seconds(2)

    private var scheduled: Scheduled<Void>?

    /// Runs `body` on the connection's event loop after `delay`, unless cancelled first.
    mutating func schedule(in delay: Duration, on context: ChannelHandlerContext, _ body: @escaping () -> Void) {
        scheduled?.cancel()
        scheduled = context.eventLoop.assumeIsolated().scheduleTask(in: TimeAmount(delay), body)
    }

    mutating func cancel() {
        scheduled?.cancel()
        scheduled = nil
    }
}
