import Foundation

/// Writes files so a reader (or a crash) never sees half of one: temp file + rename.
public enum AtomicFile {
    public static func write(_ data: Data, to url: URL) throws {
        try write([(url, data)])
    }

    /// Writes several files all or nothing: every temp file is written in full first, and
    /// only then are they renamed over the old ones. A failure (disk full, read-only folder)
    /// removes the temp files and leaves every old file as it was.
    public static func write(_ files: [(URL, Data)]) throws {
        var temps: [(tmp: URL, url: URL)] = []
        func undo() { for t in temps { try? FileManager.default.removeItem(at: t.tmp) } }
        for (url, data) in files {
            let dir = url.deletingLastPathComponent()
            let tmp = dir.appendingPathComponent(".\(url.lastPathComponent).\(ProcessInfo.processInfo.processIdentifier).tmp")
            do {
                try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
                temps.append((tmp, url))
                try data.write(to: tmp)
            } catch {
                undo()
                throw FileWriteError(path: url.path, reason: FileWriteError.reason(error))
            }
        }
        for t in temps where rename(t.tmp.path, t.url.path) != 0 {
            let reason = String(cString: strerror(errno))
            undo()
            throw FileWriteError(path: t.url.path, reason: reason)
        }
    }
}

/// A report file that could not be written, with the system's reason in plain words.
public struct FileWriteError: Error, LocalizedError, CustomStringConvertible, Equatable {
    public var path: String
    public var reason: String

    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    public var description: String { "cannot write \(path): \(reason)" }
    public var errorDescription: String? { description }

    /// `No space left on device`, `Read-only file system`, …: the POSIX reason under a
    /// Foundation error, else its own description.
    public static func reason(_ error: Error) -> String {
        if let e = error as? FileWriteError { return e.reason }
        var current: Error? = error
        while let e = current {
            if let posix = e as? POSIXError { return String(cString: strerror(posix.code.rawValue)) }
            let ns = e as NSError
            if ns.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(ns.code))) }
            current = ns.userInfo[NSUnderlyingErrorKey] as? Error
        }
        return (error as NSError).localizedDescription
    }
}
