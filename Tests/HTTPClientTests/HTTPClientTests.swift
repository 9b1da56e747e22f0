import Foundation
@testable import HTTPClient
import MockServer
import XCTest

final class HTTPClientTests: XCTestCase {
    func testRequestsResponsesAndConnectionReuse() async throws {
        let server = try await MockServer.create(port: 0)
        await server.register(.POST, "/echo") { request in .data(request.body ?? Data(), contentType: "text/plain") }
        await server.stubJSON(.GET, "/json", json: #"{"ok":true}"#)
        await server.register(.DELETE, "/thing") { _ in .status(.noContent) }
        let base = await server.baseURL

        let client = try HTTPClient()
        let get = try client.send(HTTPRequest(url: "\(base)/json"))
        XCTAssertEqual(get.status, 200)
        XCTAssertEqual(String(decoding: get.body, as: UTF8.self), #"{"ok":true}"#)
        XCTAssertEqual(get.header("Content-Type")?.hasPrefix("application/json"), true)

        let post = try client.send(
            HTTPRequest(method: "POST", url: "\(base)/echo", headers: [("X-Test", "1")], body: Data("hello".utf8)))
        XCTAssertEqual(String(decoding: post.body, as: UTF8.self), "hello")
        XCTAssertEqual(try client.send(HTTPRequest(method: "DELETE", url: "\(base)/thing")).status, 204)
        XCTAssertEqual(try client.send(HTTPRequest(url: "\(base)/missing")).status, 404)

        XCTAssertEqual(get.newConnections, 1)
        for _ in 0..<20 {
            XCTAssertEqual(try client.send(HTTPRequest(url: "\(base)/json")).newConnections, 0, "keep-alive reused")
        }
        await server.stop()
    }

    /// Seconds to milliseconds never traps: infinite and huge values are 2³¹ − 1 ms, NaN and
    /// negative values 0; a request with `timeout: .infinity` is sent and answered.
    func testTimeoutsWithoutABoundAreClampedNotATrap() async throws {
        XCTAssertEqual(Milliseconds.of(1.5), 1500)
        XCTAssertEqual(Milliseconds.of(.infinity), 2_147_483_647)
        XCTAssertEqual(Milliseconds.of(.greatestFiniteMagnitude), 2_147_483_647)
        XCTAssertEqual(Milliseconds.of(3e6), 2_147_483_647, "past 24.8 days")
        XCTAssertEqual(Milliseconds.of(.nan), 0)
        XCTAssertEqual(Milliseconds.of(-1), 0)
        XCTAssertEqual(Milliseconds.of(-.infinity), 0)

        let server = try await MockServer.create(port: 0)
        await server.stubJSON(.GET, "/json", json: "{}")
        let base = await server.baseURL
        let client = try HTTPClient()
        XCTAssertEqual(try client.send(HTTPRequest(url: "\(base)/json", timeout: .infinity)).status, 200)
        await server.stop()
    }

    func testErrorsNameTheURL() async throws {
        let server = try await MockServer.create(port: 0)
        await server.stubJSON(.GET, "/slow", json: "{}")
        await server.setResponseDelay(.seconds(2))
        let base = await server.baseURL
        let client = try HTTPClient()
        XCTAssertThrowsError(try client.send(HTTPRequest(url: "\(base)/slow", timeout: 0.2))) { error in
            let error = error as? HTTPClientError
            XCTAssertEqual(error?.isTimeout, true)
            XCTAssertEqual(error?.description, "request to \(base)/slow timed out after 0.2 s")
        }
        await server.stop()

        XCTAssertThrowsError(try client.send(HTTPRequest(url: "\(base)/gone"))) { error in
            let error = error as? HTTPClientError
            XCTAssertEqual(error?.url, "\(base)/gone")
            XCTAssertNotNil(error?.curlCode)
            XCTAssertTrue(error?.description.hasPrefix("request to \(base)/gone failed: ") ?? false, "\(String(describing: error))")
        }
        XCTAssertThrowsError(try client.send(HTTPRequest(url: "notascheme://x"))) { error in
            XCTAssertTrue("\(error)".contains("notascheme://x"))
        }
    }
}
