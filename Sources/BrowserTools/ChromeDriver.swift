import Foundation
import LoopbackSockets
import ProcessToolkit
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A running chromedriver on 127.0.0.1: the one way the runner (a shard's driver), RobotKit (a
/// test process's own) and the tests (a browser that clicks through the report) start one.
public struct ChromeDriver: Sendable {
    public let process: ChildProcess
    public let port: Int
    /// Its stdout and stderr (and, through it, Chromium's stderr).
    public let logPath: String

    /// `http://127.0.0.1:PORT`
    public var url: String { "http://127.0.0.1:\(port)" }

    /// chromedriver could not be started or did not listen in time; the description says why
    /// and ends with the log's last lines when there are any.
    public struct StartFailure: Error, CustomStringConvertible {
        public var description: String
    }

    /// The longest `temporaryDirectory` Chromium can start in: 107 bytes of socket path less the
    /// 46 its process lock adds.
    public static let maximumTemporaryPath = 61

    /// Starts `launch.executable` on `launch.port` (loopback only, chromedriver's default), output
    /// appended to `launch.logPath`, and waits until it accepts connections: at most `timeout`
    /// seconds, less if it exits first. On failure the process is killed and reaped. Spawned from
    /// the calling thread (see `ChildProcess.Options.parentDeathSignal`). In a network namespace
    /// nothing outside can connect to it, so readiness is chromedriver's own line saying it
    /// listens (printed once its sockets are bound), read from a log that must start empty.
    ///
    /// `temporaryDirectory` (created when missing) becomes chromedriver's and so Chromium's
    /// `TMPDIR`: give a folder the caller removes. Both are killed, never asked to quit, and a
    /// killed process leaves its scoped folders (`org.chromium.Chromium.scoped_dir.*`) behind.
    /// Its path must be short: the full browser's process-lock socket goes in it
    /// (`.org.chromium.Chromium.XXXXXX/SingletonSocket`, 46 bytes), and a socket path over 107
    /// bytes stops that browser at start. A longer one is not used (the inherited `TMPDIR` is).
    public static func start(
        _ launch: DriverLaunch, temporaryDirectory: String? = nil, timeout: Double = 20
    ) throws(StartFailure) -> ChromeDriver {
        let (port, logPath, networkNamespace) = (launch.port, launch.logPath, launch.networkNamespace)
        var environment = launch.environment
        if let temporaryDirectory, temporaryDirectory.utf8.count <= maximumTemporaryPath {
            do {
                try FileManager.default.createDirectory(atPath: temporaryDirectory, withIntermediateDirectories: true)
            } catch {
                throw StartFailure(description: "could not create chromedriver's temporary folder \(temporaryDirectory): \(error)")
            }
            environment = (environment ?? ProcessInfo.processInfo.environment).merging(["TMPDIR": temporaryDirectory]) { $1 }
        }
        let process: ChildProcess
        do {
            process = try ChildProcess(
                executable: launch.executable, arguments: ["--port=\(port)", "--log-level=WARNING"], environment: environment,
                options: ChildProcess.Options(output: .file(logPath), group: launch.group, networkNamespace: networkNamespace))
        } catch {
            throw StartFailure(description: "could not start chromedriver: \(error)")
        }
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let end = process.tryWait() {
                throw StartFailure(description: "chromedriver exited at start-up (\(end)); its log (\(logPath)):\n\(logTail(logPath))")
            }
            let listening = networkNamespace == nil ? Loopback.canConnect(port) : saysListening(logPath, port: port)
            if listening { return ChromeDriver(process: process, port: port, logPath: logPath) }
            usleep(10_000)
        }
        process.killGroup()
        _ = process.wait()
        throw StartFailure(description: "chromedriver did not listen on 127.0.0.1:\(port) within \(String(format: "%g", timeout)) s; its log (\(logPath)):\n\(logTail(logPath))")
    }

    /// Kills chromedriver (with `Group.own`, its whole group) and reaps it. Chromium, started
    /// with a parent-death signal, goes with it.
    public func stop() {
        process.killGroup()
        _ = process.wait()
    }

    /// The end of the log, for error messages.
    public func logTail(maxBytes: Int = 1500) -> String { Self.logTail(logPath, maxBytes: maxBytes) }

    /// chromedriver's `ChromeDriver was started successfully on port N.` is in the log.
    private static func saysListening(_ path: String, port: Int) -> Bool {
        guard let data = FileManager.default.contents(atPath: path) else { return false }
        return String(decoding: data, as: UTF8.self).contains("started successfully on port \(port).")
    }

    private static func logTail(_ path: String, maxBytes: Int = 1500) -> String {
        guard let data = FileManager.default.contents(atPath: path) else { return "" }
        return String(decoding: data.suffix(maxBytes), as: UTF8.self)
    }
}
