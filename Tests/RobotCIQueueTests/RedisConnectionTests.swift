import Foundation
import TestSupport
import XCTest
@testable import RobotCIQueue

/// `RedisConnection` against a real redis-server.
final class RedisConnectionTests: XCTestCase {
    private var server: RedisServer!

    override func setUpWithError() throws { server = try RedisServer() }
    override func tearDown() { server?.stop() }

    func testRepliesBecomeSwiftValuesAndArgumentsAreBinarySafe() throws {
        let c = try RedisConnection(host: "127.0.0.1", port: server.port)
        XCTAssertEqual(try c.command(["PING"]), .status("PONG"))
        // NUL, CR LF, spaces and bytes that are not UTF-8 survive as one argument each.
        let value: [UInt8] = [0x61, 0x00, 0x0d, 0x0a, 0x20, 0xff, 0xfe, 0x62]
        XCTAssertEqual(try c.command([Array("SET".utf8), Array("k y".utf8), value]), .status("OK"))
        XCTAssertEqual(try c.command([Array("GET".utf8), Array("k y".utf8)]), .string(value))
        XCTAssertEqual(try c.command(["GET", "missing"]), .null)
        XCTAssertEqual(try c.command(["INCR", "n"]), .integer(1))
        XCTAssertEqual(try c.command(["RPUSH", "l", "a", "", "c"]), .integer(3))
        XCTAssertEqual(try c.command(["LRANGE", "l", "0", "-1"]), .array([.string(Array("a".utf8)), .string([]), .string(Array("c".utf8))]))
        guard case .error(let message) = try c.command(["INCR", "l"]) else { return XCTFail("a wrong-type command is an error reply") }
        XCTAssertTrue(message.hasPrefix("WRONGTYPE"), message)
        // The connection is still usable after an error reply.
        XCTAssertEqual(try c.command(["EVAL", "return {1, 'two', ARGV[1]}", "0", "x"]),
                       .array([.integer(1), .string(Array("two".utf8)), .string(Array("x".utf8))]))
    }

    func testConnectingToNothingNamesTheAddress() throws {
        let port = RedisServer.freePort()
        XCTAssertThrowsError(try RedisConnection(host: "127.0.0.1", port: port, timeout: 1)) { error in
            let e = error as? RedisError
            XCTAssertEqual(e?.kind, .connection)
            XCTAssertTrue(e?.message.contains("127.0.0.1:\(port)") ?? false, "\(error)")
            XCTAssertTrue(e?.message.contains("refused") ?? false, "\(error)")
        }
    }

    func testAServerThatGoesAwayIsAConnectionError() throws {
        let c = try RedisConnection(host: "127.0.0.1", port: server.port, timeout: 1)
        XCTAssertEqual(try c.command(["PING"]), .status("PONG"))
        server.stop()
        XCTAssertThrowsError(try c.command(["PING"])) { XCTAssertEqual(($0 as? RedisError)?.kind, .connection) }
        // Closed after the I/O error: later calls say so instead of touching a dead context.
        XCTAssertThrowsError(try c.command(["PING"])) { XCTAssertTrue("\($0)".contains("closed"), "\($0)") }
    }

    func testQueueAddressParsing() throws {
        XCTAssertEqual(try QueueAddress(parsing: "redis://10.0.0.5:6380/pipeline-42"), QueueAddress(host: "10.0.0.5", port: 6380, name: "pipeline-42"))
        XCTAssertEqual(try QueueAddress(parsing: "redis://redis/run.1"), QueueAddress(host: "redis", port: 6379, name: "run.1"))
        for bad in ["http://x:1/a", "redis://host:6379", "redis://host:6379/", "redis://host:99999/a", "redis://:1/a", "redis://h:1/a b"] {
            XCTAssertThrowsError(try QueueAddress(parsing: bad), bad) { XCTAssertTrue("\($0)".contains("redis://HOST") || "\($0)".contains("e.g."), "\($0)") }
        }
    }
}
