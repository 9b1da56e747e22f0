import CProcessSupport
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Unix-domain stream sockets by path: how a shard's test processes reach the browser robotci
/// keeps for the shard (`DevToolsRelay`). A path socket answers only those who may open its
/// folder (robotci makes it 0700), and the relay also checks each peer's user
/// (`peerUser`), so neither another local user nor another network namespace's port scan
/// can reach it, unlike a TCP port on loopback.
public enum LocalSocket {
    /// The longest path `sockaddr_un` holds (with its NUL).
    public static let maximumPath = MemoryLayout.size(ofValue: sockaddr_un().sun_path) - 1

    /// A listening socket at `path` (an old file there is replaced), close-on-exec; nil and
    /// `errno` on failure.
    public static func listen(path: String, backlog: Int32 = 4) -> Int32? {
        guard var address = address(path) else { return nil }
        unlink(path)
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return nil }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0, Glibc.listen(fd, backlog) == 0 else {
            let saved = errno
            close(fd)
            errno = saved
            return nil
        }
        return fd
    }

    /// A connected socket to `path`, close-on-exec; nil and `errno` on failure.
    public static func connect(path: String) -> Int32? {
        guard var address = address(path) else { return nil }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return nil }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard connected == 0 else {
            let saved = errno
            close(fd)
            errno = saved
            return nil
        }
        return fd
    }

    /// The user id of the process at the other end of a connected socket (`SO_PEERCRED`).
    public static func peerUser(_ fd: Int32) -> uid_t? {
        let uid = robotci_peer_uid(fd)
        return uid < 0 ? nil : uid_t(uid)
    }

    private static func address(_ path: String) -> sockaddr_un? {
        let bytes = Array(path.utf8)
        guard !bytes.isEmpty, bytes.count <= maximumPath else {
            errno = ENAMETOOLONG
            return nil
        }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in bytes.enumerated() { raw[index] = byte }
            raw[bytes.count] = 0
        }
        return address
    }
}
