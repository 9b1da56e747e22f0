import Foundation
import Testing
@testable import MockServer

#if canImport(Glibc)
import Glibc
#endif

@Suite("Loopback: 127.0.0.1 and ::1, nothing else")
struct LoopbackTests {
    /// Whether this host has an IPv6 loopback, found without the server's help.
    private static let hostHasIPv6 = IPv6LoopbackHolder() != nil

    @Test("both loopbacks answer on one port; baseURL is [::1] as SwiftMockServer's (127.0.0.1 without IPv6)")
    func bothLoopbacks() async throws {
        let (server, _) = try await makeServer()
        await server.stub(.GET, "/", response: .text("root"))
        let port = await server.port
        #expect(try await fetch(port, "GET", "/").text == "root")
        if Self.hostHasIPv6 {
            #expect(await server.baseURL == "http://[::1]:\(port)")
            let answer = try await Offload.run {
                let socket = try RawSocket(host: "::1", port: port)
                try socket.send("GET / HTTP/1.1\r\nHost: [::1]\r\nConnection: close\r\n\r\n")
                return try socket.readResponse()
            }
            #expect(answer.text == "root")
        } else {
            #expect(await server.baseURL == "http://127.0.0.1:\(port)")
        }
        #expect(server.ipv4BaseURL == "http://127.0.0.1:\(port)")
        await server.stop()
    }

    @Test("no other interface answers, IPv4 or IPv6")
    func loopbackOnly() async throws {
        let (server, _) = try await makeServer()
        let port = await server.port
        for address in nonLoopbackIPv4Addresses() + nonLoopbackIPv6Addresses() {
            #expect(throws: RawSocket.Failure.self, "reachable on \(address)") {
                _ = try RawSocket(host: address, port: port, timeout: 1)
            }
        }
        await server.stop()
    }

    @Test("the fallback: without IPv6 the server serves 127.0.0.1 alone and baseURL says so")
    func ipv4Fallback() async throws {
        let (server, _) = try await makeServer(configuration: .init(ipv6: false))
        await server.stub(.GET, "/", response: .text("v4"))
        let port = await server.port
        #expect(await server.baseURL == "http://127.0.0.1:\(port)")
        #expect(try await fetch(port, "GET", "/").text == "v4")
        if Self.hostHasIPv6 {
            #expect(throws: RawSocket.Failure.self, "::1 must not be served") {
                _ = try RawSocket(host: "::1", port: port, timeout: 1)
            }
        }
        await server.stop()
    }

    @Test("a host without IPv6 is told apart from a port in use")
    func unavailableIsNotInUse() {
        #expect(Listener.isIPv6Unavailable(errno: EADDRNOTAVAIL))
        #expect(Listener.isIPv6Unavailable(errno: EAFNOSUPPORT))
        #expect(!Listener.isIPv6Unavailable(errno: EADDRINUSE))
        #expect(!Listener.isIPv6Unavailable(MockServerError.timeout))
    }

    @Test("a fixed port another process holds on ::1 is an error naming ::1")
    func fixedPortTakenOnIPv6() async throws {
        // No IPv6: nothing to hold. Its port is free on 127.0.0.1, so only ::1 can refuse it.
        guard let holder = IPv6LoopbackHolder.freeOnIPv4Too() else { return }
        let error = await #expect(throws: MockServerError.self) {
            _ = try await MockServer.create(port: Int(holder.port))
        }
        #expect(error?.code == .portInUse)
        #expect(error?.message.contains("::1") == true)
        // 127.0.0.1 was released: the port is free there again.
        let again = try await MockServer.create(port: Int(holder.port), configuration: .init(ipv6: false))
        #expect(await again.port == holder.port)
        await again.stop()
    }
}
