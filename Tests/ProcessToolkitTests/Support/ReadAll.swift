import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Everything a child writes to `fd` until it closes it (EINTR retried).
func readAll(_ fd: Int32) -> String {
    var data = Data()
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
        let n = read(fd, &buffer, buffer.count)
        if n < 0 && errno == EINTR { continue }
        if n <= 0 { break }
        data.append(contentsOf: buffer[0..<n])
    }
    return String(decoding: data, as: UTF8.self)
}
