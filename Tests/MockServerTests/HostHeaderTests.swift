import Foundation
import Testing
@testable import MockServer

/// DNS rebinding: a page of `evil.example` whose name the attacker then points at 127.0.0.1
/// reaches the mock as the same origin, so CORS never applies and it could read what the
/// mock serves. Its requests still say `Host: evil.example:PORT`: those are refused (421).
@Suite("Host: loopback names only, unless configured")
struct HostHeaderTests {
    private func status(_ port: UInt16, host: String?, path: String = "/data") async throws -> (Int, String) {
        try await Offload.run {
            let socket = try RawSocket(port: port)
            let hostLine = host.map { "Host: \($0)\r\n" } ?? ""
            try socket.send("GET \(path) HTTP/1.1\r\n\(hostLine)Connection: close\r\n\r\n")
            let response = try socket.readResponse()
            return (response.status, response.text)
        }
    }

    @Test("Host: evil.example:PORT is answered 421 and gets none of the mock's data")
    func rebindingRefused() async throws {
        let (server, _) = try await makeServer()
        await server.stub(.GET, "/data", response: .text("{\"secret\": \"mock-data-1\"}"))
        let port = await server.port
        for host in ["evil.example:\(port)", "evil.example", "127.0.0.1.evil.example:\(port)", "localhost.evil.example",
                     "LOCALHOST.evil.example:\(port)", "[::2]:\(port)", "0.0.0.0:\(port)", "10.0.0.1", "127.0.0.1@evil.example"] {
            let (code, text) = try await status(port, host: host)
            #expect(code == 421, "Host: \(host) answered \(code)")
            #expect(!text.contains("mock-data-1"), "Host: \(host) read the data")
        }
        await server.stop()
    }

    @Test("loopback names are answered: 127.x, localhost, [::1], with or without a port, and no Host at all")
    func loopbackAnswered() async throws {
        let (server, _) = try await makeServer()
        await server.stub(.GET, "/data", response: .text("{\"secret\": \"mock-data-1\"}"))
        let port = await server.port
        for host in ["127.0.0.1:\(port)", "127.0.0.1", "127.1.2.3:\(port)", "localhost:\(port)", "LocalHost", "localhost.",
                     "[::1]:\(port)", "[::1]", nil] as [String?] {
            let (code, text) = try await status(port, host: host)
            #expect(code == 200, "Host: \(host ?? "none") answered \(code)")
            #expect(text.contains("mock-data-1"), "Host: \(host ?? "none")")
        }
        await server.stop()
    }

    @Test("a configured name is answered; the refusal is in the journal and says how to allow a name")
    func configuredHost() async throws {
        let (server, _) = try await makeServer(configuration: .init(allowedHosts: ["app.test"]))
        await server.stub(.GET, "/data", response: .text("{\"secret\": \"mock-data-1\"}"))
        let port = await server.port
        #expect(try await status(port, host: "APP.test:\(port)").0 == 200)
        let (code, text) = try await status(port, host: "other.test:\(port)")
        #expect(code == 421)
        #expect(text.contains("allowedHosts") && text.contains("--allow-host"), "\(text)")
        let refused = await server.requests.filter { $0.status.code == 421 }
        #expect(refused.count == 1)
        #expect(refused.first?.matchedRoute == nil)
        await server.stop()
    }

    @Test("allowedHosts entries that are not host names are refused, naming the entry")
    func badConfiguration() async throws {
        for entry in ["http://app.test", "app.test:8080", "app.test/x", ""] {
            await #expect(throws: MockServerError.self, "\(entry)") {
                _ = try await MockServer.create(port: 0, configuration: .init(allowedHosts: [entry]))
            }
        }
    }
}
