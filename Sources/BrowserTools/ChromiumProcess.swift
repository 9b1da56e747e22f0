import Foundation
import ProcessToolkit
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Chromium started with `--remote-debugging-pipe`: the DevTools protocol on the browser's file
/// descriptors 3 (commands in) and 4 (answers and events out), NUL-separated JSON, the way
/// Playwright and Puppeteer drive it. No port is opened, so nothing but the holder of the two
/// pipe ends can reach the browser. RobotKit starts one for a test process under plain
/// `swift test`; robotci starts one per shard behind a `DevToolsRelay`.
public final class ChromiumProcess: Sendable {
    public let process: ChildProcess
    /// Our end of the browser's DevTools channel: a stream socket whose other end is the
    /// browser's fd 3 (commands in) and fd 4 (answers out). A socket pair rather than two
    /// pipes, so a write to a browser that died fails with EPIPE under `MSG_NOSIGNAL` instead
    /// of raising SIGPIPE in the test process.
    public let channel: Int32
    /// Chromium's own output (its log), for error messages.
    public let logPath: String

    /// What starting a browser needs.
    public struct Launch: Sendable {
        /// The Chromium binary (`BrowserInstallation.chromium`).
        public var executable: String
        /// Chromium's switches; `--remote-debugging-pipe` and the profile are added.
        public var arguments: [String]
        /// The profile folder (`--user-data-dir`), created when missing.
        public var profile: String
        /// Where Chromium's output is appended.
        public var logPath: String
        /// Chromium's `TMPDIR` (a short path: its process-lock socket goes there), nil to inherit.
        public var temporaryDirectory: String?
        /// `.own` for a shard's browser robotci kills by group; `.caller` inside a test process.
        public var group: ChildProcess.Options.Group
        public var environment: [String: String]?
        public var networkNamespace: NetworkNamespace?

        public init(executable: String, arguments: [String], profile: String, logPath: String,
                    group: ChildProcess.Options.Group) {
            self.executable = executable
            self.arguments = arguments
            self.profile = profile
            self.logPath = logPath
            self.group = group
        }
    }

    private init(process: ChildProcess, channel: Int32, logPath: String) {
        self.process = process
        self.channel = channel
        self.logPath = logPath
    }

    /// Starts the browser. It is spawned from the calling thread with a parent-death signal:
    /// call from a thread that outlives it (`SpawnThread`, a relay's own thread).
    public static func start(_ launch: Launch) throws(ChromeDriver.StartFailure) -> ChromiumProcess {
        do {
            try FileManager.default.createDirectory(atPath: launch.profile, withIntermediateDirectories: true)
            if let temporary = launch.temporaryDirectory {
                try FileManager.default.createDirectory(atPath: temporary, withIntermediateDirectories: true)
            }
        } catch {
            throw .init(description: "could not create chromium's profile folder \(launch.profile): \(error)")
        }
        guard let pair = highSocketPair() else {
            throw .init(description: "could not make chromium's DevTools channel: \(String(cString: strerror(errno)))")
        }
        // The run's fonts, the same on every machine (BrowserFonts), beside the profile.
        var environment = BrowserFonts.controlled(launch.environment ?? ProcessInfo.processInfo.environment,
                                                  folder: launch.profile)
        if let temporary = launch.temporaryDirectory { environment["TMPDIR"] = temporary }
        var options = ChildProcess.Options(output: .file(launch.logPath), group: launch.group,
                                           networkNamespace: launch.networkNamespace)
        options.descriptors = [3: pair.theirs, 4: pair.theirs]
        let arguments = launch.arguments + ["--remote-debugging-pipe", "--user-data-dir=\(launch.profile)"]
        let process: ChildProcess
        do {
            process = try ChildProcess(executable: launch.executable, arguments: arguments, environment: environment,
                                       options: options)
        } catch {
            close(pair.ours)
            close(pair.theirs)
            throw .init(description: "could not start chromium: \(error)")
        }
        close(pair.theirs)
        return ChromiumProcess(process: process, channel: pair.ours, logPath: launch.logPath)
    }

    /// Kills the browser (its group with `.own`), reaps it and closes the pipe.
    public func stop() {
        if case .own = process.options.group { process.killGroup() } else { kill(process.pid, SIGKILL) }
        _ = process.wait()
        close(channel)
    }

    /// The end of Chromium's log, for error messages.
    public func logTail(maxBytes: Int = 1500) -> String {
        guard let data = FileManager.default.contents(atPath: logPath) else { return "" }
        return String(decoding: data.suffix(maxBytes), as: UTF8.self)
    }

    /// A close-on-exec stream socket pair whose ends are numbered 10 or above, so `dup2` onto
    /// the child's 3 and 4 can never overwrite one with the other.
    private static func highSocketPair() -> (ours: Int32, theirs: Int32)? {
        var fds: [Int32] = [0, 0]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &fds) == 0 else { return nil }
        defer { close(fds[0]); close(fds[1]) }
        let ours = fcntl(fds[0], F_DUPFD_CLOEXEC, 10), theirs = fcntl(fds[1], F_DUPFD_CLOEXEC, 10)
        guard ours >= 0, theirs >= 0 else {
            if ours >= 0 { close(ours) }
            if theirs >= 0 { close(theirs) }
            return nil
        }
        return (ours, theirs)
    }
}
