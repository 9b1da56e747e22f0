import Foundation
import Testing
@testable import MockServer
import ProcessToolkit

/// What one client may cost the server: time (idle timeout), connections (the cap) and
/// memory (the body limit, enforced before the body is read). Real loopback sockets.
@Suite("Limits: idle timeout, connection cap, body size")
struct LimitsTests {
    @Test("a connection that sends nothing is closed after idleTimeout, not before")
    func idleConnectionClosed() async throws {
        let (server, _) = try await makeServer(configuration: .init(idleTimeout: .milliseconds(300)))
        let port = await server.port
        let (closed, seconds) = try await Offload.run {
            let socket = try RawSocket(port: port)
            let start = Date()
            return (socket.isClosedByPeer(), Date().timeIntervalSince(start))
        }
        #expect(closed)
        #expect(seconds >= 0.25, "closed after \(seconds) s, before the 0.3 s timeout")
        #expect(seconds < 4, "closed after \(seconds) s")  // without the timeout: never (read gives up at 5 s)
        try await waitUntil { server.connectionCount == 0 }
        await server.stop()
    }

    @Test("a head sent a line at a time is cut off: bytes do not reset the timeout")
    func slowHeadCutOff() async throws {
        let (server, _) = try await makeServer(configuration: .init(idleTimeout: .milliseconds(400)))
        await server.stub(.GET, "/", response: .text("root"))
        let port = await server.port
        let (closed, seconds) = try await Offload.run {
            let socket = try RawSocket(port: port)
            let start = Date()
            try socket.send("GET / HTTP/1.1\r\nHost: localhost\r\n")
            // One header line every 100 ms for 4 s, never the blank line that ends the head.
            for index in 0..<40 {
                Thread.sleep(forTimeInterval: 0.1)
                guard (try? socket.send("X-Slow-\(index): y\r\n")) != nil else { break }
            }
            return (socket.isClosedByPeer(), Date().timeIntervalSince(start))
        }
        #expect(closed)
        #expect(seconds < 3.5, "closed after \(seconds) s; the client kept sending for 4 s")
        #expect(await server.requests.isEmpty)
        await server.stop()
    }

    @Test("a body sent a byte at a time is answered 408 when the timeout is up")
    func slowBodyCutOff() async throws {
        let (server, _) = try await makeServer(configuration: .init(idleTimeout: .milliseconds(400)))
        await server.register(.POST, "/upload") { _ in .status(.ok) }
        let port = await server.port
        let (status, seconds) = try await Offload.run {
            let socket = try RawSocket(port: port)
            let start = Date()
            try socket.send("POST /upload HTTP/1.1\r\nHost: localhost\r\nContent-Length: 100\r\n\r\n")
            for _ in 0..<40 {  // 4 s, fewer than the 100 bytes announced
                Thread.sleep(forTimeInterval: 0.1)
                guard (try? socket.send("x")) != nil else { break }
            }
            return (try socket.readResponse().status, Date().timeIntervalSince(start))
        }
        #expect(status == 408)
        #expect(seconds < 3.5, "answered after \(seconds) s; the client kept sending for 4 s")
        #expect(await server.requests.isEmpty)
        await server.stop()
    }

    @Test("keep-alive: the timeout counts from the last answer; an answer slower than it is not cut off")
    func idleCountsFromLastAnswer() async throws {
        let (server, _) = try await makeServer(configuration: .init(idleTimeout: .milliseconds(300)))
        await server.stub(.GET, "/slow", response: .text("slow").delayed(by: .milliseconds(700)))
        await server.stub(.GET, "/fast", response: .text("fast"))
        let port = await server.port
        let (bodies, closedLater) = try await Offload.run {
            let socket = try RawSocket(port: port)
            var bodies: [String] = []
            try socket.send("GET /slow HTTP/1.1\r\nHost: localhost\r\n\r\n")
            bodies.append(try socket.readResponse().text)
            Thread.sleep(forTimeInterval: 0.15)  // idle, but within the timeout
            try socket.send("GET /fast HTTP/1.1\r\nHost: localhost\r\n\r\n")
            bodies.append(try socket.readResponse().text)
            return (bodies, socket.isClosedByPeer())
        }
        #expect(bodies == ["slow", "fast"])
        #expect(closedLater)
        await server.stop()
    }

    @Test("connections over maxConnections get 503 and are closed; said once; a freed slot is reused")
    func connectionCap() async throws {
        let warnings = WarningLog()
        var configuration = MockServer.Configuration(maxConnections: 3)
        configuration.warningHandler = warnings.record
        let (server, _) = try await makeServer(configuration: configuration)
        await server.stub(.GET, "/", response: .text("root"))
        let port = await server.port
        let (held, served) = try await Offload.run {
            let sockets = try (0..<3).map { _ in try RawSocket(port: port) }
            let served = try sockets.map { socket in
                try socket.send("GET / HTTP/1.1\r\nHost: localhost\r\n\r\n")
                return try socket.readResponse().text
            }
            return (UncheckedBox(sockets), served)
        }
        #expect(served == ["root", "root", "root"])
        let refused = try await Offload.run {
            try (0..<10).map { _ -> (Int, Bool, Double) in
                let socket = try RawSocket(port: port)
                let start = Date()
                let response = try socket.readResponse()
                return (response.status, socket.isClosedByPeer(), Date().timeIntervalSince(start))
            }
        }
        #expect(refused.allSatisfy { $0.0 == 503 && $0.1 })
        #expect(refused.map(\.2).max() ?? 0 < 2, "slowest refusal: \(refused.map(\.2).max() ?? 0) s")
        #expect(warnings.lines.count == 1)
        #expect(warnings.lines.first?.contains("3 connections are open") == true)
        #expect(server.connectionCount == 3)

        // One held connection closes: the next client is served again.
        held.value[0].closeNow()
        try await waitUntil { server.connectionCount < 3 }
        #expect(try await fetch(port, "GET", "/").text == "root")
        await server.stop()
        #expect(warnings.lines.count == 2)
        #expect(warnings.lines.last?.contains("refused 10 connections over the limit of 3") == true)
        withExtendedLifetime(held) {}
    }

    @Test("Content-Length over maxBodySize: 413 at the head, before any body byte is sent")
    func contentLengthRefusedAtHead() async throws {
        let (server, _) = try await makeServer(configuration: .init(maxBodySize: 1024))
        await server.register(.POST, "/upload") { _ in .status(.ok) }
        let port = await server.port
        let (response, seconds, closed) = try await Offload.run {
            let socket = try RawSocket(port: port)
            let start = Date()
            // 100 MB announced, none sent: only an answer at the head can arrive.
            try socket.send("POST /upload HTTP/1.1\r\nHost: localhost\r\nContent-Length: 100000000\r\n\r\n")
            let response = try socket.readResponse()
            return (response, Date().timeIntervalSince(start), socket.isClosedByPeer())
        }
        #expect(response.status == 413)
        #expect(response.headers["connection"] == "close")
        #expect(seconds < 2, "413 after \(seconds) s")  // without the check at the head: never
        #expect(closed)
        let entry = try #require(await server.requests.first)
        #expect(entry.status == .contentTooLarge)
        #expect(entry.request.body?.isEmpty ?? true)
        #expect(entry.error == "request body exceeds the limit of 1024 bytes")
        await server.stop()
    }

    @Test("a client still sending its oversized body reads the 413, then the connection closes")
    func oversizedBodyDrained() async throws {
        let (server, _) = try await makeServer(configuration: .init(maxBodySize: 1024))
        let port = await server.port
        let (status, closed) = try await Offload.run {
            let socket = try RawSocket(port: port)
            // 8 MB in one go (more than the socket buffers hold): the server must read and
            // drop it, or this send would block until the close and the 413 could be lost.
            let body = String(repeating: "x", count: 8_000_000)
            try socket.send("POST /upload HTTP/1.1\r\nHost: localhost\r\nContent-Length: \(body.utf8.count)\r\n\r\n" + body)
            return (try socket.readResponse().status, socket.isClosedByPeer())
        }
        #expect(status == 413)
        #expect(closed)
        // The server still serves.
        #expect(try await fetch(port, "GET", "/").status == 404)
        await server.stop()
    }

    @Test("a chunked body is refused with 413 as soon as it passes maxBodySize, before it ends")
    func chunkedRefusedMidway() async throws {
        let (server, _) = try await makeServer(configuration: .init(maxBodySize: 16))
        await server.register(.POST, "/upload") { _ in .status(.ok) }
        let port = await server.port
        let (status, closed) = try await Offload.run {
            let socket = try RawSocket(port: port)
            try socket.send("POST /upload HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\n")
            try socket.send("a\r\n0123456789\r\n")  // 10 bytes: under the limit
            try socket.send("a\r\n0123456789\r\n")  // 20: over it; no last chunk is ever sent
            return (try socket.readResponse().status, socket.isClosedByPeer())
        }
        #expect(status == 413)
        #expect(closed)
        #expect(await server.requests.first?.status == .contentTooLarge)
        await server.stop()
    }

    @Test("pipelined requests before an oversized one are answered first, in order")
    func oversizedAfterPipelined() async throws {
        let (server, _) = try await makeServer(configuration: .init(maxBodySize: 8))
        await server.register(.POST, "/echo") { request in .text(request.bodyString ?? "") }
        let port = await server.port
        let answers = try await Offload.run {
            let socket = try RawSocket(port: port)
            try socket.send(
                "POST /echo HTTP/1.1\r\nHost: localhost\r\nContent-Length: 2\r\n\r\nok"
                    + "POST /echo HTTP/1.1\r\nHost: localhost\r\nContent-Length: 9\r\n\r\n123456789"
                    + "POST /echo HTTP/1.1\r\nHost: localhost\r\nContent-Length: 2\r\n\r\nno")
            return try (0..<2).map { _ in try socket.readResponse() }.map { "\($0.status) \($0.text)" }
        }
        #expect(answers == ["200 ok", "413 request body exceeds the limit of 8 bytes"])
        #expect(await server.requests.count == 2)
        await server.stop()
    }

    @Test("a configuration that cannot work is refused with the setting named")
    func invalidConfiguration() async throws {
        let cases: [(MockServer.Configuration, String)] = [
            (.init(idleTimeout: .zero), "idleTimeout"),
            (.init(maxConnections: 0), "maxConnections"),
            (.init(maxBodySize: -1), "maxBodySize"),
        ]
        for (configuration, setting) in cases {
            let error = await #expect(throws: MockServerError.self) {
                _ = try await MockServer.create(port: 0, configuration: configuration)
            }
            #expect(error?.code == .invalidConfiguration)
            #expect(error?.message.contains(setting) == true, "\(error?.message ?? "")")
        }
    }
}

/// Warnings a server reported, in order (``MockServer/Configuration/warningHandler``).
final class WarningLog: Sendable {
    private let stored = Locked<[String]>([])

    var lines: [String] { stored.withLock { $0 } }

    var record: @Sendable (String) -> Void {
        { [stored] line in stored.withLock { $0.append(line) } }
    }
}

/// Polls `condition` every 20 ms for up to `seconds`.
func waitUntil(seconds: Double = 3, _ condition: () async -> Bool) async throws {
    let deadline = Date().addingTimeInterval(seconds)
    while !(await condition()) {
        guard Date() < deadline else {
            Issue.record("condition not met within \(seconds) s")
            return
        }
        try await Task.sleep(for: .milliseconds(20))
    }
}
