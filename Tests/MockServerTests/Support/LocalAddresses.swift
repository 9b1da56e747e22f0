#if canImport(Glibc)
import Glibc
#endif

/// This machine's IPv4 addresses other than loopback (for checking the server ignores them).
func nonLoopbackIPv4Addresses() -> [String] {
    addresses(family: AF_INET).filter { !$0.hasPrefix("127.") }
}

/// This machine's global IPv6 addresses (not ::1, not link-local), for the same check.
func nonLoopbackIPv6Addresses() -> [String] {
    addresses(family: AF_INET6).filter { $0 != "::1" && !$0.lowercased().hasPrefix("fe80") }
}

/// Every address of `family` (AF_INET or AF_INET6) on this machine's interfaces, as text.
private func addresses(family: Int32) -> [String] {
    var list: UnsafeMutablePointer<ifaddrs>?
    guard getifaddrs(&list) == 0, let first = list else { return [] }
    defer { freeifaddrs(list) }
    var result: [String] = []
    var cursor: UnsafeMutablePointer<ifaddrs>? = first
    while let entry = cursor {
        defer { cursor = entry.pointee.ifa_next }
        guard let address = entry.pointee.ifa_addr, address.pointee.sa_family == sa_family_t(family) else { continue }
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        if family == AF_INET {
            address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { v4 in
                var raw = v4.pointee.sin_addr
                _ = inet_ntop(AF_INET, &raw, &text, socklen_t(INET6_ADDRSTRLEN))
            }
        } else {
            address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { v6 in
                var raw = v6.pointee.sin6_addr
                _ = inet_ntop(AF_INET6, &raw, &text, socklen_t(INET6_ADDRSTRLEN))
            }
        }
        result.append(String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }
    return result
}

/// A socket listening on [::1]:(free port), owned by this test rather than the server;
/// `nil` when the host has no IPv6 loopback.
final class IPv6LoopbackHolder {
    let port: UInt16
    private let fd: Int32

    init?() {
        let fd = socket(AF_INET6, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        var address = sockaddr_in6()
        address.sin6_family = sa_family_t(AF_INET6)
        address.sin6_addr = in6addr_loopback
        var length = socklen_t(MemoryLayout<sockaddr_in6>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(fd, pointer, length) == 0 && listen(fd, 1) == 0 && getsockname(fd, pointer, &length) == 0
            }
        }
        guard bound else {
            close(fd)
            return nil
        }
        self.fd = fd
        port = UInt16(bigEndian: address.sin6_port)
    }

    deinit {
        close(fd)
    }
}

extension IPv6LoopbackHolder {
    /// A holder whose port is free on 127.0.0.1 as well, so a test that then listens there
    /// meets only the ::1 holder. The kernel picks the IPv6 port alone, and its IPv4 twin may
    /// be any other socket's (a client's ephemeral port, a parallel test's server); a few
    /// tries find one that is not. Nil without IPv6, or when none is found.
    static func freeOnIPv4Too(tries: Int = 20) -> IPv6LoopbackHolder? {
        for _ in 0..<tries {
            guard let holder = IPv6LoopbackHolder() else { return nil }
            if ipv4LoopbackPortIsFree(holder.port) { return holder }
        }
        return nil
    }
}

/// Whether 127.0.0.1:`port` can be bound right now (bound and closed at once).
private func ipv4LoopbackPortIsFree(_ port: UInt16) -> Bool {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { return false }
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
    return withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
    }
}
