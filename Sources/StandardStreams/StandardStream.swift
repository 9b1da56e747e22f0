#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Standard output or standard error, written with `write(2)`.
///
/// Foundation's `FileHandle.write(_:)` traps on any write error: a console redirected to a
/// full disk (ENOSPC), a closed pipe with SIGPIPE ignored (EPIPE). A test runner must not die
/// of its own log line and lose the report it was about to write, so every line robotci,
/// RobotKit and MockServer print outside `print` goes through here: a failed write is
/// dropped, the program goes on.
public enum StandardStream {
    case output
    case error

    private var descriptor: Int32 {
        switch self {
        case .output: return 1
        case .error: return 2
        }
    }

    /// Writes `text` whole (short writes and EINTR are retried); stops at the first error.
    public func write(_ text: String) {
        var text = text
        text.withUTF8 { _ = Self.writeAll(UnsafeRawBufferPointer($0), to: descriptor) }
    }

    /// Writes `bytes` whole to `fd`, retrying short writes and EINTR; false at the first error
    /// (what was written before it stays written). The one write loop of robotci's own files
    /// and streams (the journal uses it too).
    public static func writeAll(_ bytes: UnsafeRawBufferPointer, to fd: Int32) -> Bool {
        guard var base = bytes.baseAddress else { return true }
        var left = bytes.count
        while left > 0 {
            let n = systemWrite(fd, base, left)
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return false }
            base += n
            left -= n
        }
        return true
    }

    private static func systemWrite(_ fd: Int32, _ base: UnsafeRawPointer, _ count: Int) -> Int {
        #if canImport(Glibc)
        return Glibc.write(fd, base, count)
        #else
        return Darwin.write(fd, base, count)
        #endif
    }
}
