import Foundation
import RobotCICore
import RobotCIQueue

// One fleet of simulated machines on one queue: each machine is a `RedisQueue` (robotci's
// client, its own connection) with `shards` threads that lease, "run" each test (sleep its
// simulated duration, or not at all with --no-sleep), and finish the batch with its results
// in the next lease, exactly as `RedisBatchSource` does. Prints one JSON line of measures.
//   QueueFleet --port P --machines N [--shards 2] [--tests 20000] [--min-ms 0] [--max-ms 50] [--no-sleep] [--name NAME]

struct Options {
    var port = 6379, machines = 1, shards = 2, tests = 20_000, minMs = 0, maxMs = 50, minimumBatchMs = 500
    var sleep = true
    var name = "fleet"

    init(_ args: [String]) {
        var i = 1
        func value() -> String {
            i += 1
            guard i < args.count else { fatalError("\(args[i - 1]) needs a value") }
            return args[i]
        }
        while i < args.count {
            switch args[i] {
            case "--port": port = Int(value())!
            case "--machines": machines = Int(value())!
            case "--shards": shards = Int(value())!
            case "--tests": tests = Int(value())!
            case "--min-ms": minMs = Int(value())!
            case "--max-ms": maxMs = Int(value())!
            case "--no-sleep": sleep = false
            case "--min-batch-ms": minimumBatchMs = Int(value())!
            case "--name": name = value()
            default: fatalError("unknown argument \(args[i])")
            }
            i += 1
        }
    }
}

let options = Options(CommandLine.arguments)

/// A test's simulated duration in ms: spread evenly over [min, max] by a fixed permutation.
func duration(_ i: Int) -> Int {
    let span = options.maxMs - options.minMs + 1
    return options.minMs + (i &* 7_919 &+ 13) % span
}

let tests = (0..<options.tests).map { TestID("Fleet.Suite\($0 % 100)/test\($0)") }
let millis = Dictionary(uniqueKeysWithValues: tests.enumerated().map { ($1, duration($0)) })
// Timings known (a warm run): the plan expects each test's real duration.
let planned = Planner.order(tests, timings: Timings(tests: Dictionary(uniqueKeysWithValues: tests.map { ($0.test, Double(millis[$0]!) / 1000) })))
let chunks = QueueChunks.cut(planned) { _ in 0 }
let work = Double(millis.values.reduce(0, +)) / 1000
let lowerBound = max(work / Double(options.machines * options.shards), Double(millis.values.max() ?? 0) / 1000)

func info(_ c: RedisConnection) throws -> [String: Double] {
    let text = try c.command(["INFO", "all"]).text ?? ""
    var out: [String: Double] = [:]
    for line in text.split(whereSeparator: \.isNewline) {
        let parts = line.split(separator: ":", maxSplits: 1)
        guard parts.count == 2 else { continue }
        if let v = Double(parts[1].trimmingCharacters(in: .whitespaces)) { out[String(parts[0])] = v }
        // cmdstat_NAME:calls=N,usec=…: every command Redis ran, inside scripts too.
        if parts[0].hasPrefix("cmdstat_"), let calls = parts[1].split(separator: ",").first?.split(separator: "=").last.flatMap({ Double($0) }) {
            out["commands_run", default: 0] += calls
            out[String(parts[0])] = calls
        }
    }
    return out
}

let address = QueueAddress(host: "127.0.0.1", port: options.port, name: options.name)
let admin = try RedisConnection(host: "127.0.0.1", port: options.port)
let machines = try (0..<options.machines).map { m -> RedisQueue in
    let q = try RedisQueue(address: address, machine: "m\(m)", leaseTimeout: 30)
    q.shape = BatchShape(shards: options.shards, minimumBatchSeconds: Double(options.minimumBatchMs) / 1000)
    return q
}

// Joining: every machine sends its test list (the first plans), before the clock starts.
let beforeJoin = try info(admin)
let joinStart = Date()
for q in machines { try q.join(tests: tests, plan: chunks) }
let joinSeconds = Date().timeIntervalSince(joinStart)
let afterJoin = try info(admin)

/// What the shard threads measure, behind one lock.
final class Measures: @unchecked Sendable {
    private let lock = NSLock()
    var leaseSeconds: [Double] = []
    var calls = 0, batches = 0, results = 0, waits = 0
    var lastFinish = 0.0

    func add(lease: Double, calls: Int, batches: Int, results: Int, lastFinish: Double, waits: Int = 0) {
        lock.lock()
        defer { lock.unlock() }
        self.waits += waits
        leaseSeconds.append(lease)
        self.calls += calls
        self.batches += batches
        self.results += results
        self.lastFinish = max(self.lastFinish, lastFinish)
    }
}

let measures = Measures()
let start = Date()
let group = DispatchGroup()
for (m, queue) in machines.enumerated() {
    for shard in 0..<options.shards {
        group.enter()
        let thread = Thread {
            defer { group.leave() }
            var finished: FinishedBatch?
            var last: Double?
            while true {
                let t0 = Date()
                let lease: RedisQueue.Lease
                do { lease = try queue.lease(finishing: finished, longest: queue.shape.longest(after: last)).lease } catch {
                    fatalError("machine \(m): \(error)")
                }
                let now = Date()
                measures.add(lease: now.timeIntervalSince(t0), calls: 1, batches: 0, results: finished?.results.count ?? 0,
                             lastFinish: finished == nil ? 0 : now.timeIntervalSince(start))
                finished = nil
                switch lease {
                case .batch(let id, let batch):
                    if let ms = batch.expected { last = Double(ms) / 1000 }
                    let began = Date().timeIntervalSince(start)
                    var results: [StoredResult] = []
                    for test in batch.tests {
                        let ms = millis[test] ?? 0
                        if options.sleep && ms > 0 { usleep(UInt32(ms * 1000)) }
                        let attempt = Attempt(number: batch.attempt, outcome: .passed, duration: Double(ms) / 1000,
                                              start: Date().timeIntervalSince(start),
                                              placement: .init(shard: shard, batch: id))
                        results.append(StoredResult(test: test, quarantined: false, attempt: attempt))
                    }
                    let record = BatchRecord(id: id, shard: shard, start: began, end: Date().timeIntervalSince(start),
                                             tests: batch.tests, termination: .exited(0))
                    finished = FinishedBatch(id: id, record: record, leftovers: [], results: results)
                    measures.add(lease: -1, calls: 0, batches: 1, results: 0, lastFinish: 0)
                case .wait:
                    measures.add(lease: -1, calls: 0, batches: 0, results: 0, lastFinish: 0, waits: 1)
                    usleep(200_000)  // as RedisBatchSource waits
                case .done, .stopped: return
                }
            }
        }
        thread.stackSize = 256 << 10
        thread.start()
    }
}
group.wait()
let wall = Date().timeIntervalSince(start)
let after = try info(admin)

let leases = measures.leaseSeconds.filter { $0 >= 0 }.sorted()
func percentile(_ p: Double) -> Double { leases.isEmpty ? 0 : leases[min(leases.count - 1, Int(Double(leases.count) * p))] }
func delta(_ key: String, _ a: [String: Double], _ b: [String: Double]) -> Double { (b[key] ?? 0) - (a[key] ?? 0) }
let makespan = measures.lastFinish
let n = Double(options.tests)
let report: [String: Any] = [
    "machines": options.machines, "shards": options.shards, "tests": options.tests, "sleep": options.sleep,
    "chunks": chunks.count,
    "makespan_s": makespan, "wall_s": wall, "lower_bound_s": lowerBound, "makespan_over_bound": makespan / lowerBound,
    "tests_per_s": n / makespan, "results": measures.results, "batches": measures.batches,
    "round_trips": measures.calls, "waits": measures.waits,
    // Steady state: the calls that leased a batch (each also finished the shard's last one).
    "round_trips_per_batch": Double(measures.calls - measures.waits - options.machines * options.shards) / Double(max(1, measures.batches)),
    "round_trips_per_test": Double(measures.calls) / n,
    "redis_commands_per_test": delta("total_commands_processed", afterJoin, after) / n,
    "bytes_per_test": (delta("total_net_input_bytes", afterJoin, after) + delta("total_net_output_bytes", afterJoin, after)) / n,
    "redis_cpu_s": delta("used_cpu_user", afterJoin, after) + delta("used_cpu_sys", afterJoin, after),
    "lease_p50_ms": percentile(0.5) * 1000, "lease_p99_ms": percentile(0.99) * 1000,
    "join_s": joinSeconds, "join_bytes_per_machine": (delta("total_net_input_bytes", beforeJoin, afterJoin)) / Double(options.machines),
]
let data = try JSONSerialization.data(withJSONObject: report, options: [.sortedKeys])
print(String(decoding: data, as: UTF8.self))
