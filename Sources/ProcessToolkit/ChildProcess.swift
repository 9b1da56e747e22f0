import CProcessSupport
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A child process started with `posix_spawn`: the one spawn of the code, for the runner's test
/// batches, builds and shard chromedrivers, RobotKit's chromedriver and the tests' helpers.
///
/// Foundation's `Process` cannot put a child in a new process group or give it a parent-death
/// signal, and robotci must kill a test's whole tree (browsers included) on a timeout and must
/// leave nothing behind when it is itself killed, so this spawns directly. Every child gets
/// `/dev/null` as stdin, default signal dispositions and an empty signal mask (robotci ignores
/// SIGINT itself), and no descriptor of the parent but the ones it is given: an inherited
/// listening socket (SwiftNIO's are not close-on-exec) would keep a mock server's port bound
/// after the server stops, and an inherited pipe end would delay the EOF that ends a batch.
public final class ChildProcess: Sendable {
    /// How a child is started.
    public struct Options: Sendable {
        /// Where the child's stdout and stderr (merged) go.
        public enum Output: Sendable {
            /// A pipe whose read end is `outputFD`.
            case pipe
            /// Appended to a file (for long-lived helpers nobody reads, such as a chromedriver);
            /// `outputFD` is then -1.
            case file(String)
        }

        /// Which process group the child joins.
        public enum Group: Sendable {
            /// A new group the child leads: `killGroup` ends its whole tree, `ChildRegistry`
            /// lists it (an interrupt kills it), and it is tagged (`ChildProcess.tag`) so the
            /// stray reaper can tell its orphans from another shard's.
            case own
            /// The caller's group and tag: the child dies with whatever kills the caller's group
            /// (RobotKit's chromedriver inside a test process that robotci started and tagged).
            case caller
        }

        public var output: Output
        public var group: Group
        public var workingDirectory: String?
        /// A second pipe that is the child's fd 3 (`/dev/fd/3`), read end `eventFD`: a channel
        /// for machine-readable results that the child's own output cannot write into by accident.
        public var eventChannel: Bool
        /// `setpriv --pdeathsig KILL` (Linux, util-linux) in front of the program: the child gets
        /// SIGKILL when the *thread* that spawned it ends, so it cannot run on unwatched after its
        /// parent dies (SIGKILL, the OOM killer). Spawn from a thread that outlives the child: the
        /// main thread, a thread that waits for the child, or `SpawnThread`. setpriv execs the
        /// program, so the pid and process group are the child's own.
        public var parentDeathSignal: Bool
        /// Run the child inside this network namespace (through `nsenter`); nil: this process's.
        public var networkNamespace: NetworkNamespace?
        /// Descriptors of this process the child gets, by the number it sees them as (above
        /// the event channel's 3 when there is one): Chromium's DevTools pipe is its fds 3 and 4.
        /// The parent's numbers must be above every child number here (dup them up first).
        public var descriptors: [Int32: Int32] = [:]

        public init(output: Output = .pipe, group: Group = .own, workingDirectory: String? = nil,
                    eventChannel: Bool = false, parentDeathSignal: Bool = true, networkNamespace: NetworkNamespace? = nil) {
            self.output = output
            self.group = group
            self.workingDirectory = workingDirectory
            self.eventChannel = eventChannel
            self.parentDeathSignal = parentDeathSignal
            self.networkNamespace = networkNamespace
        }
    }

    /// How a child ended.
    public enum Termination: Equatable, Sendable, CustomStringConvertible {
        case exited(Int32)
        case signaled(Int32)

        public var description: String {
            switch self {
            case .exited(let code): return "exit \(code)"
            case .signaled(let sig): return "signal \(sig)"
            }
        }
    }

    public let pid: pid_t
    /// With `Group.own`: `ROBOTCI_PROCESS_TAG=<parent pid>-<n>`, set in the child's environment
    /// and inherited by whatever it starts, how the stray reaper tells this child's orphans from
    /// another's (an exact environment entry, never a substring of a command line); nil otherwise.
    public let tag: String?
    /// Read end of the child's merged stdout/stderr with `Output.pipe`; -1 otherwise.
    public let outputFD: Int32
    /// Read end of the event channel (`Options.eventChannel`); -1 otherwise.
    public let eventFD: Int32
    public let options: Options
    private let termination = Locked<Termination?>(nil)

    /// Spawns `executable` with `arguments` (not including argv[0]) and `environment`
    /// (nil: this process's own).
    public init(executable: String, arguments: [String], environment: [String: String]? = nil,
                options: Options = Options()) throws(SpawnError) {
        var executable = executable, arguments = arguments
        if let namespace = options.networkNamespace {
            // nsenter would report a bad path as its own exit status: keep the spawn error.
            guard access(executable, X_OK) == 0 else {
                throw SpawnError(executable: executable, reason: String(cString: strerror(errno)))
            }
            (executable, arguments) = namespace.entering(executable, arguments, parentDeathSignal: options.parentDeathSignal)
        }
        let registry = ChildRegistry.shared
        let (output, events) = try Self.makePipes(for: executable, eventChannel: options.eventChannel)

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        Self.describeDescriptors(&actions, options, output: output.write, events: events.write)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        Self.describeAttributes(&attributes, options)

        let (program, argv) = options.parentDeathSignal
            ? Self.withParentDeathSignal(executable, arguments) : (executable, [executable] + arguments)
        var environment = environment ?? ProcessInfo.processInfo.environment
        var tag: String?
        if case .own = options.group {
            tag = registry.newTag()
            environment[ChildRegistry.tagVariable] = tag
        }
        let envp = environment.map { "\($0.key)=\($0.value)" }
        var childPID: pid_t = 0
        // Spawned under the registry's lock, so the stray reaper never mistakes a child that is
        // being born for an orphan, and no sibling spawn inherits this one's pipe ends.
        let rc = registry.withLock { pids in
            let rc = withCStrings(argv) { cArgv in
                withCStrings(envp) { cEnv in
                    posix_spawn(&childPID, program, &actions, &attributes, cArgv, cEnv)
                }
            }
            if rc == 0, case .own = options.group { pids.insert(childPID) }
            return rc
        }
        close(output.write)
        if events.write >= 0 { close(events.write) }
        let piped: Bool
        if case .pipe = options.output { piped = true } else { piped = false }
        if !piped || rc != 0 { close(output.read) }
        guard rc == 0 else {
            if events.read >= 0 { close(events.read) }
            throw SpawnError(executable: executable, reason: String(cString: strerror(rc)))
        }
        pid = childPID
        self.tag = tag
        self.options = options
        outputFD = piped ? output.read : -1
        eventFD = events.read
    }

    /// The output pipe, and the event channel's when `eventChannel` (else both ends -1); nothing
    /// is left open when either cannot be made.
    private static func makePipes(for executable: String, eventChannel: Bool) throws(SpawnError)
        -> (output: (read: Int32, write: Int32), events: (read: Int32, write: Int32))
    {
        let output = try ChildRegistry.shared.makePipe(for: executable)
        guard eventChannel else { return (output, (-1, -1)) }
        do {
            return (output, try ChildRegistry.shared.makePipe(for: executable))
        } catch {
            close(output.read)
            close(output.write)
            throw error
        }
    }

    /// The child's descriptors: stdin /dev/null, stdout and stderr to the output, fd 3 the event
    /// channel, nothing else of the parent's.
    private static func describeDescriptors(_ actions: inout posix_spawn_file_actions_t, _ options: Options,
                                            output: Int32, events: Int32) {
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        switch options.output {
        case .file(let path):
            posix_spawn_file_actions_addopen(&actions, 1, path, O_WRONLY | O_CREAT | O_APPEND, 0o644)
            posix_spawn_file_actions_adddup2(&actions, 1, 2)
        case .pipe:
            posix_spawn_file_actions_adddup2(&actions, output, 1)
            posix_spawn_file_actions_adddup2(&actions, output, 2)
        }
        if options.eventChannel {
            // dup2 clears close-on-exec on fd 3 only.
            posix_spawn_file_actions_adddup2(&actions, events, 3)
        }
        for (child, parent) in options.descriptors.sorted(by: { $0.key < $1.key }) {
            posix_spawn_file_actions_adddup2(&actions, parent, child)
        }
        // Every descriptor above the child's own is closed (glibc 2.34+; elsewhere the pipes'
        // close-on-exec flags, set under the registry's lock, hold).
        let highest = max(options.eventChannel ? 3 : 2, options.descriptors.keys.max() ?? 0)
        _ = robotci_spawn_addclosefrom(&actions, highest + 1)
        if let directory = options.workingDirectory {
            _ = robotci_spawn_addchdir(&actions, directory)
        }
    }

    /// Default signal dispositions, an empty mask and, with `Group.own`, a new process group.
    private static func describeAttributes(_ attributes: inout posix_spawnattr_t, _ options: Options) {
        var defaults = sigset_t()
        sigfillset(&defaults)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var emptyMask = sigset_t()
        sigemptyset(&emptyMask)
        posix_spawnattr_setsigmask(&attributes, &emptyMask)
        var flags = POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK
        if case .own = options.group {
            posix_spawnattr_setpgroup(&attributes, 0)
            flags |= POSIX_SPAWN_SETPGROUP
        }
        posix_spawnattr_setflags(&attributes, Int16(flags))
    }

    /// `setpriv --pdeathsig KILL -- executable arguments…` when setpriv is installed and
    /// `executable` can be run (so a bad path's spawn error stays the plain one); else unchanged.
    static func withParentDeathSignal(_ executable: String, _ arguments: [String]) -> (String, [String]) {
        guard let setpriv = setpriv, access(executable, X_OK) == 0 else { return (executable, [executable] + arguments) }
        return (setpriv, [setpriv, "--pdeathsig", "KILL", "--", executable] + arguments)
    }

    /// util-linux `setpriv` (Linux), which gives a child a parent-death signal; nil when absent
    /// (then nothing but an `atexit` or signal handler of the parent stops its children).
    public static let setpriv: String? = {
        #if os(Linux)
        return ["/usr/bin/setpriv", "/bin/setpriv"].first { access($0, X_OK) == 0 } ?? Executables.find("setpriv")
        #else
        return nil
        #endif
    }()

    /// Sends `signal` to the child's whole process group (`Group.own`) or to the child alone
    /// (`Group.caller`: its group is the caller's). Nothing once the child has been reaped: its
    /// pid may belong to another process by then.
    public func killGroup(_ signal: Int32 = SIGKILL) {
        termination.withLock { ended in
            guard ended == nil else { return }
            if case .own = options.group { _ = kill(-pid, signal) } else { _ = kill(pid, signal) }
        }
    }

    /// Waits for the child to exit and returns how it ended; with `Group.own`, also kills
    /// whatever the child left behind in its process group (a browser, a server).
    public func wait() -> Termination {
        if let done = termination.current { return done }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return finish(status)
    }

    /// How the child ended if it has, without blocking.
    public func tryWait() -> Termination? {
        if let done = termination.current { return done }
        var status: Int32 = 0
        guard waitpid(pid, &status, WNOHANG) == pid else { return nil }
        return finish(status)
    }

    /// True until the child has exited (reaping it when it has).
    public var isRunning: Bool { tryWait() == nil }

    private func finish(_ status: Int32) -> Termination {
        termination.withLock { ended in
            if let ended { return ended }
            if case .own = options.group {
                _ = kill(-pid, SIGKILL)
                ChildRegistry.shared.remove(pid)
            }
            let low = status & 0x7f
            let result: Termination = low == 0 ? .exited((status >> 8) & 0xff) : .signaled(low)
            ended = result
            return result
        }
    }

    deinit {
        if outputFD >= 0 { close(outputFD) }
        if eventFD >= 0 { close(eventFD) }
    }
}

/// A child could not be started: `executable` and the system's reason.
public struct SpawnError: Error, Equatable, CustomStringConvertible {
    public var executable: String
    public var reason: String

    public init(executable: String, reason: String) {
        self.executable = executable
        self.reason = reason
    }

    public var description: String { "cannot start \(executable): \(reason)" }
}

private func withCStrings<R>(_ strings: [String], _ body: (UnsafePointer<UnsafeMutablePointer<CChar>?>) -> R) -> R {
    var pointers: [UnsafeMutablePointer<CChar>?] = strings.map { strdup($0) }
    pointers.append(nil)
    defer { for p in pointers { free(p) } }
    // posix_spawn takes `char *const argv[]`.
    return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
}
