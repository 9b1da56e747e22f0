import Foundation
import RobotCICore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Appends journal entries to `results.jsonl`, one line each, flushed but not fsynced.
final class JournalWriter: @unchecked Sendable {
    private let lock = NSLock()
    private var file: UnsafeMutablePointer<FILE>?
    private let encoder: JSONEncoder = {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return e
    }()

    #if os(Linux)
    private static let appendMode = "ae"  // close-on-exec: not inherited by worker processes
    #else
    private static let appendMode = "a"
    #endif

    private let path: String
    private var warned = false

    init(url: URL) throws {
        path = url.path
        guard let f = fopen(url.path, Self.appendMode) else {
            throw RunnerError.report("cannot write \(url.path): \(String(cString: strerror(errno)))")
        }
        file = f
    }

    func append(_ entry: JournalEntry) {
        guard let data = try? encoder.encode(entry) else { return }
        lock.withLock {
            guard let file else { return }
            let written = data.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
            let ok = written == data.count && fputc(10, file) != EOF && fflush(file) == 0
            if !ok && !warned {
                // Disk full or the like: say so once; the report at the end still has every result.
                warned = true
                FileHandle.standardError.write(Data(("robotci: warning: cannot append to \(path): \(String(cString: strerror(errno))); "
                    + "results.jsonl is incomplete from here on (the report written at the end still gets every result)\n").utf8))
            }
        }
    }

    func close() {
        lock.withLock {
            if let file { fclose(file) }
            file = nil
        }
    }
}
