import Foundation
import Testing
@testable import MockServer

@Suite("HTTP protocol")
struct ProtocolTests {
    @Test("garbage bytes get 400 and the server keeps serving")
    func garbage() async throws {
        let (server, _) = try await makeServer()
        await server.stub(.GET, "/ok", response: .text("ok"))
        let port = await server.port
        let (status, closed) = try await Offload.run {
            let socket = try RawSocket(port: port)
            try socket.send([0x00, 0x01, 0xFF, 0x47, 0x45, 0x20] + Array("\r\n\r\n not http at all\r\n\r\n".utf8))
            let response = try socket.readResponse()
            return (response.status, socket.isClosedByPeer())
        }
        #expect(status == 400)
        #expect(closed)
        #expect(try await fetch(port, "GET", "/ok").text == "ok")
        await server.stop()
    }

    @Test("bodies over the limit get 413, the journal says why, and smaller bodies still work")
    func bodyLimit() async throws {
        let (server, _) = try await makeServer(configuration: .init(maxBodySize: 1024))
        await server.register(.POST, "/upload") { request in .text("got \(request.body?.count ?? 0)") }
        let tooBig = try await fetch(server.port, "POST", "/upload", body: String(repeating: "x", count: 2000))
        #expect(tooBig.status == 413)
        #expect(tooBig.headers["connection"] == "close")
        let fine = try await fetch(server.port, "POST", "/upload", body: String(repeating: "x", count: 1000))
        #expect(fine.text == "got 1000")
        let entry = try #require(await server.requests.first)
        #expect(entry.status == .contentTooLarge)
        #expect(entry.error?.contains("limit of 1024 bytes") == true)
        await server.stop()
    }

    @Test("chunked bodies over the limit get 413 too")
    func chunkedBodyLimit() async throws {
        let (server, _) = try await makeServer(configuration: .init(maxBodySize: 16))
        await server.register(.POST, "/upload") { _ in .status(.ok) }
        let port = await server.port
        let status = try await Offload.run {
            let socket = try RawSocket(port: port)
            let chunk = String(repeating: "y", count: 20)
            try socket.send("POST /upload HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\n14\r\n\(chunk)\r\n0\r\n\r\n")
            return try socket.readResponse().status
        }
        #expect(status == 413)
        await server.stop()
    }

    @Test("keep-alive: several requests on one connection")
    func keepAlive() async throws {
        let (server, _) = try await makeServer()
        await server.register(.GET, "/n") { request in .text(request.query ?? "") }
        let port = await server.port
        let bodies = try await Offload.run {
            let socket = try RawSocket(port: port)
            return try (1...3).map { index in
                try socket.send("GET /n?\(index) HTTP/1.1\r\nHost: localhost\r\n\r\n")
                return try socket.readResponse().text
            }
        }
        #expect(bodies == ["1", "2", "3"])
        await server.stop()
    }

    @Test("pipelining: responses come back in request order even when handlers finish out of order")
    func pipelining() async throws {
        let (server, _) = try await makeServer()
        await server.registerParameterized(.GET, "/wait/:ms") { request in
            let milliseconds = Int(request.pathParameters["ms"] ?? "0") ?? 0
            try await Task.sleep(for: .milliseconds(milliseconds))
            return .text("\(milliseconds)")
        }
        let port = await server.port
        let bodies = try await Offload.run {
            let socket = try RawSocket(port: port)
            let batch = [80, 0, 30].map { "GET /wait/\($0) HTTP/1.1\r\nHost: localhost\r\n\r\n" }.joined()
            try socket.send(batch)
            return try (0..<3).map { _ in try socket.readResponse().text }
        }
        #expect(bodies == ["80", "0", "30"])
        await server.stop()
    }

    @Test("HTTP/1.0 without keep-alive and Connection: close both end the connection")
    func connectionClose() async throws {
        let (server, _) = try await makeServer()
        await server.stub(.GET, "/", response: .text("root"))
        let port = await server.port
        let closed = try await Offload.run {
            let socket = try RawSocket(port: port)
            try socket.send("GET / HTTP/1.0\r\n\r\n")
            let response = try socket.readResponse()
            return response.text == "root" && socket.isClosedByPeer()
        }
        #expect(closed)
        await server.stop()
    }

    @Test("stop() closes open connections and refuses new ones")
    func stopClosesConnections() async throws {
        let (server, _) = try await makeServer()
        await server.stub(.GET, "/", response: .text("root"))
        let port = await server.port
        let socket = try await Offload.run {
            let socket = try RawSocket(port: port)
            try socket.send("GET / HTTP/1.1\r\nHost: localhost\r\n\r\n")
            _ = try socket.readResponse()
            return UncheckedBox(socket)
        }
        await server.stop()
        #expect(await !server.isRunning)
        #expect(try await Offload.run { socket.value.isClosedByPeer() })
        await #expect(throws: RawSocket.Failure.self) {
            _ = try await fetch(port, "GET", "/")
        }
        await server.stop()  // a second stop is harmless
    }

    @Test("a CORS preflight is not in requests, counts or waits; the journal file lists it, marked")
    func preflightOutOfRecording() async throws {
        let (server, folder) = try await makeServer()
        defer { try? FileManager.default.removeItem(at: folder) }
        await server.stub(.POST, "/session", response: .status(.created))
        let preflight = try await fetch(
            server.port, "OPTIONS", "/session",
            headers: ["Origin": "http://localhost:5173", "Access-Control-Request-Method": "POST"])
        #expect(preflight.status == 204)
        #expect(await server.requests.isEmpty)
        #expect(await server.requests(matching: "/session").isEmpty)
        #expect(await server.requests(method: .OPTIONS, path: "/session").isEmpty)
        #expect(!(await server.didReceive(path: "/session")))
        await #expect(throws: MockServerError.self) {
            try await server.waitForRequest(method: .OPTIONS, path: "/session", timeout: .milliseconds(100))
        }

        _ = try await fetch(server.port, "POST", "/session", headers: ["Origin": "http://localhost:5173"], body: "{}")
        #expect(await server.requests(matching: "/session").count == 1)
        #expect(try await server.waitForRequest(path: "/session", timeout: .seconds(1)).method == .POST)
        await server.stop()

        let data = try Data(contentsOf: folder.appendingPathComponent("mock-requests.json"))
        let entries = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
        #expect(entries.map { $0["method"] as? String } == ["OPTIONS", "POST"])
        #expect(entries.map { $0["preflight"] as? Bool } == [true, false])
        #expect(entries[0]["status"] as? Int == 204)
    }

    @Test("an OPTIONS without Access-Control-Request-Method is an ordinary, recorded request")
    func plainOptionsIsRecorded() async throws {
        let (server, _) = try await makeServer()
        _ = try await fetch(server.port, "OPTIONS", "/session")
        #expect(await server.requests(method: .OPTIONS, path: "/session").count == 1)
        await server.stop()
    }

    @Test("Expect: 100-continue is honoured")
    func expectContinue() async throws {
        let (server, _) = try await makeServer()
        await server.register(.POST, "/upload") { request in .text(request.bodyString ?? "") }
        let port = await server.port
        let response = try await Offload.run {
            let socket = try RawSocket(port: port)
            try socket.send("POST /upload HTTP/1.1\r\nHost: localhost\r\nExpect: 100-continue\r\nContent-Length: 5\r\n\r\nhello")
            return try socket.readResponse()
        }
        #expect(response.text == "hello")
        await server.stop()
    }

    @Test("a taken port and an out-of-range port give actionable errors")
    func portErrors() async throws {
        let (first, _) = try await makeServer()
        let taken = await #expect(throws: MockServerError.self) {
            _ = try await MockServer.create(port: first.port)
        }
        #expect(taken?.code == .portInUse)
        let firstPort = await first.port
        #expect(taken?.message.contains("port \(firstPort)") == true)
        let invalid = await #expect(throws: MockServerError.self) {
            _ = try await MockServer.create(port: 70000)
        }
        #expect(invalid?.code == .invalidPort)
        await first.stop()
    }
}

/// Carries a non-Sendable test object across the `Offload` thread boundary.
struct UncheckedBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

@Suite("Environment")
struct EnvironmentTests {
    @Test("an explicit port is exact; without one, automatic (ROBOTCI_MOCK_PORT when free, else any)")
    func port() throws {
        #expect(try MockServer.portChoice(8080, environment: ["ROBOTCI_MOCK_PORT": "9000"]) == .exact(8080))
        #expect(try MockServer.portChoice(nil, environment: ["ROBOTCI_MOCK_PORT": "9000"]) == .automatic)
        #expect(try MockServer.portChoice(nil, environment: [:]) == .automatic)
        let error = #expect(throws: MockServerError.self) {
            try MockServer.portChoice(nil, environment: ["ROBOTCI_MOCK_PORT": "http"])
        }
        #expect(error?.message == "ROBOTCI_MOCK_PORT must be a port number between 0 and 65535 (0 picks a free port), got 'http'")
    }

    @Test("the journal folder comes from the argument, else ROBOTCI_ARTIFACTS_DIR, else none")
    func artifacts() {
        let explicit = URL(fileURLWithPath: "/tmp/explicit")
        #expect(MockServer.resolveArtifactsDirectory(explicit, environment: ["ROBOTCI_ARTIFACTS_DIR": "/tmp/env"]) == explicit)
        #expect(MockServer.resolveArtifactsDirectory(nil, environment: ["ROBOTCI_ARTIFACTS_DIR": "/tmp/env"])?.path == "/tmp/env")
        #expect(MockServer.resolveArtifactsDirectory(nil, environment: [:]) == nil)
    }
}
