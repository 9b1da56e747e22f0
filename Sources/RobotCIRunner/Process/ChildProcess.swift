import CProcessSupport
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A child process in its own process group, stdout and stderr merged into one pipe.
///
/// Foundation's `Process` cannot put the child in a new process group, and robotci
/// must kill a test's whole tree (browsers included) on a timeout, so this uses
/// `posix_spawn` directly.
final class ChildProcess {
    let pid: pid_t
    /// `ROBOTCI_PROCESS_TAG=<robotci pid>-<n>`, set in the child's environment and inherited
    /// by whatever it starts: how the stray reaper tells this child's orphans from another
    /// shard's (an exact environment entry, never a substring of a command line).
    let tag: String
    /// Read end of the child's merged stdout/stderr.
    let outputFD: Int32
    /// With `eventChannel`: read end of a second pipe that is the child's fd 3
    /// (`/dev/fd/3`), a channel for machine-readable results that the test's own output
    /// (stdout, stderr) cannot write into by accident; -1 otherwise.
    let eventFD: Int32
    private var reaped = false

    enum Termination: Equatable, CustomStringConvertible {
        case exited(Int32)
        case signaled(Int32)

        var description: String {
            switch self {
            case .exited(let code): return "exit \(code)"
            case .signaled(let sig): return "signal \(sig)"
            }
        }
    }

    /// Spawns `executable` with `arguments` (not including argv[0]). With `outputPath`, the
    /// child's stdout and stderr are appended to that file instead of a pipe (for long-lived
    /// helpers nobody reads, such as a shard's chromedriver); `outputFD` is then -1.
    init(executable: String, arguments: [String], environment: [String: String], workingDirectory: String? = nil,
         outputPath: String? = nil, eventChannel: Bool = false) throws {
        // Both ends close-on-exec, set under the registry lock that every spawn takes:
        // a write end leaked into a sibling shard's child would hold this pipe open, and
        // the EOF that ends a batch would wait for that other process to exit.
        var fds: [Int32] = [0, 0]
        let piped = ChildRegistry.shared.withLock { _ -> Int32 in
            guard pipe(&fds) == 0 else { return errno }
            _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
            _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
            return 0
        }
        guard piped == 0 else { throw RunnerError.spawn(executable, String(cString: strerror(piped))) }
        let readEnd = fds[0], writeEnd = fds[1]
        var events: [Int32] = [-1, -1]
        if eventChannel {
            let rc = ChildRegistry.shared.withLock { _ -> Int32 in
                guard pipe(&events) == 0 else { return errno }
                _ = fcntl(events[0], F_SETFD, FD_CLOEXEC)
                _ = fcntl(events[1], F_SETFD, FD_CLOEXEC)
                return 0
            }
            guard rc == 0 else {
                close(readEnd)
                close(writeEnd)
                throw RunnerError.spawn(executable, String(cString: strerror(rc)))
            }
        }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        if let outputPath {
            posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_APPEND, 0o644)
            posix_spawn_file_actions_adddup2(&actions, 1, 2)
        } else {
            posix_spawn_file_actions_adddup2(&actions, writeEnd, 1)
            posix_spawn_file_actions_adddup2(&actions, writeEnd, 2)
        }
        if eventChannel {
            // dup2 clears close-on-exec on fd 3 only; the originals stay closed in the child.
            posix_spawn_file_actions_adddup2(&actions, events[1], 3)
            posix_spawn_file_actions_addclose(&actions, events[1])
            posix_spawn_file_actions_addclose(&actions, events[0])
        }
        posix_spawn_file_actions_addclose(&actions, writeEnd)
        posix_spawn_file_actions_addclose(&actions, readEnd)
        if let dir = workingDirectory {
            _ = robotci_spawn_addchdir(&actions, dir)
        }

        var attr = posix_spawnattr_t()
        posix_spawnattr_init(&attr)
        defer { posix_spawnattr_destroy(&attr) }
        // Own process group (so a timeout can kill the whole tree), default signal
        // dispositions (robotci ignores SIGINT itself) and an empty signal mask.
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for sig in [SIGINT, SIGTERM, SIGPIPE, SIGHUP, SIGQUIT] { sigaddset(&defaults, sig) }
        posix_spawnattr_setsigdefault(&attr, &defaults)
        var emptyMask = sigset_t()
        sigemptyset(&emptyMask)
        posix_spawnattr_setsigmask(&attr, &emptyMask)
        posix_spawnattr_setpgroup(&attr, 0)
        posix_spawnattr_setflags(&attr, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        // If robotci itself is killed (SIGKILL, the OOM killer), its children must not run
        // on unwatched: a hanging test would never end. They get a parent-death signal.
        let (program, argv) = Self.withParentDeathSignal(executable, arguments)
        let tag = ChildRegistry.shared.newTag()
        var environment = environment
        environment[ChildRegistry.tagVariable] = tag
        let envp = environment.map { "\($0.key)=\($0.value)" }
        var childPID: pid_t = 0
        // Spawned under the registry's lock so the stray reaper never mistakes a
        // child that is being born for an orphan.
        let rc = ChildRegistry.shared.withLock { pids in
            let rc = withCStrings(argv) { cArgv in
                withCStrings(envp) { cEnv in
                    posix_spawn(&childPID, program, &actions, &attr, cArgv, cEnv)
                }
            }
            if rc == 0 { pids.insert(childPID) }
            return rc
        }
        close(writeEnd)
        if events[1] >= 0 { close(events[1]) }
        if outputPath != nil { close(readEnd) }
        guard rc == 0 else {
            if outputPath == nil { close(readEnd) }
            if events[0] >= 0 { close(events[0]) }
            throw RunnerError.spawn(executable, String(cString: strerror(rc)))
        }
        pid = childPID
        self.tag = tag
        outputFD = outputPath == nil ? readEnd : -1
        eventFD = events[0]
    }

    /// `setpriv --pdeathsig KILL -- executable arguments…` (Linux, util-linux): the child gets
    /// SIGKILL when the thread that spawned it ends, which for robotci means robotci died
    /// (children are spawned from the main thread and from shard threads that wait for them).
    /// setpriv execs the program, so the pid and process group are the child's own. Without
    /// setpriv, or for a path that cannot be run (so spawn errors stay the same), unchanged.
    static func withParentDeathSignal(_ executable: String, _ arguments: [String]) -> (String, [String]) {
        guard let setpriv = setpriv, access(executable, X_OK) == 0 else { return (executable, [executable] + arguments) }
        return (setpriv, [setpriv, "--pdeathsig", "KILL", "--", executable] + arguments)
    }

    private static let setpriv: String? = {
        #if os(Linux)
        return ["/usr/bin/setpriv", "/bin/setpriv"].first { access($0, X_OK) == 0 }
        #else
        return nil
        #endif
    }()

    /// Kills the child's whole process group.
    func killGroup(_ signal: Int32 = SIGKILL) {
        guard !reaped else { return }
        _ = kill(-pid, signal)
    }

    /// Waits for the child to exit and returns how it ended. Also kills anything
    /// the child left behind in its process group.
    func wait() -> Termination {
        if let done = termination { return done }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return finish(status)
    }

    /// Returns how the child ended if it has, without blocking.
    func tryWait() -> Termination? {
        if let done = termination { return done }
        var status: Int32 = 0
        let rc = waitpid(pid, &status, WNOHANG)
        guard rc == pid else { return nil }
        return finish(status)
    }

    private var termination: Termination?

    private func finish(_ status: Int32) -> Termination {
        // Anything the test left running in its group (a browser, a server) dies with it.
        _ = kill(-pid, SIGKILL)
        reaped = true
        ChildRegistry.shared.remove(pid)
        let low = status & 0x7f
        let result: Termination = low == 0 ? .exited((status >> 8) & 0xff) : .signaled(low)
        termination = result
        return result
    }

    deinit {
        if outputFD >= 0 { close(outputFD) }
        if eventFD >= 0 { close(eventFD) }
    }
}

/// The process groups robotci has alive, so a signal handler can kill them all.
final class ChildRegistry: @unchecked Sendable {
    static let shared = ChildRegistry()
    private let lock = NSLock()
    private var pids: Set<pid_t> = []

    func withLock<R>(_ body: (inout Set<pid_t>) -> R) -> R { lock.withLock { body(&pids) } }
    func remove(_ pid: pid_t) { lock.withLock { _ = pids.remove(pid) } }
    var all: Set<pid_t> { lock.withLock { pids } }

    /// Kills every live child's process group.
    func killAll() {
        for pid in all { _ = kill(-pid, SIGKILL) }
    }

    /// The environment variable that tags each child (see `ChildProcess.tag`).
    static let tagVariable = "ROBOTCI_PROCESS_TAG"
    private var spawned = 0

    func newTag() -> String {
        lock.withLock {
            spawned += 1
            return "\(getpid())-\(spawned)"
        }
    }

    /// Kills and reaps processes that were re-parented to robotci (it is a child subreaper on
    /// Linux) after escaping a test's process group (setsid, a daemonising `run:` command):
    /// with `tag`, only those that carry `ROBOTCI_PROCESS_TAG=tag` (the orphans of one finished
    /// batch, while other shards' batches and their daemons still run); without, every orphan
    /// (when no batch runs any more). Only descendants of what robotci started can be
    /// re-parented to it, so neither touches a process robotci did not start.
    func reapStrays(tag: String? = nil) {
        #if os(Linux)
        let entry = tag.map { Array("\(Self.tagVariable)=\($0)".utf8) }
        lock.withLock {
            let me = getpid()
            guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return }
            for name in entries {
                guard let pid = pid_t(name), !pids.contains(pid), Self.parent(of: pid) == me else { continue }
                if let entry, !Self.environment(of: pid).contains(entry) { continue }
                _ = kill(pid, SIGKILL)
                var status: Int32 = 0
                _ = waitpid(pid, &status, 0)
            }
        }
        #endif
    }

    /// The parent pid from `/proc/PID/stat` (after the command name, which may hold spaces).
    static func parent(of pid: pid_t) -> pid_t? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        return fields.count > 2 ? pid_t(fields[1]) : nil
    }

    /// The `NAME=value` entries of a process's environment, as bytes (empty if unreadable).
    static func environment(of pid: pid_t) -> [[UInt8]] {
        // procfs reports size 0: read to the end rather than by size.
        guard let data = FileHandle(forReadingAtPath: "/proc/\(pid)/environ")?.readDataToEndOfFile() else { return [] }
        return data.split(separator: 0).map(Array.init)
    }

    /// Makes robotci inherit its descendants' orphans (Linux), so none can outlive it unseen.
    static func becomeSubreaper() {
        _ = robotci_become_subreaper()
    }
}

private func withCStrings<R>(_ strings: [String], _ body: (UnsafePointer<UnsafeMutablePointer<CChar>?>) -> R) -> R {
    var pointers: [UnsafeMutablePointer<CChar>?] = strings.map { strdup($0) }
    pointers.append(nil)
    defer { for p in pointers { free(p) } }
    return pointers.withUnsafeBufferPointer { buf in
        // posix_spawn takes `char *const argv[]`.
        body(buf.baseAddress!)
    }
}

/// Runs a short command to completion, capturing its merged output (builds, discovery, git).
func runCaptured(_ executable: String, _ arguments: [String], environment: [String: String] = ProcessInfo.processInfo.environment, workingDirectory: String? = nil, echo: ((String) -> Void)? = nil) throws -> (ChildProcess.Termination, String) {
    let child = try ChildProcess(executable: executable, arguments: arguments, environment: environment, workingDirectory: workingDirectory)
    var data = Data()
    var buffer = [UInt8](repeating: 0, count: 65536)
    var pendingLine = Data()
    while true {
        let n = read(child.outputFD, &buffer, buffer.count)
        if n < 0 && errno == EINTR { continue }
        if n <= 0 { break }
        data.append(contentsOf: buffer[0..<n])
        if let echo {
            pendingLine.append(contentsOf: buffer[0..<n])
            while let nl = pendingLine.firstIndex(of: 10) {
                echo(String(decoding: pendingLine[pendingLine.startIndex..<nl], as: UTF8.self))
                pendingLine.removeSubrange(pendingLine.startIndex...nl)
            }
        }
    }
    if let echo, !pendingLine.isEmpty { echo(String(decoding: pendingLine, as: UTF8.self)) }
    let termination = child.wait()
    return (termination, String(decoding: data, as: UTF8.self))
}

/// Finds an executable on PATH.
func which(_ name: String) -> String? {
    if name.contains("/") { return name }
    for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
        let path = "\(dir)/\(name)"
        if access(path, X_OK) == 0 { return path }
    }
    return nil
}
