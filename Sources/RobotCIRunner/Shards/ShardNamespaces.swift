import Foundation
import ProcessToolkit
import StandardStreams

/// Each shard's network namespace (`network-isolation`): its browser (which robotci's relay
/// starts inside it) and its test processes (with their mock servers) run inside, so what
/// they listen on is out of reach from the host's namespace (no other local user can read a
/// test's mock answers) and no two shards' ports can collide.
///
/// Made from the shard's own thread on its first batch (the holder's parent-death signal is
/// that thread's), remade when its holder has died, killed when the run ends.
final class ShardNamespaces: Sendable {
    /// What a batch gets: the namespace, and whether it is new (a browser started in an
    /// earlier one cannot reach its mock servers and must be replaced).
    struct Entry: Sendable {
        var namespace: NetworkNamespace
        var isNew: Bool
    }

    private let held = Locked<[Int: NetworkNamespace]>([:])
    private let warned = Locked(false)

    /// Whether a namespace can be made here: made and stopped once (from the calling thread).
    static func check() -> NetworkNamespace.Unavailable? {
        do {
            try NetworkNamespace.create().stop()
            return nil
        } catch {
            return error
        }
    }

    /// The shard's namespace; nil (warned once) when none can be made.
    func ensure(shard: Int) -> Entry? {
        if let current = held.withLock({ $0[shard] }) {
            if current.isAlive { return Entry(namespace: current, isNew: false) }
            current.stop()
        }
        do {
            let made = try NetworkNamespace.create()
            held.withLock { $0[shard] = made }
            return Entry(namespace: made, isNew: true)
        } catch {
            let first = warned.withLock { warned -> Bool in
                defer { warned = true }
                return !warned
            }
            if first { StandardStream.error.write("robotci: shard \(shard): no network namespace: \(error)\n") }
            held.withLock { _ = $0.removeValue(forKey: shard) }
            return nil
        }
    }

    /// Kills every holder; called when the run ends, after the shards' processes.
    func shutDown() {
        let all = held.withLock { held -> [NetworkNamespace] in
            defer { held.removeAll() }
            return Array(held.values)
        }
        for namespace in all { namespace.stop() }
    }
}
