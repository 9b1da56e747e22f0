import Locks
import NIOCore

/// The open client connections, so `stop()` can close every one of them, and the cap on
/// how many there may be.
final class ConnectionRegistry: Sendable {
    /// What happens to a new connection.
    enum Admission: Equatable {
        case accepted
        /// Over ``limit``: answered `503` and closed.
        case overLimit
        /// The server is stopping: closed.
        case stopping
    }

    private struct State {
        var channels: [ObjectIdentifier: any Channel] = [:]
        var closed = false
        /// Connections refused over the limit since the last start.
        var refused = 0
    }

    /// How many connections may be open at once.
    let limit: Int
    private let state = Locked(State())
    private let warn: @Sendable (String) -> Void

    init(limit: Int, warn: @escaping @Sendable (String) -> Void) {
        self.limit = max(1, limit)
        self.warn = warn
    }

    /// Tracks `channel` until it closes, unless the server is stopping or `limit`
    /// connections are open; the caller closes a connection that is not accepted. The first
    /// refusal over the limit is reported at once, the count at `stop()`: a flood of
    /// connections makes two lines, not one per connection.
    func add(_ channel: any Channel) -> Admission {
        let (admission, firstRefusal) = state.withLock { state -> (Admission, Bool) in
            guard !state.closed else { return (.stopping, false) }
            guard state.channels.count < limit else {
                state.refused += 1
                return (.overLimit, state.refused == 1)
            }
            state.channels[ObjectIdentifier(channel)] = channel
            return (.accepted, false)
        }
        if firstRefusal {
            let port = channel.localAddress?.port.map { " on port \($0)" } ?? ""
            warn(
                "\(limit) connections are open\(port), the limit: new ones are answered 503 and closed until some "
                    + "close (raise MockServer.Configuration.maxConnections if the app needs more)")
        }
        guard admission == .accepted else { return admission }
        channel.closeFuture.whenComplete { [weak self] _ in
            self?.state.withLock { _ = $0.channels.removeValue(forKey: ObjectIdentifier(channel)) }
        }
        return admission
    }

    /// How many connections are open.
    var openCount: Int {
        state.withLock { $0.channels.count }
    }

    /// Refuses new connections and closes the open ones, waiting until they are closed;
    /// reports how many connections were refused over the limit, if any were.
    func closeAll() async {
        for channel in refuseNewConnections() {
            try? await channel.close()
        }
        let refused = state.withLock { $0.refused }
        if refused > 0 {
            warn("refused \(refused) connection\(refused == 1 ? "" : "s") over the limit of \(limit) while it ran")
        }
    }

    /// Refuses new connections and starts closing the open ones, without waiting.
    func closeAllNow() {
        for channel in refuseNewConnections() {
            channel.close(promise: nil)
        }
    }

    /// Accepts connections again (a stopped server was started again).
    func reopen() {
        state.withLock { state in
            state.closed = false
            state.refused = 0
        }
    }

    private func refuseNewConnections() -> [any Channel] {
        state.withLock { state in
            state.closed = true
            return Array(state.channels.values)
        }
    }
}
