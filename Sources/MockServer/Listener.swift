#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import NIOCore
import NIOHTTP1
import NIOPosix

/// The listening sockets: 127.0.0.1 always, ::1 on the same port when the host has IPv6.
struct Listener: Sendable {
    let port: Int
    let channels: [any Channel]

    /// Binds loopback only, so nothing outside this machine can reach the mock.
    static func bind(port: Int, shared: SharedState, connections: ConnectionRegistry) async throws -> Listener {
        let bootstrap = ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.backlog, value: 512)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            .childChannelOption(.maxMessagesPerRead, value: 16)
            .childChannelInitializer { channel in
                connections.add(channel)
                return channel.eventLoop.makeCompletedFuture {
                    let pipeline = channel.pipeline.syncOperations
                    try pipeline.addHandler(ByteToMessageHandler(HTTPRequestDecoder(leftOverBytesStrategy: .dropBytes)))
                    try pipeline.addHandler(MockHTTPHandler(shared: shared))
                }
            }
        let ipv4: any Channel
        do {
            ipv4 = try await bootstrap.bind(host: "127.0.0.1", port: port).get()
        } catch let error as IOError where error.errnoCode == EADDRINUSE {
            throw MockServerError.portInUse(port, host: "127.0.0.1")
        } catch {
            throw MockServerError.bindFailed(host: "127.0.0.1", port: port, reason: String(describing: error))
        }
        let actualPort = ipv4.localAddress?.port ?? port
        // ::1 is a convenience for clients that resolve "localhost" to IPv6 first;
        // a host without IPv6 (or with the port taken there) still gets a working server.
        let ipv6 = try? await bootstrap.bind(host: "::1", port: actualPort).get()
        return Listener(port: actualPort, channels: [ipv4] + (ipv6.map { [$0] } ?? []))
    }

    /// Stops accepting connections.
    func close() async {
        for channel in channels {
            try? await channel.close()
        }
    }
}
