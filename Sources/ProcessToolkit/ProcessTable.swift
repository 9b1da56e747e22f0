import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What `/proc` says about other processes and the CPU (Linux): the one reader of `stat`,
/// `environ` and `cmdline` for the stray reaper, RobotKit's clean-up and its liveness checks,
/// and of `schedstat`, PSI and the CPU counters for the concurrency governor
/// (`ProcessTable+Load.swift`, `ProcessTreeLoad`).
public enum ProcessTable {
    /// The pids in `/proc` now (empty where there is no procfs).
    public static func pids() -> [pid_t] {
        ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap { pid_t($0) }
    }

    /// The fields of `/proc/PID/stat` after the command name (which may hold spaces and
    /// parentheses): state first, then the parent pid.
    static func stat(of pid: pid_t) -> [Substring]? {
        guard let data = contents(of: "/proc/\(pid)/stat"), case let text = String(decoding: data, as: UTF8.self),
              let close = text.lastIndex(of: ")") else { return nil }
        return text[text.index(after: close)...].split(separator: " ")
    }

    /// The parent pid.
    public static func parent(of pid: pid_t) -> pid_t? {
        guard let fields = stat(of: pid), fields.count > 2 else { return nil }
        return pid_t(fields[1])
    }

    /// True while `pid` runs: it exists (or belongs to another user) and is not a zombie waiting
    /// to be reaped (a killed chromedriver stays one until robotci reaps it between batches).
    public static func isRunning(_ pid: pid_t) -> Bool {
        guard pid > 0, kill(pid, 0) == 0 || errno == EPERM else { return false }
        #if os(Linux)
        guard let state = stat(of: pid)?.first else { return true }
        return state != "Z" && state != "X"
        #else
        return true
        #endif
    }

    /// The `NAME=value` entries of a process's environment, as bytes (empty if unreadable).
    public static func environment(of pid: pid_t) -> [[UInt8]] { nulSeparated("/proc/\(pid)/environ") }

    /// A process's arguments, argv[0] first (empty if unreadable or a kernel thread).
    public static func commandLine(of pid: pid_t) -> [String] {
        nulSeparated("/proc/\(pid)/cmdline").map { String(decoding: $0, as: UTF8.self) }
    }

    /// At most this much of one file is read (a socket table of a very busy machine is a few
    /// megabytes; nothing procfs holds for robotci comes near it).
    public static let readLimit = 64 << 20

    /// A procfs file's whole contents (up to `readLimit`), or nil if it cannot be opened or a
    /// read fails. procfs reports size 0 and Foundation's `Data(contentsOf:)`,
    /// `String(contentsOfFile:)` and `FileManager.contents` then stop after one page (about
    /// 4 KB): a busy socket table, a long environment or Chromium's command line would be cut
    /// short. Foundation's `FileHandle.readDataToEndOfFile()` reads to the end but traps on a
    /// read error, and `/proc/PID/stat` fails with ESRCH when the process exits between the
    /// open and the read. Plain `read(2)` does neither.
    public static func contents(of path: String) -> Data? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var data = Data()
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        while data.count < readLimit {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, min($0.count, readLimit - data.count)) }
            if n < 0 && errno == EINTR { continue }
            if n < 0 { return nil }
            if n == 0 { break }
            data.append(contentsOf: chunk[0..<n])
        }
        return data
    }

    private static func nulSeparated(_ path: String) -> [[UInt8]] {
        guard let data = contents(of: path) else { return [] }
        return data.split(separator: 0).map(Array.init)
    }
}
