import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// IPv4 loopback sockets for tests: a free port, a listener that holds a port, a connect
/// probe. One copy for every test target (issue 30: the same socket code was written in
/// several test files).
public enum Loopback {
    /// 127.0.0.1:`port` as a `sockaddr_in`.
    public static func address(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }

    /// A port the OS says is free now (bound to port 0 and released: another process may take
    /// it before the caller does, which tests accept).
    public static func freePort() -> Int {
        guard let fd = try? listen(port: 0, backlog: 0) else { return 0 }
        defer { close(fd) }
        return boundPort(fd)
    }

    /// A socket bound to 127.0.0.1:`port` (0: any) and listening; the caller closes it.
    public static func listen(port: Int, backlog: Int32 = 1) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw LoopbackError(operation: "socket", port: port) }
        var address = address(port: port)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, Glibc.listen(fd, backlog) == 0 else {
            let error = LoopbackError(operation: "bind", port: port)
            close(fd)
            throw error
        }
        return fd
    }

    /// The port a bound socket has.
    public static func boundPort(_ fd: Int32) -> Int {
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// True when something accepts connections on 127.0.0.1:`port`.
    public static func canConnect(_ port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = address(port: port)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }
}

public struct LoopbackError: Error, CustomStringConvertible {
    public let operation: String
    public let port: Int
    public let code: Int32 = errno
    public var description: String { "\(operation) 127.0.0.1:\(port) failed: errno \(code)" }
}
