import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What one process and everything it started use of the CPU, read from `ProcessTable` each
/// time it is asked: the CPU-seconds the tree used, and how long its processes' main threads
/// ran and waited in a run queue. The concurrency governor tells from it whether the CPU
/// pressure it sees is its own tests' or other processes'.
///
/// Every count is cumulative, so two readings give a window. The CPU time comes from
/// `/proc/PID/stat` and counts a process that ended within a window too: its parent's
/// reaped-children time takes it over (a Chromium renderer lives for one test, a fraction of
/// a second). The run and wait times come from `/proc/PID/schedstat`, the main thread only
/// (reading every thread of every browser would cost more than it tells): the test's own
/// thread in a test process, and what a process ended with since the last reading is lost.
public struct ProcessTreeLoad: Sendable {
    /// Cumulative counts since the tree was first read.
    public struct Reading: Equatable, Sendable {
        /// CPU-seconds of the whole tree, the root included.
        public var cpu: Double
        /// Seconds the descendants' main threads ran on a CPU.
        public var ran: Double
        /// Seconds they waited for one.
        public var waited: Double

        public init(cpu: Double, ran: Double, waited: Double) {
            self.cpu = cpu
            self.ran = ran
            self.waited = waited
        }
    }

    public let root: pid_t
    /// The root's descendants alive at the last reading, with their main thread's last
    /// scheduler times (nil until read).
    private var members: [pid_t: (running: UInt64, waiting: UInt64)?] = [:]
    /// Processes seen before that are not the root's: their stat is not read again.
    private var others: Set<pid_t> = []
    private var ran: UInt64 = 0
    private var waited: UInt64 = 0

    public init(root: pid_t = getpid()) {
        self.root = root
    }

    /// The counts now (nil where there is no procfs, or the root is gone).
    public mutating func read() -> Reading? {
        let alive = Set(ProcessTable.pids())
        guard alive.contains(root), let rootTime = ProcessTable.cpuTime(of: root) else { return nil }
        members = members.filter { alive.contains($0.key) }
        others.formIntersection(alive)
        adopt(alive.subtracting(members.keys).subtracting(others).subtracting([root]))
        var cpu = rootTime.own + rootTime.reaped
        for (pid, last) in members {
            guard let now = ProcessTable.cpuTime(of: pid) else { continue }
            cpu += now.own + now.reaped
            guard let scheduler = ProcessTable.schedulerTime(of: pid) else { continue }
            // A process first seen now is counted from its start: it began since the last reading.
            let before = last ?? (0, 0)
            ran += scheduler.running &- min(before.running, scheduler.running)
            waited += scheduler.waiting &- min(before.waiting, scheduler.waiting)
            members[pid] = scheduler
        }
        return Reading(cpu: Double(cpu) / ProcessTable.ticksPerSecond, ran: Double(ran) / 1e9, waited: Double(waited) / 1e9)
    }

    /// Sorts processes not seen before into the tree's (whose parent is the root or one of its
    /// own, found again until nothing changes: a new child of a new child) and the others.
    private mutating func adopt(_ new: Set<pid_t>) {
        var parents: [pid_t: pid_t] = [:]
        for pid in new {
            if let parent = ProcessTable.parent(of: pid) { parents[pid] = parent }
        }
        var found = true
        while found {
            found = false
            for (pid, parent) in parents where parent == root || members[parent] != nil {
                members[pid] = .some(nil)
                parents[pid] = nil
                found = true
            }
        }
        others.formUnion(parents.keys)
    }
}
