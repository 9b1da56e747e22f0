import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// IPv4 loopback sockets, written once for the runner (free ports for shards, waiting for a
/// shard's chromedriver), RobotKit (chromedriver's port, the DevTools WebSocket) and the tests:
/// bind to see whether a port is free, let the OS pick one, connect.
public enum Loopback {
    /// `host`:`port` as a `sockaddr_in` (`host` a dotted IPv4 address, 127.0.0.1 by default).
    public static func address(port: Int, host: String = "127.0.0.1") -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(truncatingIfNeeded: port).bigEndian)
        address.sin_addr.s_addr = inet_addr(host)
        return address
    }

    /// Whether 127.0.0.1:`port` can be bound right now (with `SO_REUSEADDR`, so a port that
    /// only lingers in TIME_WAIT counts as free, as it does for the servers robotci starts).
    public static func isFree(_ port: Int) -> Bool {
        guard port > 0 && port < 65536, let fd = bound(port: port, reuseAddress: true) else { return false }
        close(fd)
        return true
    }

    /// A port the OS picks from its ephemeral range (free now; another process may take it
    /// before the caller binds it).
    public static func freePort() -> Int? {
        guard let fd = bound(port: 0, reuseAddress: false) else { return nil }
        defer { close(fd) }
        return boundPort(fd)
    }

    /// A socket bound to 127.0.0.1:`port` (0: any) and listening; nil (errno set) when the
    /// port is taken. The caller closes it.
    public static func listen(port: Int, backlog: Int32 = 1) -> Int32? {
        guard let fd = bound(port: port, reuseAddress: false) else { return nil }
        #if canImport(Glibc)
        let listening = Glibc.listen(fd, backlog)
        #else
        let listening = Darwin.listen(fd, backlog)
        #endif
        guard listening == 0 else {
            let saved = errno
            close(fd)
            errno = saved
            return nil
        }
        return fd
    }

    /// The port a bound socket has.
    public static func boundPort(_ fd: Int32) -> Int? {
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return named == 0 ? Int(UInt16(bigEndian: address.sin_port)) : nil
    }

    /// A TCP socket connected to `host`:`port` (close-on-exec), or nil with errno set.
    public static func connect(port: Int, host: String = "127.0.0.1") -> Int32? {
        guard let fd = newSocket() else { return nil }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        var address = address(port: port, host: host)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                systemConnect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            let saved = errno
            close(fd)
            errno = saved
            return nil
        }
        return fd
    }

    /// True when something accepts connections on 127.0.0.1:`port`.
    public static func canConnect(_ port: Int) -> Bool {
        guard let fd = connect(port: port) else { return false }
        close(fd)
        return true
    }

    private static func bound(port: Int, reuseAddress: Bool) -> Int32? {
        guard let fd = newSocket() else { return nil }
        if reuseAddress {
            var one: Int32 = 1
            setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        }
        var address = address(port: port)
        let rc = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard rc == 0 else {
            let saved = errno
            close(fd)
            errno = saved
            return nil
        }
        return fd
    }

    private static func newSocket() -> Int32? {
        #if canImport(Glibc)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        return fd >= 0 ? fd : nil
    }
}

#if canImport(Glibc)
private let systemConnect = Glibc.connect
#else
private let systemConnect = Darwin.connect
#endif
