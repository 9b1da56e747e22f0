import Foundation
import RobotCICore

/// A batch as it travels through the queue.
public struct QueuedBatch: Codable, Equatable, Sendable {
    public var tests: [TestID]
    /// 1 for first runs, 2… for retries.
    public var attempt: Int
    /// A retry carries the machine that failed it: other machines take it first.
    public var avoid: String?

    public init(tests: [TestID], attempt: Int, avoid: String? = nil) {
        self.tests = tests
        self.attempt = attempt
        self.avoid = avoid
    }
}

/// One machine's client of the shared queue: plan once, lease batches, heartbeat, record
/// results, acknowledge. Thread-safe: one connection behind one lock (each call is one
/// short round trip). A broken connection is re-opened with back-off before giving up.
public final class RedisQueue: @unchecked Sendable {
    public enum Lease: Equatable, Sendable {
        case batch(id: Int, QueuedBatch)
        /// Work is leased by others (it may still come back) or waits for another machine.
        case wait
        /// The queue is empty and nothing is leased: the run is over.
        case done
    }

    public let address: QueueAddress
    /// This machine's id (host name and pid): lease owner and lane label.
    public let machine: String
    /// A lease not extended for this long goes back to the queue.
    public let leaseTimeout: Double
    /// How long a retry waits for another machine before its own takes it.
    public var retryAvoidSeconds = 3.0
    /// Seconds between reconnect attempts before a connection loss is given up.
    public var backOff: [Double] = [0.25, 0.5, 1, 2, 4]
    /// Time to live of every key, refreshed by heartbeats and at the end.
    public static let ttlSeconds = 86_400

    private let lock = NSLock()
    private var connection: RedisConnection?
    /// Set once the back-off gave up: later calls fail at once instead of waiting again.
    private var gaveUp: QueueError?
    private let encoder: JSONEncoder = {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return e
    }()

    /// Connects (a failure is an error naming the address: exit 2 at the start of a run).
    public init(address: QueueAddress, machine: String, leaseTimeout: Double = 30) throws {
        self.address = address
        self.machine = machine
        self.leaseTimeout = leaseTimeout
        do {
            connection = try RedisConnection(address: address, timeout: 5)
        } catch let e as RedisError {
            let hint = e.kind == .connection ? "is redis-server running there? " : ""
            throw QueueError("\(e.message); \(hint)check --queue (or ROBOTCI_QUEUE / 'queue' in robotci.yml)")
        }
    }

    // MARK: keys

    private func key(_ suffix: String) -> String { "robotci:\(address.name):\(suffix)" }
    var plan: String { key("plan") }
    var batches: String { key("batches") }
    var queue: String { key("queue") }
    var seq: String { key("seq") }
    var since: String { key("since") }
    var leases: String { key("leases") }
    var owner: String { key("owner") }
    var alive: String { key("alive") }
    var done: String { key("done") }
    var results: String { key("results") }
    var records: String { key("records") }
    var machines: String { key("machines") }
    var allKeys: [String] { [plan, batches, queue, seq, since, leases, owner, alive, done, results, records, machines] }

    // MARK: transport

    /// Runs `body` on the connection; on a connection error, reconnects with back-off and
    /// tries again. Error replies (a bug, a wrong server) are thrown at once.
    private func withConnection<T>(_ body: (RedisConnection) throws -> T) throws -> T {
        try lock.withLock {
            if let gaveUp { throw gaveUp }
            var delays = backOff[...]
            while true {
                do {
                    let c: RedisConnection
                    if let existing = connection { c = existing } else {
                        c = try RedisConnection(address: address, timeout: 5)
                        connection = c
                    }
                    return try body(c)
                } catch let e as RedisError where e.kind == .connection {
                    connection = nil
                    guard let delay = delays.popFirst() else {
                        gaveUp = QueueError("lost the queue \(address): \(e.message) (gave up after \(backOff.count) reconnects over \(Int(backOff.reduce(0, +))) s)")
                        throw gaveUp ?? QueueError("lost the queue \(address)")
                    }
                    Thread.sleep(forTimeInterval: delay)
                }
            }
        }
    }

    private func eval(_ script: String, keys: [String], args: [String]) throws -> RedisReply {
        let reply = try withConnection { c in
            try c.command(["EVAL", script, String(keys.count)] + keys + args)
        }
        if case .error(let message) = reply { throw QueueError("redis refused a queue script on \(address): \(message)") }
        return reply
    }

    private func json<T: Encodable>(_ value: T) -> String {
        (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    // MARK: protocol

    /// The digest every machine's test list must match: FNV-1a of the sorted ids.
    public static func digest(of tests: [TestID]) -> String {
        let text = tests.map(\.rawValue).sorted().joined(separator: "\n")
        return String(Partitioner.stableHash(text), radix: 16) + "-\(tests.count)"
    }

    /// Plans the run if this machine is first (returns true), else checks that this machine
    /// built the same tests. A different test list is an error that says what differs.
    @discardableResult
    public func join(tests: [TestID], plan: [QueuedBatch]) throws -> Bool {
        let digest = Self.digest(of: tests)
        let reply = try eval(QueueScripts.join, keys: [self.plan, batches, queue, seq, since],
                             args: [digest, String(tests.count)] + plan.map(json))
        let parts = reply.array ?? []
        try touch()
        if parts.first?.text == "planned" { return true }
        let theirs = parts.count > 1 ? parts[1].text ?? "?" : "?"
        let count = parts.count > 2 ? parts[2].text ?? "?" : "?"
        guard theirs == digest else {
            throw QueueError("the queue \(address) was planned for another test list (\(count) tests, digest \(theirs)); "
                             + "this machine has \(tests.count) tests (digest \(digest)). Every machine of a run must build the same "
                             + "commit with the same --filter/--skip; or use a new queue NAME for a new run")
        }
        return false
    }

    /// Leases the next batch for one shard.
    public func lease() throws -> Lease {
        let reply = try eval(QueueScripts.lease, keys: [queue, leases, owner, batches, alive, done, since],
                             args: [machine, String(Int(leaseTimeout * 1000)), String(Int(retryAvoidSeconds * 1000))])
        let parts = reply.array ?? []
        switch parts.first?.text {
        case "batch":
            guard parts.count == 3, let id = parts[1].text.flatMap(Int.init), let body = parts[2].text,
                  let batch = try? JSONDecoder().decode(QueuedBatch.self, from: Data(body.utf8)) else {
                throw QueueError("the queue \(address) holds a batch this robotci cannot read: \(reply)")
            }
            return .batch(id: id, batch)
        case "done": return .done
        default: return .wait
        }
    }

    /// Extends the leases of `ids`; returns those this machine no longer holds.
    @discardableResult
    public func heartbeat(_ ids: [Int]) throws -> [Int] {
        let reply = try eval(QueueScripts.heartbeat, keys: [leases, owner, alive],
                             args: [machine, String(Int(leaseTimeout * 1000))] + ids.map(String.init))
        try touch()
        return (reply.array ?? []).compactMap { $0.text.flatMap(Int.init) }
    }

    /// Stores an attempt (labelled with this machine); queues `retry` if this is the first
    /// result for the attempt. Returns false for a duplicate (kept once: the first).
    @discardableResult
    public func record(_ test: TestID, quarantined: Bool, attempt: Attempt, retry: QueuedBatch?) throws -> Bool {
        var attempt = attempt
        attempt.machine = machine
        let field = "\(test.rawValue)\u{1F}\(attempt.number)"
        let entry = json(JournalEntry.attempt(test: test, quarantined: quarantined, attempt: attempt))
        let reply = try eval(QueueScripts.record, keys: [results, batches, queue, seq, since],
                             args: [field, entry, retry.map(json) ?? ""])
        return (reply.integer ?? 0) > 0
    }

    /// Finishes batch `id`: stores its record (machine-labelled) and queues `leftovers` if
    /// this machine is the first to finish it. Returns whether it was the first.
    @discardableResult
    public func ack(_ id: Int, record: BatchRecord, leftovers: [QueuedBatch]) throws -> Bool {
        var record = record
        record.machine = machine
        let reply = try eval(QueueScripts.ack, keys: [queue, leases, owner, batches, done, seq, since, records],
                             args: [machine, String(id), json(JournalEntry.batch(record))] + leftovers.map(json))
        return reply.integer == 1
    }

    /// Registers (or updates) this machine's run metadata, for the merged report's lanes.
    public func announce(_ metadata: RunMetadata) throws {
        _ = try withConnection { c in try c.command(["HSET", machines, machine, json(metadata)]) }
    }

    /// This machine is finished: it stops counting as a live machine; keys get their TTL.
    public func leave(_ metadata: RunMetadata) throws {
        try announce(metadata)
        _ = try withConnection { c in try c.command(["ZREM", alive, machine]) }
        try touch()
    }

    /// (Re)sets the TTL of every key of the run.
    public func touch() throws {
        _ = try eval(QueueScripts.expire, keys: allKeys, args: [String(Self.ttlSeconds)])
    }

    // MARK: reading the whole run (for `robotci report --queue`)

    /// Everything the queue holds about the run: per-machine metadata, every attempt (once)
    /// and every batch record.
    public func snapshot() throws -> QueueSnapshot {
        let (meta, results, records, planned) = try withConnection { c in
            (try c.command(["HGETALL", machines]), try c.command(["HVALS", self.results]),
             try c.command(["LRANGE", self.records, "0", "-1"]), try c.command(["HGET", plan, "tests"]))
        }
        guard let plannedText = planned.text, let planned = Int(plannedText) else {
            throw QueueError("no run named '\(address.name)' on \(address.host):\(address.port) (no plan key; it never started, or expired after \(Self.ttlSeconds / 3600) h)")
        }
        let decoder = JSONDecoder()
        var snapshot = QueueSnapshot(plannedTests: planned)
        let pairs = meta.array ?? []
        for i in stride(from: 0, to: pairs.count - 1, by: 2) {
            guard let name = pairs[i].text, let body = pairs[i + 1].text,
                  let m = try? decoder.decode(RunMetadata.self, from: Data(body.utf8)) else { continue }
            snapshot.machines[name] = m
        }
        for value in results.array ?? [] {
            if let text = value.text, case .attempt(let test, let q, let a)? = try? decoder.decode(JournalEntry.self, from: Data(text.utf8)) {
                snapshot.attempts.append((test, q, a))
            }
        }
        for value in records.array ?? [] {
            if let text = value.text, case .batch(let b)? = try? decoder.decode(JournalEntry.self, from: Data(text.utf8)) {
                snapshot.batches.append(b)
            }
        }
        return snapshot
    }
}
