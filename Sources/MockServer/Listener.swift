#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import NIOCore
import NIOHTTP1
import NIOPosix

/// The listening sockets: 127.0.0.1 and ::1 on one port; 127.0.0.1 alone on a host
/// without IPv6 (or when the configuration turns IPv6 off). Never any other interface.
struct Listener: Sendable {
    let port: Int
    /// Whether ::1 is served too (then `baseURL` is `http://[::1]:PORT`, as SwiftMockServer's).
    let servesIPv6: Bool
    let channels: [any Channel]

    /// How many times an automatic port is tried when ::1 has it taken.
    private static let automaticPortAttempts = 8

    /// Binds loopback only, so nothing outside this machine can reach the mock.
    /// Port 0 picks a port free on both loopbacks.
    static func bind(port: Int, ipv6: Bool, shared: SharedState, connections: ConnectionRegistry) async throws
        -> Listener
    {
        let bootstrap = makeBootstrap(shared: shared, connections: connections)
        var attempt = 1
        while true {
            let ipv4 = try await bindIPv4(bootstrap, port: port)
            let actualPort = ipv4.localAddress?.port ?? port
            guard ipv6 else { return Listener(port: actualPort, servesIPv6: false, channels: [ipv4]) }
            do {
                let ipv6Channel = try await bootstrap.bind(host: "::1", port: actualPort).get()
                return Listener(port: actualPort, servesIPv6: true, channels: [ipv4, ipv6Channel])
            } catch where isIPv6Unavailable(error) {
                // A container or host without IPv6: 127.0.0.1 alone, baseURL says so.
                return Listener(port: actualPort, servesIPv6: false, channels: [ipv4])
            } catch {
                try? await ipv4.close()
                // Another process holds this port on ::1: a fixed port is an error (a client
                // of [::1]:PORT would reach that process); an automatic one is picked again.
                guard port == 0, attempt < automaticPortAttempts else {
                    throw bindError(error, host: "::1", port: actualPort)
                }
                attempt += 1
            }
        }
    }

    /// True for the errors of a host that has no IPv6 loopback (as opposed to a port in use).
    static func isIPv6Unavailable(_ error: any Error) -> Bool {
        (error as? IOError).map { isIPv6Unavailable(errno: $0.errnoCode) } ?? false
    }

    static func isIPv6Unavailable(errno: Int32) -> Bool {
        [EADDRNOTAVAIL, EAFNOSUPPORT, EPROTONOSUPPORT].contains(errno)
    }

    /// Stops accepting connections.
    func close() async {
        for channel in channels {
            try? await channel.close()
        }
    }

    private static func bindIPv4(_ bootstrap: ServerBootstrap, port: Int) async throws -> any Channel {
        do {
            return try await bootstrap.bind(host: "127.0.0.1", port: port).get()
        } catch {
            throw bindError(error, host: "127.0.0.1", port: port)
        }
    }

    private static func bindError(_ error: any Error, host: String, port: Int) -> MockServerError {
        if let error = error as? IOError, error.errnoCode == EADDRINUSE {
            return MockServerError.portInUse(port, host: host)
        }
        return MockServerError.bindFailed(host: host, port: port, reason: String(describing: error))
    }

    private static func makeBootstrap(shared: SharedState, connections: ConnectionRegistry) -> ServerBootstrap {
        ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.backlog, value: 512)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            .childChannelOption(.maxMessagesPerRead, value: 16)
            .childChannelInitializer { channel in
                let admission = connections.add(channel)
                return channel.eventLoop.makeCompletedFuture {
                    let pipeline = channel.pipeline.syncOperations
                    switch admission {
                    case .accepted:
                        try pipeline.addHandler(ByteToMessageHandler(HTTPRequestDecoder(leftOverBytesStrategy: .dropBytes)))
                        try pipeline.addHandler(MockHTTPHandler(shared: shared))
                    case .overLimit:
                        try pipeline.addHandler(ConnectionRefusal())
                    case .stopping:
                        channel.close(promise: nil)
                    }
                }
            }
    }
}
