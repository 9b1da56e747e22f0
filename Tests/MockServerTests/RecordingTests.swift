import Foundation
import Testing
@testable import MockServer

@Suite("Recording")
struct RecordingTests {
    @Test("every request is recorded in order with method, path, query, headers, body and route")
    func recording() async throws {
        let (server, _) = try await makeServer()
        await server.registerParameterized(.POST, "/character/:id") { _ in .status(.created) }
        _ = try await fetch(server.port, "POST", "/character/5?debug=1", headers: ["X-Test": "yes"], body: #"{"a":1}"#)
        _ = try await fetch(server.port, "GET", "/unknown")

        let requests = await server.requests
        #expect(requests.count == 2)
        let first = try #require(requests.first)
        #expect(first.method == .POST)
        #expect(first.path == "/character/5")
        #expect(first.request.query == "debug=1")
        #expect(first.request.header("x-test") == "yes")
        #expect(first.request.bodyString == #"{"a":1}"#)
        #expect(first.request.pathParameters == ["id": "5"])
        #expect(first.matchedRoute == "POST /character/:id")
        #expect(first.status == .created)
        #expect(requests[1].matchedRoute == nil)
        #expect(requests[1].status == .notFound)

        #expect(await server.requests(matching: "/unknown").count == 1)
        #expect(await server.requests(method: .GET, path: "/character/5").isEmpty)
        #expect(await server.didReceive(method: .POST, path: "/character/5"))
        #expect(await server.didReceive(path: "/unknown"))
        #expect(!(await server.didReceive(method: .DELETE, path: "/unknown")))

        await server.clearRecordedRequests()
        #expect(await server.requests.isEmpty)
        await server.stop()
    }

    @Test("waitForRequest returns when the request arrives, and times out with a clear error")
    func waiting() async throws {
        let (server, _) = try await makeServer()
        async let arrival = server.waitForRequest(method: .GET, path: "/later", timeout: .seconds(5))
        try await Task.sleep(for: .milliseconds(50))
        _ = try await fetch(server.port, "GET", "/later")
        #expect(try await arrival.path == "/later")

        // Already received: returns at once.
        #expect(try await server.waitForRequest(path: "/later", timeout: .milliseconds(10)).method == .GET)

        let error = await #expect(throws: MockServerError.self) {
            try await server.waitForRequest(method: .POST, path: "/never", timeout: .milliseconds(100))
        }
        #expect(error?.code == .timedOut)
        #expect(error?.message.contains("POST /never") == true)
        await server.stop()
    }

    @Test("a handler that throws gives 500 and its error in the journal")
    func handlerThrows() async throws {
        struct Boom: Error, CustomStringConvertible { var description: String { "fixture missing" } }
        let (server, _) = try await makeServer()
        await server.register(.GET, "/boom") { _ in throw Boom() }
        let response = try await fetch(server.port, "GET", "/boom")
        #expect(response.status == 500)
        #expect(response.text.contains("fixture missing"))
        let entry = try #require(await server.requests.first)
        #expect(entry.status == .internalServerError)
        #expect(entry.error?.contains("fixture missing") == true)
        // The server keeps serving after a handler failure.
        #expect(try await fetch(server.port, "GET", "/boom").status == 500)
        await server.stop()
    }

    @Test("stop() writes mock-requests.json to the artifacts folder")
    func journalFile() async throws {
        let (server, folder) = try await makeServer()
        defer { try? FileManager.default.removeItem(at: folder) }
        await server.stub(.GET, "/character", response: .json("[]"))
        _ = try await fetch(server.port, "GET", "/character?page=1")
        _ = try await fetch(server.port, "POST", "/upload", body: "\u{1}\u{2}")
        let port = await server.port
        _ = try await Offload.run {
            let socket = try RawSocket(port: port)
            try socket.send("POST /bytes HTTP/1.1\r\nHost: localhost\r\nContent-Length: 2\r\nConnection: close\r\n\r\n")
            try socket.send([0xFF, 0xFE])
            return try socket.readResponse()
        }
        await server.stop()

        let data = try Data(contentsOf: folder.appendingPathComponent("mock-requests.json"))
        let entries = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
        #expect(entries.count == 3)
        #expect(entries[0]["method"] as? String == "GET")
        #expect(entries[0]["path"] as? String == "/character")
        #expect(entries[0]["query"] as? String == "page=1")
        #expect(entries[0]["matchedRoute"] as? String == "GET /character")
        #expect(entries[0]["status"] as? Int == 200)
        #expect((entries[0]["headers"] as? [String: String])?["Host"] == "127.0.0.1")
        #expect(entries[0]["time"] as? String != nil)
        #expect(entries[1]["matchedRoute"] is NSNull)
        #expect(entries[1]["status"] as? Int == 404)
        #expect(entries[1]["error"] is NSNull)
        #expect(entries[1]["body"] as? String == "\u{1}\u{2}")
        #expect(entries[1]["bodyEncoding"] as? String == "utf8")
        #expect(entries[2]["body"] as? String == Data([0xFF, 0xFE]).base64EncodedString())
        #expect(entries[2]["bodyEncoding"] as? String == "base64")
    }

    /// Before: the journal kept `Authorization` and `Cookie` as sent, and the report inlined
    /// it into index.html. Now credentials are masked in the file; what a test asserts on
    /// (`requests`) still has them.
    @Test("the journal masks Authorization, Proxy-Authorization and Cookie")
    func journalMasksCredentials() async throws {
        let (server, folder) = try await makeServer()
        defer { try? FileManager.default.removeItem(at: folder) }
        await server.stub(.GET, "/me", response: .json("{}"))
        let port = await server.port
        _ = try await Offload.run {
            let socket = try RawSocket(port: port)
            try socket.send("GET /me HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer tok-SECRET-1\r\n"
                + "Proxy-Authorization: Basic cHJveHk6U0VDUkVU\r\nCookie: session=SECRET-2; theme=dark\r\n"
                + "X-Trace: keep-me\r\nConnection: close\r\n\r\n")
            return try socket.readResponse()
        }
        #expect(await server.requests.first?.request.headers["Authorization"] == "Bearer tok-SECRET-1")
        await server.stop()
        let text = try String(contentsOf: folder.appendingPathComponent("mock-requests.json"), encoding: .utf8)
        #expect(!text.contains("SECRET"))
        #expect(!text.contains("cHJveHk6U0VDUkVU"))
        let entries = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]])
        let headers = try #require(entries.first?["headers"] as? [String: String])
        #expect(headers["Authorization"] == "Bearer ***")
        #expect(headers["Proxy-Authorization"] == "Basic ***")
        #expect(headers["Cookie"] == "session=***; theme=***")
        #expect(headers["X-Trace"] == "keep-me")
    }
}
