import NIOCore

/// The open client connections, so `stop()` can close every one of them.
final class ConnectionRegistry: Sendable {
    private struct State {
        var channels: [ObjectIdentifier: any Channel] = [:]
        var closed = false
    }

    private let state = Locked(State())

    /// Tracks `channel` until it closes; closes it at once if the server is stopping.
    func add(_ channel: any Channel) {
        let accepted = state.withLock { state -> Bool in
            guard !state.closed else { return false }
            state.channels[ObjectIdentifier(channel)] = channel
            return true
        }
        guard accepted else {
            channel.close(promise: nil)
            return
        }
        channel.closeFuture.whenComplete { [weak self] _ in
            self?.state.withLock { _ = $0.channels.removeValue(forKey: ObjectIdentifier(channel)) }
        }
    }

    /// Refuses new connections and closes the open ones, waiting until they are closed.
    func closeAll() async {
        for channel in refuseNewConnections() {
            try? await channel.close()
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
        state.withLock { $0.closed = false }
    }

    private func refuseNewConnections() -> [any Channel] {
        state.withLock { state in
            state.closed = true
            return Array(state.channels.values)
        }
    }
}
