import Foundation
import MockServer
import XCTest

// SwiftMockServer's public API (vjr2005/SwiftMockServer: Sources/SwiftMockServer/MockServer.swift,
// Models/, Routing/, Testing/), called with its exact spelling and its `try`/`await`, against the
// behaviour its README and doc comments promise. A plain `import MockServer` (no @testable): only
// public API is used. Every symbol exercised is tagged `// [n]`; the count is in docs/RobotKit.md.

/// Written exactly as an iOS reference suite's `UITestCase` holds its server (see Examples/ReferenceSuite):
/// `MockServer.create()` in `setUp`, `await serverMock.stop()` (no `try`) in `tearDown`.
final class ReferenceStyleTearDownTests: XCTestCase {
    private(set) var serverMock: MockServer!
    private(set) var serverBaseURL: String!

    override func setUp() async throws {
        try await super.setUp()
        serverMock = try await MockServer.create()  // [1] create()
        serverBaseURL = await serverMock.baseURL  // [2] baseURL
    }

    override func tearDown() async throws {
        await serverMock.stop()  // [3] stop(): async, does not throw
        let stillRunning = await serverMock.isRunning  // [4] isRunning
        XCTAssertFalse(stillRunning)
        serverMock = nil
        serverBaseURL = nil
        try await super.tearDown()
    }

    func testServerFromSetUpAnswersAtItsBaseURL() async throws {
        await serverMock.registerCatchAll { _ in .json(#"{"ok":true}"#) }
        let port = try XCTUnwrap(URL(string: serverBaseURL)?.port.map(UInt16.init))
        let response = try await fetch(port, "GET", "/anything")
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.text, #"{"ok":true}"#)
    }
}

final class SwiftMockServerCompatibilityTests: XCTestCase {
    // MARK: - Lifecycle

    func testInitStartStopAndStartAgain() async throws {
        let server = MockServer(port: 0, defaultResponse: .status(.notFound))  // [5] init(port:defaultResponse:)
        var running = await server.isRunning
        XCTAssertFalse(running, "a server made with init is not listening before start()")
        try await server.start()  // [6] start()
        running = await server.isRunning
        XCTAssertTrue(running)
        let port = await server.port  // [7] port (async in SwiftMockServer)
        XCTAssertGreaterThan(port, 0)
        let notFound = try await fetch(port, "GET", "/nothing")
        XCTAssertEqual(notFound.status, 404, "the default answer is 404")

        do {
            try await server.start()
            XCTFail("a second start() must throw")
        } catch MockServerError.alreadyRunning {  // [8] MockServerError.alreadyRunning
        }

        await server.stop()
        do {
            _ = try await fetch(port, "GET", "/nothing")
            XCTFail("a stopped server must not answer")
        } catch {}

        let url = try await server.startAndGetURL()  // [9] startAndGetURL()
        let baseURL = await server.baseURL
        XCTAssertEqual(url, baseURL)
        let restartedPort = await server.port
        let again = try await fetch(restartedPort, "GET", "/nothing")
        XCTAssertEqual(again.status, 404)
        await server.stop()
    }

    func testCreateWithPortAndDefaultResponse() async throws {
        // [10] create(port:defaultResponse:)
        let server = try await MockServer.create(port: UInt16(0), defaultResponse: .status(.serviceUnavailable))
        let response = try await fetch(await server.port, "GET", "/unrouted")
        XCTAssertEqual(response.status, 503)
        await server.stop()
    }

    // MARK: - Routes and their priority

    func testLastRegisteredRouteWinsAndRemovingItRestoresTheEarlierOne() async throws {
        let server = try await MockServer.create()
        let first: String = await server.register(.GET, "/feature") { _ in .json(#"{"v":1}"#) }  // [11] register → String id
        let second: String = await server.stubJSON(.GET, "/feature", json: #"{"v":2}"#)  // [12] stubJSON
        XCTAssertNotEqual(first, second)
        let port = await server.port
        let value91 = try await fetch(port, "GET", "/feature").text
        XCTAssertEqual(value91, #"{"v":2}"#, "LIFO: the later route wins")
        await server.removeRoute(id: second)  // [13] removeRoute(id:)
        let value94 = try await fetch(port, "GET", "/feature").text
        XCTAssertEqual(value94, #"{"v":1}"#)
        await server.removeAllRoutes()  // [14] removeAllRoutes()
        let value97 = try await fetch(port, "GET", "/feature").status
        XCTAssertEqual(value97, 404)
        await server.stop()
    }

    func testSpecificRoutesRegisteredAfterTheCatchAllOverrideIt() async throws {
        // The reference's recovery flow: a failing catch-all, then register/registerPrefix.
        let server = try await MockServer.create()
        await server.registerCatchAll { _ in .status(.internalServerError) }  // [15] registerCatchAll
        let port = await server.port
        let value107 = try await fetch(port, "GET", "/character").status
        XCTAssertEqual(value107, 500)
        await server.registerPrefix(.GET, "/avatar/") { _ in .image(Data([0x89, 0x50, 0x4E, 0x47])) }  // [16] registerPrefix
        await server.register(.GET, "/character") { _ in .json("[]") }
        await server.registerParameterized(.GET, "/character/:id") { request in  // [17] registerParameterized
            .text("character \(request.path.split(separator: "/").last ?? "")")
        }
        let value114 = try await fetch(port, "GET", "/character").text
        XCTAssertEqual(value114, "[]")
        let value116 = try await fetch(port, "GET", "/avatar/1.png").status
        XCTAssertEqual(value116, 200)
        let value118 = try await fetch(port, "GET", "/character/7").text
        XCTAssertEqual(value118, "character 7")
        let slash = try await fetch(port, "GET", "/character/")
        XCTAssertEqual(slash.text, "[]", "a trailing slash is ignored, as SwiftMockServer normalizes paths")
        let slashed = try await fetch(port, "GET", "/character/7/")
        XCTAssertEqual(slashed.text, "character 7")
        let value120 = try await fetch(port, "GET", "/episode").status
        XCTAssertEqual(value120, 500, "the catch-all still answers the rest")
        let value122 = try await fetch(port, "POST", "/character").status
        XCTAssertEqual(value122, 500, "a GET route does not answer POST")
        await server.stop()
    }

    func testStubAndDefaultResponseAndDelay() async throws {
        let server = try await MockServer.create()
        let port = await server.port
        await server.stub(.DELETE, "/users/1", response: .status(.noContent))  // [18] stub
        let value131 = try await fetch(port, "DELETE", "/users/1").status
        XCTAssertEqual(value131, 204)
        await server.setDefaultResponse(.status(.serviceUnavailable))  // [19] setDefaultResponse
        let value134 = try await fetch(port, "GET", "/other").status
        XCTAssertEqual(value134, 503)
        await server.setResponseDelay(.milliseconds(300))  // [20] setResponseDelay
        let start = ContinuousClock.now
        _ = try await fetch(port, "DELETE", "/users/1")
        XCTAssertGreaterThanOrEqual(ContinuousClock.now - start, .milliseconds(300))
        await server.setResponseDelay(nil)
        await server.stop()
    }

    func testHandlerErrorBecomes500() async throws {
        struct Broken: Error {}
        let server = try await MockServer.create()
        let handler: RouteHandler = { _ in throw Broken() }  // [21] RouteHandler
        await server.register(.GET, "/broken", handler: handler)
        let response = try await fetch(await server.port, "GET", "/broken")
        XCTAssertEqual(response.status, 500)
        XCTAssertTrue(response.text.contains("Broken"), response.text)
        await server.stop()
    }

    func testStubImageFromABundleAndAMissingFixtureThrows() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("smscompat-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1, 2, 3])
        try png.write(to: folder.appendingPathComponent("avatar.png"))
        try Data(#"{"users":[]}"#.utf8).write(to: folder.appendingPathComponent("users.json"))
        let bundle = try XCTUnwrap(Bundle(path: folder.path))

        let server = try await MockServer.create()
        try await server.stubImage(.GET, "/avatar.png", named: "avatar.png", in: bundle)  // [22] stubImage
        let port = await server.port
        let image = try await fetch(port, "GET", "/avatar.png")
        XCTAssertEqual(image.headers["content-type"], "image/png")
        XCTAssertEqual(image.body, png)
        do {
            try await server.stubImage(.GET, "/missing.png", named: "missing.png", in: bundle)
            XCTFail("a missing image fixture must throw")
        } catch MockServerError.invalidRequest("") {  // [23] MockServerError.invalidRequest
        }

        let json = try XCTUnwrap(MockHTTPResponse.jsonFile(named: "users", in: bundle))  // [24] jsonFile
        XCTAssertEqual(json.body, Data(#"{"users":[]}"#.utf8))
        XCTAssertEqual(json.headers["Content-Type"], "application/json; charset=utf-8")
        XCTAssertNil(MockHTTPResponse.jsonFile(named: "absent.json", in: bundle))
        let file = try XCTUnwrap(MockHTTPResponse.imageFile(named: "avatar.png", in: bundle))  // [25] imageFile
        XCTAssertEqual(file.headers["Content-Type"], "image/png")
        await server.stop()
    }

    // MARK: - Recording

    func testRecordingAndWaitingForRequests() async throws {
        let server = try await MockServer.create()
        let port = await server.port
        await server.stubJSON(.POST, "/api/track", json: #"{"ok":true}"#)
        _ = try await fetch(port, "POST", "/api/track?source=test", body: #"{"event":"open"}"#)
        _ = try await fetch(port, "GET", "/api/track")

        let all = await server.requests  // [26] requests
        XCTAssertEqual(all.count, 2)
        let value196 = await server.requests(matching: "/api/track").count
        XCTAssertEqual(value196, 2)  // [27] requests(matching:)
        let posts = await server.requests(method: .POST, path: "/api/track")  // [28] requests(method:path:)
        XCTAssertEqual(posts.count, 1)
        let recorded = try XCTUnwrap(posts.first)
        XCTAssertEqual(recorded.request.path, "/api/track")  // [29] RecordedRequest.request
        XCTAssertEqual(recorded.request.method, .POST)
        XCTAssertEqual(recorded.request.queryParameters, ["source": "test"])
        XCTAssertNotNil(recorded.request.body)
        XCTAssertEqual(recorded.request.bodyString, #"{"event":"open"}"#)
        XCTAssertNotNil(recorded.matchedRoute, "a request a route answered names it")  // [30] matchedRoute
        XCTAssertLessThanOrEqual(recorded.timestamp, Date())  // [31] timestamp
        XCTAssertNil(all.last?.matchedRoute, "GET had no route: nil")
        let didPost = await server.didReceive(method: .POST, path: "/api/track")  // [32] didReceive
        XCTAssertTrue(didPost)
        let didPut = await server.didReceive(method: .PUT, path: "/api/track")
        XCTAssertFalse(didPut)

        let waited = try await server.waitForRequest(  // [33] waitForRequest(method:path:timeout:pollInterval:)
            method: .POST, path: "/api/track", timeout: .seconds(5), pollInterval: .milliseconds(100))
        XCTAssertEqual(waited.request.path, "/api/track")
        do {
            _ = try await server.waitForRequest(method: .GET, path: "/never", timeout: .milliseconds(200))
            XCTFail("waiting for a request that never comes must throw")
        } catch MockServerError.timeout {  // [34] MockServerError.timeout
        }

        await server.clearRecordedRequests()  // [35] clearRecordedRequests
        let value224 = await server.requests.isEmpty
        XCTAssertTrue(value224)
        await server.stop()
    }

    func testWaitForRequestReturnsWhenTheRequestArrivesLater() async throws {
        let server = try await MockServer.create()
        let port = await server.port
        async let waited = server.waitForRequest(path: "/late", timeout: .seconds(5))
        try await Task.sleep(for: .milliseconds(100))
        _ = try await fetch(port, "GET", "/late")
        let recorded = try await waited
        XCTAssertEqual(recorded.request.path, "/late")
        await server.stop()
    }

    // MARK: - Models

    func testHTTPMethodAndStatus() throws {
        XCTAssertEqual(HTTPMethod.allCases.map(\.rawValue),  // [36] HTTPMethod.allCases, rawValue
                       ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS", "CONNECT", "TRACE"])
        XCTAssertEqual(HTTPMethod.CONNECT.rawValue, "CONNECT")  // [37] CONNECT
        XCTAssertEqual(HTTPMethod.TRACE.rawValue, "TRACE")  // [38] TRACE
        let parsed = try XCTUnwrap(HTTPMethod(rawValue: "GET"))  // failable, as the enum's
        XCTAssertEqual(parsed, .GET)
        XCTAssertNil(HTTPMethod(rawValue: ""))
        XCTAssertNil(HTTPMethod(rawValue: "GET /"))
        let teapot = HTTPStatus(code: 418, reason: "I'm a Teapot")  // [39] HTTPStatus(code:reason:)
        XCTAssertEqual(teapot.code, 418)  // [40] code
        XCTAssertEqual(teapot.reason, "I'm a Teapot")  // [41] reason
        XCTAssertEqual(teapot.description, "418 I'm a Teapot")  // [42] description
        let constants: [(HTTPStatus, Int)] = [  // [43…61] the 19 constants
            (.ok, 200), (.created, 201), (.accepted, 202), (.noContent, 204), (.movedPermanently, 301),
            (.found, 302), (.notModified, 304), (.badRequest, 400), (.unauthorized, 401), (.forbidden, 403),
            (.notFound, 404), (.methodNotAllowed, 405), (.conflict, 409), (.unprocessableEntity, 422),
            (.tooManyRequests, 429), (.internalServerError, 500), (.badGateway, 502), (.serviceUnavailable, 503),
            (.gatewayTimeout, 504),
        ]
        for (status, code) in constants {
            XCTAssertEqual(status.code, code)
        }
        XCTAssertEqual(HTTPStatus.unprocessableEntity.reason, "Unprocessable Entity")
    }

    func testRequestModel() throws {
        struct CreateUser: Codable, Sendable, Equatable {
            let name: String
        }
        let request = MockHTTPRequest(  // [62] MockHTTPRequest(method:path:queryParameters:headers:body:)
            method: .POST, path: "/api/users", queryParameters: ["q": "a b"], headers: ["X-Token": "1"],
            body: Data(#"{"name":"Alice"}"#.utf8))
        XCTAssertEqual(request.method, .POST)  // [63] method
        XCTAssertEqual(request.path, "/api/users")  // [64] path
        XCTAssertEqual(request.queryParameters, ["q": "a b"])  // [65] queryParameters
        XCTAssertEqual(request.headers, ["X-Token": "1"])  // [66] headers
        XCTAssertEqual(request.body, Data(#"{"name":"Alice"}"#.utf8))  // [67] body: Data?
        XCTAssertEqual(request.bodyString, #"{"name":"Alice"}"#)  // [68] bodyString
        XCTAssertEqual(try request.jsonBody(CreateUser.self), CreateUser(name: "Alice"))  // [69] jsonBody
        let empty = MockHTTPRequest(method: .GET, path: "/")
        XCTAssertNil(empty.body)
        XCTAssertThrowsError(try empty.jsonBody(CreateUser.self)) { error in
            guard case MockServerError.noBody = error else {  // [70] MockServerError.noBody
                return XCTFail("expected noBody, got \(error)")
            }
        }
    }

    func testResponseBuilders() throws {
        struct User: Codable, Sendable {
            let id: Int
        }
        let plain = MockHTTPResponse(status: .ok, headers: ["X-Custom": "v"], body: nil)  // [71] init(status:headers:body:)
        XCTAssertNil(plain.body)  // [72] body
        XCTAssertEqual(plain.headers["X-Custom"], "v")  // [73] headers
        XCTAssertEqual(plain.status, .ok)  // [74] status
        let encoded = try MockHTTPResponse.json(User(id: 1), status: .created)  // [75] json(Encodable)
        XCTAssertEqual(encoded.status, .created)
        XCTAssertEqual(encoded.body, Data(#"{"id":1}"#.utf8))
        let raw = MockHTTPResponse.json(#"{"k":"v"}"#)  // [76] json(String)
        XCTAssertEqual(raw.headers["Content-Type"], "application/json; charset=utf-8")
        XCTAssertEqual(MockHTTPResponse.text("hi").headers["Content-Type"], "text/plain; charset=utf-8")  // [77] text
        XCTAssertEqual(MockHTTPResponse.html("<p>").headers["Content-Type"], "text/html; charset=utf-8")  // [78] html
        XCTAssertNil(MockHTTPResponse.status(.noContent).body)  // [79] status(_:)
        let pdf = MockHTTPResponse.data(Data([1]), contentType: "application/pdf")  // [80] data(_:contentType:status:)
        XCTAssertEqual(pdf.headers["Content-Type"], "application/pdf")
        let jpeg = Data([0xFF, 0xD8, 0xFF, 0xE0])
        XCTAssertEqual(MockHTTPResponse.image(jpeg).headers["Content-Type"], "image/jpeg")  // [81] image(_:) sniffs
        XCTAssertEqual(MockHTTPResponse.image(Data([1, 2])).headers["Content-Type"], "image/png", "unknown bytes: PNG")
        XCTAssertEqual(  // [82] image(_:contentType:status:)
            MockHTTPResponse.image(jpeg, contentType: .gif, status: .accepted).headers["Content-Type"], "image/gif")
        XCTAssertEqual(ImageContentType(fileExtension: "JPG"), .jpeg)  // [83] ImageContentType(fileExtension:)
        XCTAssertEqual(ImageContentType(fileExtension: "tif"), .tiff)
        XCTAssertNil(ImageContentType(fileExtension: "txt"))
        XCTAssertEqual(ImageContentType(detecting: jpeg), .jpeg)  // [84] ImageContentType(detecting:)
        XCTAssertEqual(ImageContentType(detecting: Data([0x49, 0x49, 0x2A, 0x00])), .tiff)
        XCTAssertNil(ImageContentType(detecting: Data()))
        XCTAssertEqual(ImageContentType.svg.rawValue, "image/svg+xml")  // [85] ImageContentType cases
    }

    func testErrorsHaveThePeersCaseNames() {
        let errors: [MockServerError] = [  // [86…90] bindFailed, listenFailed, notRunning, portUnavailable, description
            .bindFailed("x"), .listenFailed("y"), .alreadyRunning, .notRunning, .noBody, .invalidRequest("z"),
            .portUnavailable(8080), .timeout,
        ]
        for error in errors {
            XCTAssertFalse(error.description.isEmpty)
        }
        switch MockServerError.portUnavailable(8080) {
        case .portUnavailable(1): break  // matches by kind, whatever the port in the pattern
        default: XCTFail("portUnavailable must match its own kind")
        }
        switch MockServerError.timeout {
        case .alreadyRunning: XCTFail("timeout must not match alreadyRunning")
        case .timeout: break
        default: XCTFail("timeout must match timeout")
        }
    }

    func testRecordedRequestInitAndRoutePattern() {
        let entry = RecordedRequest(request: MockHTTPRequest(method: .GET, path: "/a"), response: .status(.ok))  // [91] RecordedRequest.init
        XCTAssertNil(entry.matchedRoute)
        let patterns: [RoutePattern] = [.exact("/a"), .parameterized("/a/:id"), .prefix("/a/"), .any]  // [92] RoutePattern
        XCTAssertEqual(Set(patterns).count, 4)
        XCTAssertEqual(RoutePattern.any, .catchAll)
    }

    // MARK: - Testing/ helpers

    func testAppConfigAndDetector() async throws {
        let server = try await MockServer.create()
        let config = await server.appConfig()  // [93] appConfig()
        let port = await server.port
        XCTAssertEqual(config.port, UInt16(port))  // [94] MockServerAppConfig.port
        let baseURL = await server.baseURL
        XCTAssertEqual(config.baseURL, baseURL)  // [95] baseURL
        XCTAssertEqual(config.launchArguments, ["-useMockServer"])  // [96] launchArguments
        XCTAssertEqual(config.launchEnvironment["MOCK_SERVER_URL"], config.baseURL)  // [97] launchEnvironment
        XCTAssertEqual(config.launchEnvironment["MOCK_SERVER_PORT"], String(port))
        let custom = await server.appConfig(
            baseURLEnvironmentKey: "API_BASE_URL", portEnvironmentKey: "API_PORT", useMockServerArgument: "--mock")
        XCTAssertEqual(custom.launchEnvironment["API_BASE_URL"], config.baseURL)
        XCTAssertEqual(custom.launchArguments, ["--mock"])
        let built = MockServerAppConfig(  // [98] MockServerAppConfig.init
            baseURL: "http://127.0.0.1:1", port: 1, additionalArguments: ["-x"], additionalEnvironment: ["K": "v"])
        XCTAssertEqual(built.launchArguments, ["-useMockServer", "-x"])
        XCTAssertEqual(built.launchEnvironment["K"], "v")
        // This test process was not launched with -useMockServer / MOCK_SERVER_URL.
        XCTAssertFalse(MockServerDetector.isUsingMockServer)  // [99] isUsingMockServer
        XCTAssertEqual(MockServerDetector.baseURL, ProcessInfo.processInfo.environment["MOCK_SERVER_URL"])  // [100]
        XCTAssertEqual(  // [101] MockServerDetector.port
            MockServerDetector.port, ProcessInfo.processInfo.environment["MOCK_SERVER_PORT"].flatMap { UInt16($0) })
        await server.stop()
    }

    func testRouteStubCollectionWithTheResultBuilder() async throws {
        let isLoggedIn = true
        var collection = RouteStubCollection {  // [102] RouteStubCollection(builder:), RouteStubBuilder
            RouteStubCollection.Stub(method: .GET, path: "/api/config", response: .json(#"{"version":1}"#))  // [103] Stub
            if isLoggedIn {
                RouteStubCollection.Stub(method: .GET, path: "/api/profile", response: .json(#"{"name":"Alice"}"#))
            }
            for id in 1...2 {
                RouteStubCollection.Stub(path: "/api/items/\(id)", response: .text("item \(id)"))
            }
        }
        collection.add(.POST, "/api/users", response: .status(.created))  // [104] add(_:_:response:)
        XCTAssertEqual(collection.stubs.count, 5)  // [105] stubs
        XCTAssertEqual(RouteStubCollection([]).stubs.count, 0)  // [106] init(_:)

        let server = try await MockServer.create()
        await server.registerAll(collection)  // [107] registerAll
        let port = await server.port
        let value391 = try await fetch(port, "GET", "/api/profile").text
        XCTAssertEqual(value391, #"{"name":"Alice"}"#)
        let value393 = try await fetch(port, "GET", "/api/items/2").text
        XCTAssertEqual(value393, "item 2")
        let value395 = try await fetch(port, "POST", "/api/users").status
        XCTAssertEqual(value395, 201)
        await server.stop()
    }

    // MARK: - Routing types and the stand-alone parser

    func testRouterEngineMatchesTheFirstRouteInListOrder() async throws {
        let newest = Route(method: .GET, pattern: .parameterized("/users/:id")) { _ in .text("newest") }  // [108] Route
        let older = Route(id: "older", pattern: .exact("/users/1")) { _ in .text("older") }
        let catchAll = Route(pattern: .any) { _ in .status(.notFound) }
        let request = MockHTTPRequest(method: .GET, path: "/users/1")
        let match = try XCTUnwrap(RouterEngine.match(request: request, routes: [newest, older, catchAll]))  // [109] RouterEngine.match
        XCTAssertEqual(match.route.id, newest.id)  // [110] RouteMatch
        XCTAssertEqual(match.pathParameters, ["id": "1"])
        let response = try await match.route.handler(request)
        XCTAssertEqual(response.body, Data("newest".utf8))
        let post = MockHTTPRequest(method: .POST, path: "/users/1")
        XCTAssertEqual(RouterEngine.match(request: post, routes: [newest, older])?.route.id, "older")
        XCTAssertNil(RouterEngine.match(request: MockHTTPRequest(method: .GET, path: "/x"), routes: [newest, older]))
    }

    func testHTTPParserParsesAndSerializes() throws {
        let raw = Data("POST /api/users?q=a%20b HTTP/1.1\r\nHost: localhost\r\nX-Token: 1\r\n\r\n{\"name\":\"Al\"}".utf8)
        let request = try HTTPParser.parse(raw)  // [111] HTTPParser.parse
        XCTAssertEqual(request.method, .POST)
        XCTAssertEqual(request.path, "/api/users")
        XCTAssertEqual(request.queryParameters, ["q": "a b"])
        XCTAssertEqual(request.headers["X-Token"], "1")
        XCTAssertEqual(request.bodyString, #"{"name":"Al"}"#)
        XCTAssertThrowsError(try HTTPParser.parse(Data("garbage".utf8))) { error in
            guard case MockServerError.invalidRequest("") = error else { return XCTFail("\(error)") }
        }
        let bytes = HTTPParser.serialize(.json(#"{"ok":true}"#, status: .created))  // [112] HTTPParser.serialize
        let text = String(decoding: bytes, as: UTF8.self)
        XCTAssertTrue(text.hasPrefix("HTTP/1.1 201 Created\r\n"), text)
        XCTAssertTrue(text.contains("Content-Length: 11\r\n"), text)
        XCTAssertTrue(text.contains("Connection: close\r\n"), text)
        XCTAssertTrue(text.hasSuffix("\r\n\r\n{\"ok\":true}"), text)
    }
}
