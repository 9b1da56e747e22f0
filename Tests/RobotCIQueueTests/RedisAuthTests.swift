import Foundation
import TestSupport
import RobotCICore
import XCTest
@testable import RobotCIQueue

/// A Redis that requires a password (issue 27), against a real `redis-server --requirepass`.
final class RedisAuthTests: XCTestCase {
    private let password = "p@ss:w0rd/\(UUID().uuidString.prefix(8))"
    private var server: RedisServer!

    override func setUpWithError() throws { server = try RedisServer(password: password) }
    override func tearDown() { server?.stop() }

    private var encoded: String { password.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "" }

    func testAddressCarriesUserAndPasswordAndNeverShowsThePassword() throws {
        let a = try QueueAddress(parsing: "redis://:\(encoded)@127.0.0.1:\(server.port)/run-1")
        XCTAssertEqual(a.password, password)
        XCTAssertNil(a.user)
        XCTAssertEqual(a.description, "redis://:***@127.0.0.1:\(server.port)/run-1")
        let u = try QueueAddress(parsing: "redis://ci:\(encoded)@h/r")
        XCTAssertEqual(u.user, "ci")
        XCTAssertEqual(u.description, "redis://ci:***@h:6379/r")
        let env = try QueueAddress(parsing: "redis://h:1/r", environment: [QueueAddress.passwordVariable: "from-env"])
        XCTAssertEqual(env.password, "from-env")
        XCTAssertEqual(try QueueAddress(parsing: "redis://:url@h/r", environment: [QueueAddress.passwordVariable: "env"]).password, "url",
                       "the URL's password wins")
        XCTAssertNil(try QueueAddress(parsing: "redis://h/r").password)
    }

    func testBadAddressesAreClearAndMaskThePassword() {
        for (text, expected) in [
            ("rediss://:hunter22@h:6380/r", "stunnel"),
            ("redis://:hunter22@h:99999/r", "port"),
            ("http://:hunter22@h/r", "not a redis URL"),
            ("redis://:hunter22@h:1", "no NAME"),
            ("redis://ci@h:1/r", "no password"),
        ] {
            XCTAssertThrowsError(try QueueAddress(parsing: text), text) { error in
                let message = "\(error)"
                XCTAssertTrue(message.contains(expected), message)
                XCTAssertFalse(message.contains("hunter22"), message)
            }
        }
    }

    func testPasswordIsSentWithAuth() throws {
        let address = try QueueAddress(parsing: "redis://:\(encoded)@127.0.0.1:\(server.port)/r")
        let c = try RedisConnection(address: address)
        XCTAssertEqual(try c.command(["SET", "k", "v"]), .status("OK"))
        XCTAssertEqual(try c.command(["GET", "k"]), .string(Array("v".utf8)))
    }

    func testACLUserLogsInWithUserAndPassword() throws {
        let admin = try RedisConnection(host: "127.0.0.1", port: server.port, password: password)
        XCTAssertEqual(try admin.command(["ACL", "SETUSER", "ci", "on", ">ci-secret-1", "~robotci:*", "+@all"]), .status("OK"))
        let c = try RedisConnection(address: QueueAddress(parsing: "redis://ci:ci-secret-1@127.0.0.1:\(server.port)/r"))
        XCTAssertEqual(try c.command(["SET", "robotci:r:x", "1"]), .status("OK"))
    }

    /// Before: the first queue command failed with NOAUTH, exit 2, and the URL (password
    /// included) was printed. Now each mistake is named, without the password.
    func testMissingOrWrongPasswordIsNamedWithoutThePassword() throws {
        XCTAssertThrowsError(try RedisConnection(host: "127.0.0.1", port: server.port)) { error in
            XCTAssertEqual((error as? RedisError)?.kind, .auth)
            XCTAssertTrue("\(error)".contains("requires a password") && "\(error)".contains(QueueAddress.passwordVariable), "\(error)")
        }
        XCTAssertThrowsError(try RedisConnection(host: "127.0.0.1", port: server.port, password: "wrong-guess-123")) { error in
            XCTAssertEqual((error as? RedisError)?.kind, .auth)
            XCTAssertTrue("\(error)".contains("refused the password"), "\(error)")
            XCTAssertFalse("\(error)".contains("wrong-guess-123"), "\(error)")
        }
        XCTAssertThrowsError(try RedisQueue(address: QueueAddress(parsing: "redis://:wrong-guess-123@127.0.0.1:\(server.port)/r"),
                                            machine: "m")) { error in
            XCTAssertFalse("\(error)".contains("wrong-guess-123"), "\(error)")
            XCTAssertFalse("\(error)".contains("is redis-server running"), "no connection hint for a login problem: \(error)")
        }
    }

    func testPasswordGivenToAServerWithoutOneIsNamed() throws {
        let open = try RedisServer()
        defer { open.stop() }
        XCTAssertThrowsError(try RedisConnection(host: "127.0.0.1", port: open.port, password: "not-needed-1")) { error in
            XCTAssertTrue("\(error)".contains("has no password set"), "\(error)")
            XCTAssertFalse("\(error)".contains("not-needed-1"), "\(error)")
        }
    }
}
