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

    /// What a path is, without following a symbolic link.
    public enum Kind: Equatable, Sendable {
        case regular(size: Int)
        case directory
        case missing
        /// FIFO, socket, device or symbolic link: a word for messages.
        case special(String)
    }

    public static func kind(ofItemAt path: String) -> Kind {
        var st = stat()
        guard lstat(path, &st) == 0 else { return .missing }
        switch st.st_mode & S_IFMT {
        case S_IFREG: return .regular(size: Int(st.st_size))
        case S_IFDIR: return .directory
        case S_IFIFO: return .special("a FIFO")
        case S_IFSOCK: return .special("a socket")
        case S_IFLNK: return .special("a symbolic link")
        case S_IFCHR, S_IFBLK: return .special("a device")
        default: return .special("a special file")
        }
    }

    /// The whole file, or an error naming it: not a regular file, or over `limit` bytes.
    public static func read(_ path: String, limit: Int, what: String = "file") throws -> Data {
        // O_NONBLOCK: opening a FIFO must not wait for a writer; the type is checked on the
        // descriptor itself so a file swapped after the check is still refused.
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw RegularFileError("\(path): cannot read the \(what): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw RegularFileError("\(path): cannot read the \(what): \(String(cString: strerror(errno)))") }
        guard st.st_mode & S_IFMT == S_IFREG else {
            throw RegularFileError("\(path): the \(what) is not a regular file (a FIFO, device or socket); write a plain file there")
        }
        let size = Int(st.st_size)
        guard size <= limit else {
            throw RegularFileError("\(path): the \(what) is \(size) bytes, more than robotci reads (\(limit) bytes); "
                                   + "is it the right file? split it, or leave out large captured output")
        }
        var data = Data(count: size)
        var filled = 0
        let failed = data.withUnsafeMutableBytes { (raw: UnsafeMutableRawBufferPointer) -> Int32? in
            guard let base = raw.baseAddress else { return nil }
            while filled < size {
                let n = systemRead(fd, base + filled, size - filled)
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
