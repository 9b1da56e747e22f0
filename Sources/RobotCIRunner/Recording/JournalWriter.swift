import Foundation
import ProcessToolkit
import RobotCICore
import StandardStreams
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Appends journal entries to `results.jsonl`, one line each, straight to the file (one
/// `write` per entry, no stdio buffer), not fsynced.
final class JournalWriter: Sendable {
    /// The file and what waits to be written to it. Its writes (and the warnings about them)
    /// are made with the lock held, so entries reach the file in the order they were appended.
    private struct File {
        var fd: Int32
        let path: String
        var warned = false
        var recovered = false
        /// A write failed part-way (disk full): the file may end in a torn line, so the next
        /// entry starts with a newline of its own and the torn line stays one corrupt line,
        /// which the reader skips.
        var torn = false
        /// Entries that could not be written (disk full), oldest first: written before the next
        /// entry once space is back, so the journal still gets every attempt, in order.
        var backlog: [Data] = []
        var backlogBytes = 0
        var dropped = 0

        /// Writes what waits, oldest first, until a write fails.
        mutating func flushBacklog() {
            if torn {
                guard writeAll(Data([10])) else { return warn() }
                torn = false
            }
            while let next = backlog.first {
                guard writeAll(next) else {
                    torn = true
                    return warn()
                }
                backlog.removeFirst()
                backlogBytes -= next.count
            }
            if warned && !recovered {
                recovered = true
                StandardStream.error.write("robotci: results.jsonl is being written again"
                    + (dropped > 0 ? " (\(dropped) entries were dropped while the disk was full)" : ", nothing lost") + "\n")
            }
        }

        func writeAll(_ data: Data) -> Bool {
            data.withUnsafeBytes { StandardStream.writeAll($0, to: fd) }
        }

        /// Disk full or the like: said once; the report at the end still has every result, and
        /// entries written after space comes back are kept.
        mutating func warn() {
            guard !warned else { return }
            warned = true
            StandardStream.error.write("robotci: warning: cannot append to \(path): \(String(cString: strerror(errno))); "
                + "entries wait in memory and are written when space is back (the report written at the end gets every result)\n")
        }
    }

    private let file: Locked<File>
    private let encoder: JSONEncoder = {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return e
    }()

    /// At most this much waits in memory; beyond it the oldest entries are dropped (counted).
    static let backlogLimit = 64 << 20

    init(url: URL) throws {
        // Close-on-exec: not inherited by worker processes.
        let fd = open(url.path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw RunnerError.report("cannot write \(url.path): \(String(cString: strerror(errno)))")
        }
        file = Locked(File(fd: fd, path: url.path))
    }

    func append(_ entry: JournalEntry) {
        guard var data = try? encoder.encode(entry) else { return }
        data.append(10)
        file.withLock { f in
            guard f.fd >= 0 else { return }
            f.backlog.append(data)
            f.backlogBytes += data.count
            f.flushBacklog()
            while f.backlogBytes > Self.backlogLimit, let oldest = f.backlog.first {
                f.backlog.removeFirst()
                f.backlogBytes -= oldest.count
                f.dropped += 1
            }
        }
    }

    func close() {
        file.withLock { f in
            if f.fd >= 0 { f.flushBacklog() }
            #if canImport(Glibc)
            if f.fd >= 0 { _ = Glibc.close(f.fd) }
            #else
            if f.fd >= 0 { _ = Darwin.close(f.fd) }
            #endif
            f.fd = -1
        }
    }
}
