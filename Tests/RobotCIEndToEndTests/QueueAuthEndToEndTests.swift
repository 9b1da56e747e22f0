import Foundation
import TestSupport
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// `--queue` against a real `redis-server --requirepass` (and through a real stunnel to a
/// TLS-only redis), with a command-driver suite that prints its environment (issue 27).
final class QueueAuthEndToEndTests: XCTestCase {
    private let password = "Pw-\(UUID().uuidString.prefix(12))"
    private var cleanups: [() -> Void] = []

    override func tearDown() {
        for cleanup in cleanups.reversed() { cleanup() }
    }

    /// Every file of a report folder, as text.
    private func everything(in report: URL) -> String {
        let files = FileManager.default.enumerator(atPath: report.path)?.compactMap { $0 as? String } ?? []
        return files.compactMap { try? String(contentsOf: report.appendingPathComponent($0), encoding: .utf8) }.joined(separator: "\n")
    }

    private func run(queue: String, env: [String: String] = [:], package: URL) throws -> (E2E.Result, URL) {
        let report = package.deletingLastPathComponent().appendingPathComponent("report-\(UUID().uuidString.prefix(6))")
        let r = try E2E.run(["run", "--package", package.path, "--shards", "2", "--retries", "0", "--test-timeout", "20",
                             "--queue", queue, "--report-dir", report.path], env: env, timeout: 120)
        return (r, report)
    }

    /// Before: exit 2 (`NOAUTH`), with the password printed in the error. Now the run works,
    /// from the URL or from ROBOTCI_QUEUE_PASSWORD, and the password is in no output or file.
    func testPasswordProtectedQueueRunsAndThePasswordIsNowhere() throws {
        let server = try RedisServer(password: password)
        cleanups.append { server.stop() }
        let package = try E2E.environmentPrintingSuite(in: E2E.temporaryDirectory("queue-auth"), name: "auth")
        let (r, report) = try run(queue: "redis://:\(password)@127.0.0.1:\(server.port)/auth-url", package: package)
        XCTAssertEqual(r.status, 0, r.stdout + r.stderr)
        XCTAssertTrue(r.stderr.contains("redis://:***@127.0.0.1:\(server.port)/auth-url"), r.stderr)
        XCTAssertFalse((r.stdout + r.stderr).contains(password))
        let files = everything(in: report)
        XCTAssertTrue(files.contains("ROBOTCI_RUN_ID="), "the suite's printed environment is in the report")
        XCTAssertFalse(files.contains(password), "results.json, results.jsonl, junit.xml, index.html, batch logs")
        XCTAssertTrue(files.contains("redis://:***@127.0.0.1"), "commandLine keeps the address, masked")

        let (e, envReport) = try run(queue: "redis://127.0.0.1:\(server.port)/auth-env", env: ["ROBOTCI_QUEUE_PASSWORD": password],
                                     package: package)
        XCTAssertEqual(e.status, 0, e.stdout + e.stderr)
        XCTAssertFalse((e.stdout + e.stderr + everything(in: envReport)).contains(password))
        XCTAssertFalse(everything(in: envReport).contains("ROBOTCI_QUEUE_PASSWORD="), "tests are not given the queue's password")

        let report2 = try E2E.run(["report", "--queue", "redis://127.0.0.1:\(server.port)/auth-env", "--output",
                                   envReport.appendingPathComponent("whole").path], env: ["ROBOTCI_QUEUE_PASSWORD": password])
        XCTAssertEqual(report2.status, 0, report2.stderr)
        XCTAssertFalse((report2.stdout + report2.stderr + everything(in: envReport.appendingPathComponent("whole"))).contains(password))
    }

    func testWrongOrMissingPasswordIsExitTwoAndNamesTheFix() throws {
        let server = try RedisServer(password: password)
        cleanups.append { server.stop() }
        let package = try E2E.environmentPrintingSuite(in: E2E.temporaryDirectory("queue-auth"), name: "auth")
        let (missing, _) = try run(queue: "redis://127.0.0.1:\(server.port)/r", package: package)
        XCTAssertEqual(missing.status, 2, missing.stderr)
        XCTAssertTrue(missing.stderr.contains("requires a password") && missing.stderr.contains("ROBOTCI_QUEUE_PASSWORD"), missing.stderr)
        let (wrong, _) = try run(queue: "redis://:not-\(password)@127.0.0.1:\(server.port)/r", package: package)
        XCTAssertEqual(wrong.status, 2, wrong.stderr)
        XCTAssertTrue(wrong.stderr.contains("refused the password"), wrong.stderr)
        XCTAssertFalse(wrong.stderr.contains(password), wrong.stderr)
        let (tls, _) = try run(queue: "rediss://:\(password)@127.0.0.1:\(server.port)/r", package: package)
        XCTAssertEqual(tls.status, 2, tls.stderr)
        XCTAssertTrue(tls.stderr.contains("stunnel") && tls.stderr.contains("redis://127.0.0.1:6380/NAME"), tls.stderr)
        XCTAssertFalse(tls.stderr.contains(password), tls.stderr)
    }

    /// docs/queue.md's TLS recipe, for real: a redis that speaks only TLS (and wants a password),
    /// a stunnel client on this machine, robotci on stunnel's plain loopback port.
    func testQueueOverTLSThroughAStunnelSidecar() throws {
        guard let stunnel = ["/usr/bin/stunnel4", "/usr/bin/stunnel"].first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw XCTSkip("stunnel is not installed (apt-get install stunnel4; `make setup` does)")
        }
        let dir = E2E.temporaryDirectory("stunnel")
        let cert = dir.appendingPathComponent("cert.pem").path, key = dir.appendingPathComponent("key.pem").path
        let openssl = Process()
        openssl.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        openssl.arguments = ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert, "-days", "1",
                             "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"]
        openssl.standardError = FileHandle.nullDevice
        try openssl.run()
        openssl.waitUntilExit()
        XCTAssertEqual(openssl.terminationStatus, 0, "openssl made the certificate")
        let server = try RedisServer(password: password, tls: (cert, key))
        cleanups.append { server.stop() }

        let local = RedisServer.freePort()
        let config = dir.appendingPathComponent("stunnel.conf")
        try """
            foreground = yes
            pid =
            [redis]
            client = yes
            accept = 127.0.0.1:\(local)
            connect = 127.0.0.1:\(server.port)
            verifyChain = yes
            CAfile = \(cert)
            checkHost = localhost
            """.write(to: config, atomically: true, encoding: .utf8)
        let sidecar = Process()
        sidecar.executableURL = URL(fileURLWithPath: stunnel)
        sidecar.arguments = [config.path]
        sidecar.standardOutput = FileHandle.nullDevice
        sidecar.standardError = FileHandle.nullDevice
        try sidecar.run()
        cleanups.append { kill(sidecar.processIdentifier, SIGKILL); sidecar.waitUntilExit() }
        let deadline = Date().addingTimeInterval(10)
        while !RedisServer.canConnect(local) && Date() < deadline { usleep(50_000) }

        // Plain text to the TLS port is refused: the sidecar is what makes it work.
        let package = try E2E.environmentPrintingSuite(in: E2E.temporaryDirectory("queue-auth"), name: "auth")
        let (direct, _) = try run(queue: "redis://127.0.0.1:\(server.port)/tls", env: ["ROBOTCI_QUEUE_PASSWORD": password], package: package)
        XCTAssertEqual(direct.status, 2, direct.stderr)
        let (r, report) = try run(queue: "redis://127.0.0.1:\(local)/tls", env: ["ROBOTCI_QUEUE_PASSWORD": password], package: package)
        XCTAssertEqual(r.status, 0, r.stdout + r.stderr)
        XCTAssertEqual(try E2E.junitVerdicts(report.appendingPathComponent("junit.xml")).mapValues(\.verdict),
                       ["auth/a": "passed", "auth/b": "passed"])
        XCTAssertFalse((r.stdout + r.stderr + everything(in: report)).contains(password))
    }
}
