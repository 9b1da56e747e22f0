import Foundation
import RobotCICore

/// One thread per shard, each pulling batches from the queue until it is empty (or the run
/// is interrupted) and handing each finished batch to the router.
struct ShardPool {
    let shards: Int
    let queue: BatchSource
    let executor: BatchExecutor
    let router: AttemptRouter
    let progress: Progress
    let ports: PortAllocator
    let browsers: SlotBrowsers?

    /// Returns when every shard's thread has stopped.
    func run() {
        let group = DispatchGroup()
        for shard in 0..<shards {
            group.enter()
            let thread = Thread { [self] in
                defer { group.leave() }
                while let item = queue.next(worker: shard) {
                    let shardPorts = ports.ports(forSlot: shard, webDriverHeld: browsers?.heldPort(slot: shard) != nil)
                    progress.batchStarted(worker: shard)
                    let outcome = executor.run(item, worker: shard, ports: shardPorts)
                    progress.batchFinished(worker: shard)
                    router.batchFinished(item, slot: shard, outcome)
                }
            }
            thread.name = "robotci-shard-\(shard)"
            thread.stackSize = 1 << 20
            thread.start()
        }
        group.wait()
    }
}
