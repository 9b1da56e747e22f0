import Foundation
import Testing
@testable import MockServer

/// Which pages may read the mock's answers: loopback origins, configured ones, the page
/// RobotKit launched; never any page of the internet that happens to be open in a browser.
@Suite("CORS: origins")
struct CORSTests {
    @Test("a loopback origin is echoed, with Vary: Origin; 127.0.0.1, localhost and [::1], any port")
    func loopbackOriginEchoed() async throws {
        let (server, _) = try await makeServer()
        await server.stub(.GET, "/character", response: .json(#"{"id":1}"#))
        for origin in ["http://localhost:5173", "http://127.0.0.1:8080", "http://[::1]:3000", "https://localhost"] {
            let answer = try await fetch(server.port, "GET", "/character", headers: ["Origin": origin])
            #expect(answer.status == 200)
            #expect(answer.headers["access-control-allow-origin"] == origin)
            #expect(answer.headers["access-control-expose-headers"] == "*")
            #expect(answer.headers["vary"] == "Origin")
        }
        await server.stop()
    }

    @Test("a foreign origin gets no Allow-Origin (the request is still answered and recorded); said once")
    func foreignOriginRefused() async throws {
        let warnings = WarningLog()
        var configuration = MockServer.Configuration()
        configuration.warningHandler = warnings.record
        let (server, _) = try await makeServer(configuration: configuration)
        await server.stub(.GET, "/character", response: .json(#"{"id":1}"#))
        for origin in [
            "http://evil.example", "http://evil.example", "null", "file://", "http://127.0.0.1.evil.example",
            "http://localhost.evil.example:8080", "http://evil.example/http://localhost:1", "",
        ] {
            let answer = try await fetch(server.port, "GET", "/character", headers: ["Origin": origin])
            #expect(answer.status == 200)
            #expect(answer.headers["access-control-allow-origin"] == nil, "granted to '\(origin)'")
            #expect(answer.headers["access-control-expose-headers"] == nil)
            #expect(answer.headers["vary"] == "Origin")
        }
        #expect(await server.requests.count == 8)
        let evil = warnings.lines.filter { $0.contains("'http://evil.example'") }
        #expect(evil.count == 1)
        #expect(evil.first?.contains("allowedOrigins") == true)
        await server.stop()
    }

    @Test("a request without Origin gets no CORS grant")
    func noOrigin() async throws {
        let (server, _) = try await makeServer()
        let answer = try await fetch(server.port, "GET", "/anything")
        #expect(answer.status == 404)
        #expect(answer.headers["access-control-allow-origin"] == nil)
        await server.stop()
    }

    @Test("preflight: an allowed origin gets 204 and the grant; a foreign one 403, no grant, journal says why")
    func preflight() async throws {
        let (server, folder) = try await makeServer()
        defer { try? FileManager.default.removeItem(at: folder) }
        await server.registerCatchAll { _ in .status(.internalServerError) }
        let asked = ["Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "content-type"]
        let allowed = try await fetch(
            server.port, "OPTIONS", "/login", headers: asked.merging(["Origin": "http://127.0.0.1:4000"]) { $1 })
        #expect(allowed.status == 204)
        #expect(allowed.headers["access-control-allow-origin"] == "http://127.0.0.1:4000")
        #expect(allowed.headers["access-control-allow-methods"]?.hasPrefix("POST") == true)
        #expect(allowed.headers["access-control-allow-headers"] == "content-type")

        let foreign = try await fetch(
            server.port, "OPTIONS", "/login", headers: asked.merging(["Origin": "http://evil.example"]) { $1 })
        #expect(foreign.status == 403)
        #expect(foreign.headers["access-control-allow-origin"] == nil)
        #expect(foreign.headers["access-control-allow-methods"] == nil)
        #expect(foreign.text.contains("'http://evil.example' is not allowed"))
        await server.stop()

        let data = try Data(contentsOf: folder.appendingPathComponent("mock-requests.json"))
        let entries = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
        #expect(entries.map { $0["status"] as? Int } == [204, 403])
        #expect(entries.map { $0["preflight"] as? Bool } == [true, true])
        #expect((entries[1]["error"] as? String)?.contains("allowedOrigins") == true)
    }

    @Test("configured origins: exact, any port; file:// for Chromium's file pages, null for every opaque one")
    func configuredOrigins() async throws {
        let cases: [([String], [(String, Bool)])] = [
            (["https://app.example.com", "http://staging.test:*"], [
                ("https://app.example.com", true), ("https://app.example.com:443", true),
                ("https://app.example.com:8443", false), ("http://app.example.com", false),
                ("http://staging.test:1234", true), ("http://staging.test", true), ("https://staging.test", false),
                ("http://localhost:9", true), ("http://evil.example", false), ("null", false), ("file://", false),
            ]),
            (["file://"], [("file://", true), ("null", false)]),
            (["null"], [("file://", true), ("null", true), ("http://evil.example", false)]),
        ]
        for (allowed, requests) in cases {
            let (server, _) = try await makeServer(configuration: .init(allowedOrigins: allowed))
            for (origin, granted) in requests {
                let answer = try await fetch(server.port, "GET", "/", headers: ["Origin": origin])
                #expect(answer.headers["access-control-allow-origin"] == (granted ? origin : nil), "\(origin) with \(allowed)")
            }
            await server.stop()
        }
    }

    @Test("\"*\" brings back Access-Control-Allow-Origin: * on every response")
    func everyOrigin() async throws {
        let (server, _) = try await makeServer(configuration: .init(allowedOrigins: ["*"]))
        for headers in [["Origin": "http://evil.example"], ["Origin": "null"], [:]] {
            let answer = try await fetch(server.port, "GET", "/", headers: headers)
            #expect(answer.headers["access-control-allow-origin"] == "*")
        }
        await server.stop()
    }

    @Test("a route that sets its own Access-Control-Allow-Origin keeps it")
    func routeOverrides() async throws {
        let (server, _) = try await makeServer()
        await server.stub(
            .GET, "/own", response: MockResponse(status: .ok, headers: ["Access-Control-Allow-Origin": "https://x.test"]))
        let answer = try await fetch(server.port, "GET", "/own", headers: ["Origin": "http://localhost:1"])
        #expect(answer.headers["access-control-allow-origin"] == "https://x.test")
        await server.stop()
    }

    @Test("an allowedOrigins entry that is not an origin is refused, with the forms that work")
    func invalidEntries() async throws {
        for entry in ["http://localhost:3000/", "localhost:3000", "http://app.test:99999", "http://*.test", " null"] {
            let error = await #expect(throws: MockServerError.self) {
                _ = try await MockServer.create(port: 0, configuration: .init(allowedOrigins: [entry]))
            }
            #expect(error?.code == .invalidConfiguration)
            #expect(error?.message.contains("'\(entry)' is not an origin") == true, "\(error?.message ?? "")")
        }
    }

    @Test("the page RobotKit launched is allowed: a file as its Chromium sends it (file://, not null), http(s) by its origin")
    func launchedPages() {
        let pages = LaunchedPages()
        let policy = CORSPolicy(allowedOrigins: [], launchedPages: pages)
        #expect(policy.grant(forOrigin: "file://") == .refused("file://"))
        #expect(policy.grant(forOrigin: "http://app.test:8080") == .refused("http://app.test:8080"))
        pages.add(pageAt: URL(fileURLWithPath: "/tmp/app/index.html"))
        pages.add(pageAt: URL(string: "http://app.test:8080/index.html?API_BASE_URL=x")!)
        pages.add(pageAt: URL(string: "about:blank")!)
        #expect(policy.grant(forOrigin: "file://") == .allowed("file://"))
        #expect(policy.grant(forOrigin: "null") == .refused("null"))
        #expect(policy.grant(forOrigin: "http://app.test:8080") == .allowed("http://app.test:8080"))
        #expect(policy.grant(forOrigin: "http://app.test:8081") == .refused("http://app.test:8081"))
        #expect(policy.grant(forOrigin: nil) == .notAsked)
    }

    @Test("origins parse strictly: default ports dropped, look-alikes and junk refused")
    func originParsing() {
        #expect(Origin("HTTP://LocalHost:80")?.description == "http://localhost")
        #expect(Origin("http://[::1]:3000")?.description == "http://[::1]:3000")
        #expect(Origin("https://a-b.c_d.test:443")?.description == "https://a-b.c_d.test")
        for junk in ["null", "", "http://", "http://a b", "http://a:", "http://a:0x1", "http://a/", "http://a?x",
                     "http://u@a", "http://[::1", "http://[zz]:1", "1http://a", "http://a:123456", "http://a\r\nX: y"] {
            #expect(Origin(junk) == nil, "\(junk.debugDescription) parsed")
        }
        #expect(OriginRule("http://a.test:*") == .anyPort(scheme: "http", host: "a.test"))
        #expect(OriginRule("*") == .any)
        #expect(OriginRule("null") == .opaque)
        #expect(OriginRule("file://") == .file)
        #expect(RequestOrigin("file://") == .file)
        #expect(RequestOrigin("file:///etc") == nil)
        #expect(OriginRule("http://a.test:*/") == nil)
    }
}
