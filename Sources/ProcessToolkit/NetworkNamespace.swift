import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A network namespace of its own (Linux) with nothing but `lo`, up: a server that listens
/// on loopback inside it (a shard's chromedriver, Chromium's DevTools endpoint, a mock server)
/// cannot be reached from the host's namespace, so no other local user can talk to it, and
/// its ports cannot collide with another namespace's.
///
/// A holder process keeps the namespace alive: `unshare --net` (as root, or with
/// `--user --map-root-user` in a user namespace of its own when not), which brings `lo` up
/// and sleeps until killed. It is a `ChildProcess` of its own group with a parent-death
/// signal, so it dies with the thread that created it. Children join with `nsenter`
/// (`ChildProcess.Options.networkNamespace`); nothing outside can connect in, the caller
/// included, so whoever waits for a server inside must not need to (see `ChromeDriver.start`).
public struct NetworkNamespace: Sendable {
    /// The process that holds the namespace open (`sleep`, after `unshare` and `sh`).
    public let holder: ChildProcess
    /// True when the namespace is owned by a user namespace of its own (robotci not root).
    public let inUserNamespace: Bool

    /// Why a namespace cannot be made here (no `unshare`/`nsenter`/`ip`, or the kernel refused).
    public struct Unavailable: Error, CustomStringConvertible {
        public var description: String
    }

    /// Creates a namespace and waits (at most `timeout` seconds) until its `lo` is up.
    /// Spawned from the calling thread, which must outlive it (see
    /// `ChildProcess.Options.parentDeathSignal`).
    public static func create(timeout: Double = 10) throws(Unavailable) -> NetworkNamespace {
        #if os(Linux)
        guard let unshare = Executables.find("unshare"), nsenter != nil else {
            throw Unavailable(description: "util-linux's unshare and nsenter are not installed")
        }
        guard let ip = Executables.find(override: nil, candidates: ["/usr/sbin/ip", "/sbin/ip", "/bin/ip"], names: ["ip"]) else {
            throw Unavailable(description: "iproute2's ip is not installed (it brings the namespace's loopback up)")
        }
        let user = geteuid() != 0
        var arguments = ["--net"]
        if user { arguments = ["--user", "--map-root-user", "--net"] }
        arguments.append("--")
        // Entering a user namespace clears a parent-death signal: set it again inside.
        if user, let setpriv = ChildProcess.setpriv { arguments += [setpriv, "--pdeathsig", "KILL", "--"] }
        arguments += ["/bin/sh", "-c", "\"$0\" link set lo up && echo ready && exec sleep infinity", ip]
        let holder: ChildProcess
        do {
            holder = try ChildProcess(executable: unshare, arguments: arguments, options: ChildProcess.Options(output: .pipe))
        } catch {
            throw Unavailable(description: "\(error)")
        }
        let said = readLine(holder.outputFD, timeout: timeout)
        guard said.hasPrefix("ready") else {
            holder.killGroup()
            let end = holder.wait()
            let reason = said.trimmingCharacters(in: .whitespacesAndNewlines)
            throw Unavailable(description: "unshare \(arguments.prefix(while: { $0 != "--" }).joined(separator: " ")) failed (\(end))"
                + (reason.isEmpty ? "" : ": \(reason)"))
        }
        return NetworkNamespace(holder: holder, inUserNamespace: user)
        #else
        throw Unavailable(description: "network namespaces are a Linux feature")
        #endif
    }

    /// `/proc/<holder>/ns/net`.
    public var path: String { "/proc/\(holder.pid)/ns/net" }

    /// True while the holder runs (the namespace can still be entered).
    public var isAlive: Bool { holder.isRunning }

    /// `executable arguments` run inside the namespace: `nsenter … -- executable arguments`
    /// (nsenter execs it: the pid stays the child's). `parentDeathSignal`: set one again after
    /// entering a user namespace, which clears it.
    func entering(_ executable: String, _ arguments: [String], parentDeathSignal: Bool) -> (String, [String]) {
        guard let nsenter = Self.nsenter else { return (executable, arguments) }
        var entered = ["--net=\(path)"]
        if inUserNamespace { entered += ["--user=/proc/\(holder.pid)/ns/user", "--preserve-credentials"] }
        entered.append("--")
        if inUserNamespace, parentDeathSignal, let setpriv = ChildProcess.setpriv {
            entered += [setpriv, "--pdeathsig", "KILL", "--"]
        }
        return (nsenter, entered + [executable] + arguments)
    }

    /// Kills the holder and reaps it. The namespace goes when the last process in it does.
    public func stop() {
        holder.killGroup()
        _ = holder.wait()
    }

    static let nsenter: String? = Executables.find("nsenter")

    /// What arrives on `fd` until a newline, EOF or `timeout` seconds.
    private static func readLine(_ fd: Int32, timeout: Double) -> String {
        var text = Data()
        let deadline = Date().addingTimeInterval(timeout)
        var byte: UInt8 = 0
        while !text.contains(10) {
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { break }
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, Int32(left * 1000))
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { break }
            let n = read(fd, &byte, 1)
            if n < 0 && errno == EINTR { continue }
            guard n == 1 else { break }
            text.append(byte)
        }
        return String(decoding: text, as: UTF8.self)
    }
}
