import Foundation
import RobotCICore

/// One thread per shard, each pulling batches from the queue until it is empty (or the run
/// is interrupted) and handing each finished batch to the router. Before it takes a batch a
/// shard asks the governor, which holds starts back while the CPU is saturated.
struct ShardPool {
    let shards: Int
    let queue: BatchSource
    let executor: BatchExecutor
    let router: AttemptRouter
    let progress: Progress
    let ports: PortAllocator
    let browsers: ShardBrowsers?
    let governor: ConcurrencyGovernor

    /// Returns when every shard's thread has stopped.
    func run() {
        governor.start()
        let group = DispatchGroup()
        for shard in 0..<shards {
            group.enter()
            let thread = Thread { [self] in
                defer { group.leave() }
                while true {
                    // Asked before `next`, so a held-back shard holds no batch others could run.
                    governor.acquire(shard: shard)
                    guard let item = queue.next(shard: shard) else {
                        governor.release(shard: shard, ran: false)
                        break
                    }
                    governor.began(shard: shard)
                    // It asks again at once: its warm browser goes before a cold shard's.
                    defer { governor.release(shard: shard, ran: true, askingAgain: true) }
                    let shardPorts = ports.ports(forShard: shard)
                    progress.batchStarted(shard: shard)
                    let outcome = executor.run(item, shard: shard, ports: shardPorts)
                    progress.batchFinished(shard: shard)
                    router.batchFinished(item, shard: shard, outcome)
                }
            }
            thread.name = "robotci-shard-\(shard)"
            thread.stackSize = 1 << 20
            thread.start()
        }
        group.wait()
    }
}
