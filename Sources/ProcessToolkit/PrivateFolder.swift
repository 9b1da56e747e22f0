import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A new folder in the temporary folder (`$TMPDIR`) made by `mkdtemp`: a name nobody could
/// predict or hold first, mode 0700.
public enum PrivateFolder {
    /// `$TMPDIR/<prefix>XXXXXX`, or nil (errno set) when it cannot be made.
    public static func make(prefix: String) -> URL? {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent(prefix + "XXXXXX").path
        var template = Array(base.utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ $0.baseAddress.flatMap { mkdtemp($0) } }) else { return nil }
        return URL(fileURLWithPath: String(cString: made), isDirectory: true)
    }
}
