import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Gives each shard its own mock-server and browser-driver ports.
///
/// Two live shards never share a port: every assigned port is remembered. Before each
/// batch the shard's ports are probed by binding them; a port held by a foreign process
/// is replaced by a fresh one.
final class PortAllocator: @unchecked Sendable {
    struct ShardPorts: Equatable {
        var mock: Int
        var webDriver: Int
    }

    private let lock = NSLock()
    private var shards: [Int: ShardPorts] = [:]
    private let basePort: Int?

    init(basePort: Int?) { self.basePort = basePort }

    /// The shard's ports, checked free right now (replaced if something else holds them).
    /// `webDriverHeld`: robotci's own chromedriver for the shard listens on its driver port,
    /// which is then kept as it is.
    func ports(forShard shard: Int, webDriverHeld: Bool = false) -> ShardPorts {
        lock.withLock {
            var ports = shards[shard] ?? initialPorts(shard)
            if !Self.isFree(ports.mock) { ports.mock = freshPort(excluding: ports) }
            if !webDriverHeld && !Self.isFree(ports.webDriver) { ports.webDriver = freshPort(excluding: ports) }
            shards[shard] = ports
            return ports
        }
    }

    private func initialPorts(_ shard: Int) -> ShardPorts {
        if let base = basePort {
            // A base port may already have been handed out as a replacement elsewhere.
            let taken = Set(shards.values.flatMap { [$0.mock, $0.webDriver] })
            var ports = ShardPorts(mock: base + 2 * shard, webDriver: base + 2 * shard + 1)
            if taken.contains(ports.mock) { ports.mock = freshPort(excluding: ports) }
            if taken.contains(ports.webDriver) { ports.webDriver = freshPort(excluding: ports) }
            return ports
        }
        let mock = freshPort(excluding: nil)
        let wd = freshPort(excluding: ShardPorts(mock: mock, webDriver: mock))
        return ShardPorts(mock: mock, webDriver: wd)
    }

    private func freshPort(excluding current: ShardPorts?) -> Int {
        var taken = Set(shards.values.flatMap { [$0.mock, $0.webDriver] })
        if let current { taken.formUnion([current.mock, current.webDriver]) }
        for _ in 0..<64 {
            if let port = Self.osAssignedPort(), !taken.contains(port) { return port }
        }
        // The OS kept handing out ports we hold; walk a private range instead.
        var candidate = 40_000
        while taken.contains(candidate) || !Self.isFree(candidate) { candidate += 1 }
        return candidate
    }

    /// Whether a TCP port on 127.0.0.1 can be bound right now.
    static func isFree(_ port: Int) -> Bool {
        guard port > 0 && port < 65536 else { return false }
        return withBoundSocket(port: port) { _ in true } ?? false
    }

    /// A port the OS picks from its ephemeral range.
    static func osAssignedPort() -> Int? {
        withBoundSocket(port: 0) { fd in
            var addr = sockaddr_in()
            var len = socklen_t(MemoryLayout<sockaddr_in>.size)
            let rc = withUnsafeMutablePointer(to: &addr) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) }
            }
            return rc == 0 ? Int(UInt16(bigEndian: addr.sin_port)) : nil
        } ?? nil
    }

    private static func withBoundSocket<R>(port: Int, _ body: (Int32) -> R) -> R? {
        #if canImport(Glibc)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = in_port_t(UInt16(port).bigEndian)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        let rc = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard rc == 0 else { return nil }
        return body(fd)
    }
}
