import Foundation
import Testing
@testable import MockServer

@Suite("Routing")
struct RoutingTests {
    @Test("specific routes win over prefix, prefix over catch-all, regardless of order")
    func priority() async throws {
        let (server, _) = try await makeServer()
        await server.register(.GET, "/character") { _ in .text("exact") }
        await server.registerPrefix(.GET, "/character") { _ in .text("prefix") }
        await server.registerParameterized(.GET, "/character/:id") { _ in .text("param") }
        await server.registerCatchAll { _ in .text("catch-all") }
        let port = await server.port

        #expect(try await fetch(port, "GET", "/character").text == "exact")
        #expect(try await fetch(port, "GET", "/character/7").text == "param")
        #expect(try await fetch(port, "GET", "/character/7/episodes").text == "prefix")
        #expect(try await fetch(port, "GET", "/location").text == "catch-all")
        await server.stop()
    }

    @Test("a later registration overrides an earlier one of the same kind (recovery)")
    func recoveryOverride() async throws {
        let (server, _) = try await makeServer()
        await server.registerCatchAll { _ in .status(.internalServerError) }
        #expect(try await fetch(server.port, "GET", "/character").status == 500)

        await server.register(.GET, "/character") { _ in .json(#"{"results":[]}"#) }
        let recovered = try await fetch(server.port, "GET", "/character")
        #expect(recovered.status == 200)
        #expect(recovered.text == #"{"results":[]}"#)

        await server.register(.GET, "/character") { _ in .status(.serviceUnavailable) }
        #expect(try await fetch(server.port, "GET", "/character").status == 503)
        #expect(try await fetch(server.port, "GET", "/other").status == 500)
        await server.stop()
    }

    @Test("parameterized routes hand the captured segments to the handler")
    func parameters() async throws {
        let (server, _) = try await makeServer()
        await server.registerParameterized(.GET, "/character/:id/episode/:number") { request in
            .text("\(request.pathParameters["id"] ?? "-"),\(request.pathParameters["number"] ?? "-")")
        }
        #expect(try await fetch(server.port, "GET", "/character/42/episode/3").text == "42,3")
        #expect(try await fetch(server.port, "GET", "/character/42/episode").status == 404)
        #expect(try await fetch(server.port, "GET", "/character//episode/3").status == 404)
        await server.stop()
    }

    @Test("methods are matched; nil answers any method; GET routes also answer HEAD")
    func methods() async throws {
        let (server, _) = try await makeServer()
        await server.register(.POST, "/login") { _ in .status(.unauthorized) }
        await server.register(nil, "/any") { request in .text(request.method.rawValue) }
        await server.stub(.GET, "/page", response: .html("<p>hi</p>"))

        #expect(try await fetch(server.port, "POST", "/login").status == 401)
        #expect(try await fetch(server.port, "GET", "/login").status == 404)
        #expect(try await fetch(server.port, "DELETE", "/any").text == "DELETE")
        let head = try await fetch(server.port, "HEAD", "/page")
        #expect(head.status == 200)
        #expect(head.headers["content-length"] == "9")
        await server.stop()
    }

    @Test("default response, removeRoute and removeAllRoutes")
    func removal() async throws {
        let (server, _) = try await makeServer()
        let first = await server.stubJSON(.GET, "/a", json: "[1]")
        await server.stubJSON(.GET, "/b", json: "[2]", status: .created)
        #expect(try await fetch(server.port, "GET", "/b").status == 201)

        await server.removeRoute(id: first)
        #expect(try await fetch(server.port, "GET", "/a").status == 404)
        #expect(try await fetch(server.port, "GET", "/b").text == "[2]")

        await server.removeAllRoutes()
        await server.setDefaultResponse(.text("nothing here", status: .gone))
        let fallback = try await fetch(server.port, "GET", "/b")
        #expect(fallback.status == 410)
        #expect(fallback.text == "nothing here")
        await server.stop()
    }

    @Test("response helpers set body, content type and custom headers")
    func responses() async throws {
        struct Character: Encodable { let id: Int; let name: String }
        let (server, _) = try await makeServer()
        await server.register(.GET, "/encodable") { _ in try .json(Character(id: 1, name: "Rick")) }
        await server.register(.GET, "/image") { _ in .image(pngBytes) }
        await server.register(.GET, "/text") { _ in .text("hello").withHeaders(["X-Reason": "locked"]) }
        await server.register(.GET, "/data") { _ in .data(Data([1, 2, 3]), contentType: "application/x-test") }
        await server.register(.GET, "/teapot") { _ in .status(418) }

        let json = try await fetch(server.port, "GET", "/encodable")
        #expect(json.headers["content-type"] == "application/json; charset=utf-8")
        #expect(json.text.contains(#""name":"Rick""#))
        let image = try await fetch(server.port, "GET", "/image")
        #expect(image.headers["content-type"] == "image/png")
        #expect(image.body == pngBytes)
        let text = try await fetch(server.port, "GET", "/text")
        #expect(text.headers["x-reason"] == "locked")
        #expect(text.headers["content-type"] == "text/plain; charset=utf-8")
        let data = try await fetch(server.port, "GET", "/data")
        #expect(data.headers["content-type"] == "application/x-test")
        #expect(data.body == Data([1, 2, 3]))
        #expect(try await fetch(server.port, "GET", "/teapot").status == 418)
        await server.stop()
    }

    @Test("image content type comes from magic bytes")
    func imageSniffing() {
        #expect(MediaType.sniffImage(pngBytes) == "image/png")
        #expect(MediaType.sniffImage(Data([0xFF, 0xD8, 0xFF, 0xE0])) == "image/jpeg")
        #expect(MediaType.sniffImage(Data("GIF89a".utf8)) == "image/gif")
        #expect(MediaType.sniffImage(Data("RIFF\0\0\0\0WEBPVP8 ".utf8)) == "image/webp")
        #expect(MediaType.sniffImage(Data("<svg xmlns='http://www.w3.org/2000/svg'/>".utf8)) == "image/svg+xml")
        #expect(MediaType.sniffImage(Data([1, 2, 3])) == "application/octet-stream")
    }

    @Test("query parameters are decoded; the path excludes the query")
    func query() async throws {
        let (server, _) = try await makeServer()
        await server.register(.GET, "/character") { request in
            .text("\(request.path)|\(request.queryParameters["name"] ?? "-")|\(request.queryParameters["page"] ?? "-")")
        }
        #expect(try await fetch(server.port, "GET", "/character?name=Rick%20Sanchez&page=2").text == "/character|Rick Sanchez|2")
        await server.stop()
    }

    @Test("responses can be delayed per response and server-wide")
    func delay() async throws {
        let (server, _) = try await makeServer()
        await server.register(.GET, "/slow") { _ in .text("slow").delayed(by: .milliseconds(150)) }
        await server.stub(.GET, "/fast", response: .text("fast"))

        let clock = ContinuousClock()
        var elapsed = try await clock.measure { _ = try await fetch(server.port, "GET", "/slow") }
        #expect(elapsed >= .milliseconds(150))

        await server.setResponseDelay(.milliseconds(300))
        elapsed = try await clock.measure { _ = try await fetch(server.port, "GET", "/fast") }
        #expect(elapsed >= .milliseconds(300))

        // Generous bound: only "clearly not delayed" matters, on a busy machine too.
        await server.setResponseDelay(nil)
        elapsed = try await clock.measure { _ = try await fetch(server.port, "GET", "/fast") }
        #expect(elapsed < .milliseconds(300))
        await server.stop()
    }
}

@Suite("SwiftMockServer's matching and parsing details")
struct PeerDetailTests {
    @Test("a path or pattern without a leading slash is rooted; * matches one segment, uncaptured")
    func normalization() {
        #expect(RoutePattern.exact("/api/test").match("api/test") == [:])
        #expect(RoutePattern.exact("api/test").match("/api/test/") == [:])
        #expect(RoutePattern.prefix("api/").match("/api/x") == [:])
        #expect(RoutePattern.parameterized("files/*/download").match("/files/abc/download") == [:])
        #expect(RoutePattern.parameterized("/files/*/download").match("/files/download") == nil)
        #expect(RoutePattern.parameterized("/files/*/:name").match("/files/a/b") == ["name": "b"])
    }

    @Test("a server answers a route registered without a leading slash")
    func unrootedRoute() async throws {
        let (server, _) = try await makeServer()
        await server.stub(.GET, "health", response: .text("up"))
        #expect(try await fetch(server.port, "GET", "/health").text == "up")
        await server.stop()
    }

    @Test("hasCompleteRequest waits for the head, then for Content-Length bytes or the last chunk")
    func completeness() {
        #expect(!HTTPParser.hasCompleteRequest(Data("GET / HTTP/1.1\r\nHost: x\r\n".utf8)))
        #expect(HTTPParser.hasCompleteRequest(Data("GET / HTTP/1.1\r\nHost: x\r\n\r\n".utf8)))
        #expect(!HTTPParser.hasCompleteRequest(Data("POST / HTTP/1.1\r\ncontent-length: 4\r\n\r\nabc".utf8)))
        #expect(HTTPParser.hasCompleteRequest(Data("POST / HTTP/1.1\r\nContent-Length: 4\r\n\r\nabcd".utf8)))
        #expect(!HTTPParser.hasCompleteRequest(Data("POST / HTTP/1.1\r\nContent-Length: x\r\n\r\nabcd".utf8)))
        let chunked = "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n4\r\nabcd\r\n"
        #expect(!HTTPParser.hasCompleteRequest(Data(chunked.utf8)))
        #expect(HTTPParser.hasCompleteRequest(Data((chunked + "0\r\n\r\n").utf8)))
    }

    @Test("the stand-alone parser refuses a method outside the standard ones")
    func unknownMethod() throws {
        #expect(throws: MockServerError.self) { try HTTPParser.parse(Data("BOGUS /path HTTP/1.1\r\n\r\n".utf8)) }
        #expect(try HTTPParser.parse(Data("PATCH /path HTTP/1.1\r\n\r\n".utf8)).method == .PATCH)
    }

    @Test("MockServerDetector reads given arguments and environment")
    func detector() {
        #expect(MockServerDetector.isUsingMockServer(arguments: ["x", "-useMockServer"]))
        #expect(!MockServerDetector.isUsingMockServer(arguments: ["-useMockServer"], flag: "--mock"))
        #expect(MockServerDetector.baseURL(from: ["API": "http://[::1]:1"], key: "API") == "http://[::1]:1")
        #expect(MockServerDetector.port(from: ["MOCK_SERVER_PORT": "8080"]) == 8080)
        #expect(MockServerDetector.port(from: ["MOCK_SERVER_PORT": "99999"]) == nil)
    }

    @Test("a recorded request carries the response that was sent")
    func recordedResponse() async throws {
        let (server, _) = try await makeServer()
        await server.stubJSON(.GET, "/greeting", json: #"{"hello":"world"}"#, status: .created)
        await server.register(.GET, "/made") { _ in .text("by hand") }
        _ = try await fetch(server.port, "GET", "/greeting")
        _ = try await fetch(server.port, "GET", "/made")
        let greeting = try await server.waitForRequest(path: "/greeting", timeout: .seconds(2))
        #expect(greeting.response.status == .created)
        #expect(greeting.response.body.map { String(decoding: $0, as: UTF8.self) } == #"{"hello":"world"}"#)
        let made = try await server.waitForRequest(path: "/made", timeout: .seconds(2))
        #expect(made.response.body.map { String(decoding: $0, as: UTF8.self) } == "by hand")
        await server.stop()
    }
}
