import CProcessSupport
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The process groups this process has alive (children spawned with `Group.own`), so an
/// interrupt can kill them all, and the lock every spawn takes.
///
/// Process-wide by nature, so `shared` is one of the project's two singletons (with
/// `SpawnThread`): descriptors leak into any child spawned at the same moment from anywhere
/// in the process, so one lock must cover every spawn, and the orphans a subreaper inherits
/// belong to the process, not to a run.
public final class ChildRegistry: Sendable {
    public static let shared = ChildRegistry()

    private struct State {
        var pids: Set<pid_t> = []
        var spawned = 0
    }

    private let state = Locked(State())

    /// The environment variable that tags each child (see `ChildProcess.tag`).
    public static let tagVariable = "ROBOTCI_PROCESS_TAG"

    func withLock<R>(_ body: (inout Set<pid_t>) -> R) -> R { state.withLock { body(&$0.pids) } }
    func remove(_ pid: pid_t) { state.withLock { _ = $0.pids.remove(pid) } }
    public var all: Set<pid_t> { state.withLock { $0.pids } }

    func newTag() -> String {
        state.withLock {
            $0.spawned += 1
            return "\(getpid())-\($0.spawned)"
        }
    }

    /// A pipe with both ends close-on-exec, made under the lock every spawn takes: an end
    /// leaked into a sibling's child would hold the pipe open, and the EOF that ends a batch
    /// would wait for that other process to exit.
    func makePipe(for executable: String) throws(SpawnError) -> (read: Int32, write: Int32) {
        var fds: [Int32] = [0, 0]
        let rc = state.withLock { _ -> Int32 in
            guard pipe(&fds) == 0 else { return errno }
            _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
            _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
            return 0
        }
        guard rc == 0 else { throw SpawnError(executable: executable, reason: String(cString: strerror(rc))) }
        return (fds[0], fds[1])
    }

    /// Kills every live child's process group.
    public func killAll() {
        for pid in all { _ = kill(-pid, SIGKILL) }
    }

    /// Kills and reaps processes that were re-parented to this process (a child subreaper on
    /// Linux, see `becomeSubreaper`) after escaping a child's process group (setsid, a
    /// daemonising `run:` command): with `tag`, only those that carry `ROBOTCI_PROCESS_TAG=tag`
    /// (the orphans of one finished batch, while other shards' batches and their daemons still
    /// run); without, every orphan (when no batch runs any more). Only descendants of what this
    /// process started can be re-parented to it, so neither touches a process it did not start.
    public func reapStrays(tag: String? = nil) {
        #if os(Linux)
        let entry = tag.map { Array("\(Self.tagVariable)=\($0)".utf8) }
        state.withLock { state in
            let me = getpid()
            for pid in ProcessTable.pids() {
                guard !state.pids.contains(pid), ProcessTable.parent(of: pid) == me else { continue }
                if let entry, !ProcessTable.environment(of: pid).contains(entry) { continue }
                _ = kill(pid, SIGKILL)
                var status: Int32 = 0
                _ = waitpid(pid, &status, 0)
            }
        }
        #endif
    }

    /// Makes this process inherit its descendants' orphans (Linux), so none can outlive it unseen.
    public static func becomeSubreaper() {
        _ = robotci_become_subreaper()
    }
}
