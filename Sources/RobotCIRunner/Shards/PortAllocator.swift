import Foundation
import LoopbackSockets
import ProcessToolkit
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
final class PortAllocator: Sendable {
    struct ShardPorts: Equatable {
        var mock: Int
        var webDriver: Int
    }

    /// Every shard's ports so far.
    private let assigned = Locked<[Int: ShardPorts]>([:])
    private let basePort: Int?

    init(basePort: Int?) { self.basePort = basePort }

    /// The shard's ports, checked free right now (replaced if something else holds them).
    func ports(forShard shard: Int) -> ShardPorts {
        assigned.withLock { shards in
            var ports = shards[shard] ?? initialPorts(shard, shards)
            if !Loopback.isFree(ports.mock) { ports.mock = Self.freshPort(excluding: ports, shards) }
            if !Loopback.isFree(ports.webDriver) { ports.webDriver = Self.freshPort(excluding: ports, shards) }
            shards[shard] = ports
            return ports
        }
    }

    private func initialPorts(_ shard: Int, _ shards: [Int: ShardPorts]) -> ShardPorts {
        if let base = basePort {
            // A base port may already have been handed out as a replacement elsewhere.
            let taken = Set(shards.values.flatMap { [$0.mock, $0.webDriver] })
            var ports = ShardPorts(mock: base + 2 * shard, webDriver: base + 2 * shard + 1)
            if taken.contains(ports.mock) { ports.mock = Self.freshPort(excluding: ports, shards) }
            if taken.contains(ports.webDriver) { ports.webDriver = Self.freshPort(excluding: ports, shards) }
            return ports
        }
        let mock = Self.freshPort(excluding: nil, shards)
        let wd = Self.freshPort(excluding: ShardPorts(mock: mock, webDriver: mock), shards)
        return ShardPorts(mock: mock, webDriver: wd)
    }

    private static func freshPort(excluding current: ShardPorts?, _ shards: [Int: ShardPorts]) -> Int {
        var taken = Set(shards.values.flatMap { [$0.mock, $0.webDriver] })
        if let current { taken.formUnion([current.mock, current.webDriver]) }
        for _ in 0..<64 {
            if let port = Loopback.freePort(), !taken.contains(port) { return port }
        }
        // The OS kept handing out ports we hold; walk a private range instead.
        var candidate = 40_000
        while taken.contains(candidate) || !Loopback.isFree(candidate) { candidate += 1 }
        return candidate
    }
}
