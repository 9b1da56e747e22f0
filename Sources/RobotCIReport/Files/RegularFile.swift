import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads files robotci does not control (JUnit from any runner, a test's artifacts) without
/// being stalled or flooded by them: only regular files, opened non-blocking (a FIFO would
/// block `open` and `read` until a writer comes), and never more than a limit.
public enum RegularFile {
    /// Largest JUnit file read (a 10,000-test run with output is well under it).
    public static let junitLimit = 256 << 20
    /// Largest `results.json` or `results.jsonl` read (robotci's own, from any machine).
    public static let resultsLimit = 256 << 20
    /// Largest `timings.json` or `history.json` read (10,000 tests × 30 runs is a few MB).
    public static let historyLimit = 64 << 20

    /// What a path is, without following a symbolic link.
    public enum Kind: Equatable, Sendable {
        case regular(size: Int)
        case directory
        case missing
        case symbolicLink
        /// FIFO, socket or device: a word for messages.
        case special(String)

        /// What it is, for a message ("a FIFO", "a symbolic link").
        public var noun: String {
            switch self {
            case .regular: return "a regular file"
            case .directory: return "a folder"
            case .missing: return "missing"
            case .symbolicLink: return "a symbolic link"
            case .special(let word): return word
            }
        }
    }

    public static func kind(ofItemAt path: String) -> Kind {
        var st = stat()
        guard lstat(path, &st) == 0 else { return .missing }
        switch st.st_mode & S_IFMT {
        case S_IFREG: return .regular(size: Int(st.st_size))
        case S_IFDIR: return .directory
        case S_IFIFO: return .special("a FIFO")
        case S_IFSOCK: return .special("a socket")
        case S_IFLNK: return .symbolicLink
        case S_IFCHR, S_IFBLK: return .special("a device")
        default: return .special("a special file")
        }
    }

    /// The whole file, or an error naming it: not a regular file, or over `limit` bytes.
    public static func read(_ path: String, limit: Int, what: String = "file") throws -> Data {
        try withOpenFile(path, what: what) { fd, size in
            guard size <= limit else {
                throw RegularFileError("\(path): the \(what) is \(size) bytes, more than robotci reads (\(limit) bytes); "
                                       + "is it the right file? split it, or leave out large captured output")
            }
            return try readUp(to: size, from: fd, path: path, what: what)
        }
    }

    /// The first `maxBytes` bytes of a regular file and its whole size.
    public static func readPrefix(_ path: String, maxBytes: Int, what: String = "file") throws -> (data: Data, size: Int) {
        try withOpenFile(path, what: what) { fd, size in
            (try readUp(to: min(size, max(0, maxBytes)), from: fd, path: path, what: what), size)
        }
    }

    /// Opens `path` for reading and hands over its descriptor and size, if it is a regular file.
    private static func withOpenFile<R>(_ path: String, what: String, _ body: (Int32, Int) throws -> R) throws -> R {
        // O_NONBLOCK: opening a FIFO must not wait for a writer; the type is checked on the
        // descriptor itself, so a file swapped after a check is still refused.
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw RegularFileError("\(path): cannot read the \(what): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw RegularFileError("\(path): cannot read the \(what): \(String(cString: strerror(errno)))") }
        guard st.st_mode & S_IFMT == S_IFREG else {
            throw RegularFileError("\(path): the \(what) is not a regular file (a FIFO, device, socket or folder); write a plain file there")
        }
        return try body(fd, Int(st.st_size))
    }

    private static func readUp(to count: Int, from fd: Int32, path: String, what: String) throws -> Data {
        var data = Data(count: count)
        var filled = 0
        let failed = data.withUnsafeMutableBytes { (raw: UnsafeMutableRawBufferPointer) -> Int32? in
            guard let base = raw.baseAddress else { return nil }
            while filled < count {
                let n = systemRead(fd, base + filled, count - filled)
                if n < 0 { if errno == EINTR { continue }; return errno }
                if n == 0 { break }  // shrank while being read
                filled += n
            }
            return nil
        }
        if let failed { throw RegularFileError("\(path): cannot read the \(what): \(String(cString: strerror(failed)))") }
        return data.prefix(filled)
    }
}

/// A file that could not be read as a regular file within its size limit.
public struct RegularFileError: Error, Equatable, CustomStringConvertible, Sendable {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// `read(2)`: inside `RegularFile` the name `read` is its own method.
private func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    read(fd, buffer, count)
}
