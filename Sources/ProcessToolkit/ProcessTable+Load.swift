import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What `/proc` says about the CPU: the machine's pressure and busy time, and one process's
/// CPU time and run-queue wait. Read here so the concurrency governor has no procfs reader of
/// its own.
extension ProcessTable {
    /// Clock ticks per second, the unit of `/proc/PID/stat`'s CPU times.
    public static let ticksPerSecond: Double = {
        let ticks = sysconf(Int32(_SC_CLK_TCK))
        return ticks > 0 ? Double(ticks) : 100
    }()

    /// The CPU time a process has used, from `/proc/PID/stat`, in clock ticks.
    public struct CPUTime: Equatable, Sendable {
        /// Its own threads (utime + stime).
        public var own: UInt64
        /// Its children that ended and were waited for, with their own reaped children
        /// (cutime + cstime): what a short-lived process used lands here when it is reaped.
        public var reaped: UInt64

        public init(own: UInt64, reaped: UInt64) {
            self.own = own
            self.reaped = reaped
        }
    }

    /// `pid`'s CPU times (nil if it is gone or unreadable).
    public static func cpuTime(of pid: pid_t) -> CPUTime? {
        // After the command name: state, ppid, …; utime, stime, cutime, cstime are fields 14–17.
        guard let fields = stat(of: pid), fields.count > 14 else { return nil }
        let times = fields[11...14].map { UInt64($0) ?? 0 }
        return CPUTime(own: times[0] + times[1], reaped: times[2] + times[3])
    }

    /// The main thread's time on a CPU and time waiting in a run queue for one, in
    /// nanoseconds (`/proc/PID/schedstat`; nil without schedstats or once it is gone).
    public static func schedulerTime(of pid: pid_t) -> (running: UInt64, waiting: UInt64)? {
        guard let data = contents(of: "/proc/\(pid)/schedstat") else { return nil }
        let fields = String(decoding: data, as: UTF8.self).split(separator: " ")
        guard fields.count >= 2, let running = UInt64(fields[0]),
              let waiting = UInt64(fields[1].trimmingCharacters(in: .whitespacesAndNewlines)) else { return nil }
        return (running, waiting)
    }

    /// PSI's cumulative `some` stall of the CPU (µs): time in which a runnable task waited
    /// for one. Nil without PSI, or with PSI present but disabled (`psi=0`: reading fails).
    public static func cpuStall() -> UInt64? {
        guard let data = contents(of: "/proc/pressure/cpu") else { return nil }
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n") where line.hasPrefix("some ") {
            for field in line.split(separator: " ") where field.hasPrefix("total=") {
                return UInt64(field.dropFirst("total=".count))
            }
        }
        return nil
    }

    /// The kernel's count of runnable tasks now (field 4 of `/proc/loadavg`, this reader included).
    public static func runnableTasks() -> Int? {
        guard let data = contents(of: "/proc/loadavg") else { return nil }
        let fields = String(decoding: data, as: UTF8.self).split(separator: " ")
        guard fields.count >= 4, let slash = fields[3].firstIndex(of: "/") else { return nil }
        return Int(fields[3][..<slash])
    }

    /// Busy and total jiffies of all CPUs since boot (busy = all − idle − iowait).
    public static func cpuJiffies() -> (busy: UInt64, all: UInt64)? {
        guard let data = contents(of: "/proc/stat"), case let text = String(decoding: data, as: UTF8.self),
              let line = text.split(separator: "\n").first, line.hasPrefix("cpu ") else { return nil }
        let values = line.split(separator: " ").dropFirst().prefix(8).compactMap { UInt64($0) }
        guard values.count >= 5 else { return nil }
        let all = values.reduce(0, +)
        return (all - values[3] - values[4], all)
    }
}
