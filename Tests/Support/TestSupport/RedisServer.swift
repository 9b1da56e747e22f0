import Foundation
import ProcessToolkit
#if canImport(Glibc)
import Glibc
#endif

/// A real `redis-server` on a free loopback port, in its own folder, no persistence.
/// Stopped (by pid) in `stop()`; tests call it in tearDown. Shared by the queue unit tests
/// and the end-to-end tests (a support target, not a test target). Started by ProcessToolkit's
/// `ChildProcess` with a parent-death signal, so a test process that crashes or is killed
/// before its tearDown leaves no server behind.
public final class RedisServer {
    public let port: Int
    public let directory: URL
    private let process: ChildProcess

    /// `port`: a restart on the port of a stopped server (a Redis restarted without
    /// persistence); nil picks a free one. With `password`, the server requires it
    /// (`--requirepass`); with `tls` (a certificate and its key, PEM), `port` speaks TLS only
    /// (`--tls-port`; no plain port).
    public init(port: Int? = nil, password: String? = nil, tls: (certificate: String, key: String)? = nil) throws {
        self.port = port ?? RedisServer.freePort()
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("robotci-redis-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var listen = ["--port", String(self.port)]
        if let tls {
            listen = ["--port", "0", "--tls-port", String(self.port), "--tls-cert-file", tls.certificate, "--tls-key-file", tls.key,
                      "--tls-ca-cert-file", tls.certificate, "--tls-auth-clients", "no"]
        }
        let arguments = listen + ["--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
                                  "--dir", directory.path, "--daemonize", "no"] + (password.map { ["--requirepass", $0] } ?? [])
        process = try ChildProcess(
            executable: Executables.find("redis-server") ?? "/usr/bin/redis-server", arguments: arguments,
            options: .init(output: .file(directory.appendingPathComponent("redis.log").path)))
        // Ready when it accepts a connection.
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            if RedisServer.canConnect(self.port) { return }
            usleep(20_000)
        }
        stop()
        throw NSError(domain: "redis-server did not start on port \(String(describing: port))", code: 1)
    }

    public var pid: Int32 { process.pid }

    public func stop() {
        process.killGroup()
        _ = process.wait()
        try? FileManager.default.removeItem(at: directory)
    }

    /// A port nobody listens on right now (see `Loopback.freePort`).
    public static func freePort() -> Int { Loopback.freePort() ?? 0 }

    public static func canConnect(_ port: Int) -> Bool { Loopback.canConnect(port) }
}
