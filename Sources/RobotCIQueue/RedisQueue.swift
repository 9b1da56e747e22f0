import Foundation
import Locks
import RobotCICore

/// A batch as it travels through the queue.
public struct QueuedBatch: Codable, Equatable, Sendable {
    public var tests: [TestID]
    /// 1 for first runs, 2… for retries.
    public var attempt: Int
    /// A retry carries the machine that failed it: other machines take it first.
    public var avoid: String?
    /// A chunk of the plan: a lease merges it with the chunks after it of the same group
    /// (tests that may share a process) into a batch sized for the machines there are.
    public var group: String?
    /// A chunk's expected milliseconds (from timings, or the planner's guess).
    public var expected: Int?

    public init(tests: [TestID], attempt: Int, avoid: String? = nil) {
        self.tests = tests
        self.attempt = attempt
        self.avoid = avoid
    }

    /// A first-run chunk of the plan, mergeable with its group's neighbours at lease time.
    public static func chunk(_ tests: [TestID], group: String, expectedSeconds: Double) -> QueuedBatch {
        var b = QueuedBatch(tests: tests, attempt: 1)
        b.group = group
        b.expected = Int((expectedSeconds * 1000).rounded())
        return b
    }
}

/// How a lease sizes the batch it merges from the plan's chunks (`QueueScripts.step`).
public struct BatchShape: Sendable, Equatable {
    /// This machine's shards (every machine is assumed alike: the live machines × this).
    public var shards: Int
    /// Batches each shard should get out of the remaining work (more: a smaller tail).
    public var batchesPerShard: Double
    /// Shortest batch in seconds, unless the work runs out (process start-up dominates below).
    public var minimumBatchSeconds: Double
    /// Most tests, and most bytes of test ids, in one batch (one filter argument).
    public var maximumTests: Int
    public var maximumBytes: Int

    public init(shards: Int, batchesPerShard: Double = 2, minimumBatchSeconds: Double = 0.5, maximumTests: Int = 2_000,
                maximumBytes: Int = 100_000) {
        self.shards = shards
        self.batchesPerShard = batchesPerShard
        self.minimumBatchSeconds = minimumBatchSeconds
        self.maximumTests = maximumTests
        self.maximumBytes = maximumBytes
    }

    /// Slow start: the longest batch a shard may take after one expected to take `last`
    /// seconds (nil: its first), twice the last and never under the shortest batch.
    public func longest(after last: Double?) -> Double {
        max(minimumBatchSeconds, 2 * (last ?? 0))
    }
}

/// A batch a shard finished, as the queue learns it in the shard's next round trip: its
/// record, what runs again of it, and its results that earn no retry (a failure that may
/// be retried is stored at once by `RedisQueue.record`, which queues the retry).
public struct FinishedBatch: Sendable {
    public var id: Int
    public var record: BatchRecord
    public var leftovers: [QueuedBatch]
    public var results: [StoredResult]

    public init(id: Int, record: BatchRecord, leftovers: [QueuedBatch], results: [StoredResult] = []) {
        self.id = id
        self.record = record
        self.leftovers = leftovers
        self.results = results
    }
}

/// One attempt for the queue's results.
public struct StoredResult: Sendable {
    public var test: TestID
    public var quarantined: Bool
    public var attempt: Attempt

    public init(test: TestID, quarantined: Bool, attempt: Attempt) {
        self.test = test
        self.quarantined = quarantined
        self.attempt = attempt
    }
}

/// One machine's client of the shared queue: plan once, lease batches, heartbeat, record
/// results, acknowledge. Thread-safe: one connection behind one lock (each call is one
/// short round trip). A broken connection is re-opened with back-off before giving up.
public final class RedisQueue: Sendable {
    public enum Lease: Equatable, Sendable {
        case batch(id: Int, QueuedBatch)
        /// Work is leased by others (it may still come back) or waits for another machine.
        case wait
        /// The queue is empty and nothing is leased: the run is over.
        case done
        /// A machine stopped the run early (`--max-failures`), for this reason.
        case stopped(reason: String)
    }

    /// Separates a result field's parts (nonce, test, attempt) and tags this run's records.
    static let separator = "\u{1F}"

    public let address: QueueAddress
    /// This machine's id (host name and pid): lease owner and lane label.
    public let machine: String
    /// A lease not extended for this long goes back to the queue.
    public let leaseTimeout: Double
    /// How long a retry waits for another machine before its own takes it.
    public var retryAvoidSeconds: Double {
        get { settings.withLock { $0.retryAvoidSeconds } }
        set { settings.withLock { $0.retryAvoidSeconds = newValue } }
    }
    /// Seconds between reconnect attempts before a connection loss is given up.
    public var backOff: [Double] {
        get { settings.withLock { $0.backOff } }
        set { settings.withLock { $0.backOff = newValue } }
    }
    /// Time to live of every key, refreshed by heartbeats and at the end.
    public static let ttlSeconds = 86_400

    /// How a lease merges the plan's chunks into a batch.
    public var shape: BatchShape {
        get { settings.withLock { $0.shape } }
        set { settings.withLock { $0.shape = newValue } }
    }

    private struct Settings {
        var retryAvoidSeconds = 3.0
        var backOff: [Double] = [0.25, 0.5, 1, 2, 4]
        var shape = BatchShape(shards: 1)
    }

    /// Each script's SHA1 as Redis knows it (`SCRIPT LOAD`): a script's source crosses the
    /// wire once per connection's server, not with every call.
    private let loadedScripts = Locked([String: String]())

    /// The connection, held for a whole call (one round trip, or the back-off's reconnects).
    private struct Link {
        var connection: RedisConnection?
        /// Set once the back-off gave up: later calls fail at once instead of waiting again.
        var gaveUp: QueueLost?
    }

    private let settings = Locked(Settings())
    private let link: Locked<Link>
    /// The run this machine joined. A lock of its own, so reading it never waits behind a
    /// round trip.
    private struct Joined {
        /// The plan's nonce; every script after join checks it.
        var nonce: String?
        /// The plan's `finished` mark as the join saw it (a re-open must name it).
        var finishedMark: String?
    }

    private let joinedRun = Locked(Joined())
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
            link = Locked(Link(connection: try RedisConnection(address: address, timeout: 5)))
        } catch let e as RedisError {
            let hint = e.kind == .connection ? "is redis-server running there? " : ""
            throw QueueError("\(e.message); \(hint)check --queue (or ROBOTCI_QUEUE / 'queue' in robotci.yml)")
        }
    }

    /// The nonce of the run this machine joined (nil before `join`).
    public var nonce: String? { joinedRun.withLock { $0.nonce } }

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
    var allKeys: [String] { QueueKey.allCases.map { key($0.rawValue) } }

    // MARK: transport

    /// Runs `body` on the connection; on a connection error, reconnects with back-off and
    /// tries again. Error replies (a bug, a wrong server) are thrown at once.
    private func withConnection<T>(_ body: (RedisConnection) throws -> T) throws -> T {
        let backOff = self.backOff
        return try link.withLock { link in
            if let gaveUp = link.gaveUp { throw gaveUp }
            var delays = backOff[...]
            while true {
                do {
                    let c: RedisConnection
                    if let existing = link.connection { c = existing } else {
                        c = try RedisConnection(address: address, timeout: 5)
                        link.connection = c
                    }
                    return try body(c)
                } catch let e as RedisError where e.kind == .connection {
                    link.connection = nil
                    guard let delay = delays.popFirst() else {
                        let lost = QueueLost(.unreachable, "lost the queue \(address): \(e.message) (gave up after \(backOff.count) reconnects over \(Int(backOff.reduce(0, +))) s)")
                        link.gaveUp = lost
                        throw lost
                    }
                    Thread.sleep(forTimeInterval: delay)
                }
            }
        }
    }

    /// Runs a script by its SHA1 (`EVALSHA`), loading it first when Redis does not know it
    /// (the first call, or a Redis restarted since: `NOSCRIPT`).
    private func eval(_ script: String, keys: [String], args: [String]) throws -> RedisReply {
        let tail = [String(keys.count)] + keys + args
        let reply = try withConnection { c -> RedisReply in
            for _ in 0..<2 {
                let sha: String
                if let known = loadedScripts.withLock({ $0[script] }) {
                    sha = known
                } else {
                    let loaded = try c.command(["SCRIPT", "LOAD", script])
                    if case .error = loaded { return loaded }
                    guard let text = loaded.text else { return .error("SCRIPT LOAD answered \(loaded)") }
                    sha = text
                    loadedScripts.withLock { $0[script] = text }
                }
                let reply = try c.command(["EVALSHA", sha] + tail)
                if case .error(let message) = reply, message.hasPrefix("NOSCRIPT") {
                    _ = loadedScripts.withLock { $0.removeValue(forKey: script) }
                    continue
                }
                return reply
            }
            return try c.command(["EVAL", script] + tail)
        }
        if case .error(let message) = reply { throw QueueError("redis refused a queue script on \(address): \(message)") }
        return reply
    }

    /// Runs `script` with its declared keys. A script of the joined run gets the plan key
    /// last and the nonce first (its `sameRun` prologue removes both); a `lost` reply throws
    /// `QueueLost`.
    private func run(_ script: QueueScript, args: [String]) throws -> RedisReply {
        let keys = script.keys.map { key($0.rawValue) }
        guard script.inRun else { return try eval(script.source, keys: keys, args: args) }
        guard let nonce else { throw QueueError("robotci bug: the queue \(address) was used before join") }
        let reply = try eval(script.source, keys: keys + [plan], args: [nonce] + args)
        guard let parts = reply.array, parts.first?.text == "lost" else { return reply }
        let now = parts.count > 1 ? parts[1].text ?? "" : ""
        let marked = parts.count > 2 && parts[2].text == "marked"
        throw lostError(now: now, marked: marked)
    }

    /// Why the run `nonce` is gone, given the plan's nonce now ('' when there is no plan).
    private func lostError(now: String, marked: Bool) -> QueueLost {
        let run = "run \(nonce ?? "?")"
        if now.isEmpty {
            return QueueLost(.vanished, "lost the queue \(address): its plan vanished mid-run (\(run)): Redis lost its data "
                             + "(FLUSHALL, a restart without persistence, or eviction under maxmemory; use a Redis with "
                             + "persistence or maxmemory-policy noeviction for queues)")
        }
        if marked && now == nonce {
            return QueueLost(.marked, "lost the queue \(address): another machine found this run (\(run)) lost mid-run "
                             + "(its keys vanished or were evicted)")
        }
        return QueueLost(.replaced(nonce: now), "lost the queue \(address): it now holds another run (nonce \(now)), not this "
                         + "machine's (\(run)): the name was reused while this run went on, or Redis was rolled back; use a "
                         + "new queue name per run")
    }

    private func json<T: Encodable>(_ value: T) -> String {
        (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    // MARK: protocol

    /// A fresh run nonce: 128 random bits, hex.
    static func makeNonce() -> String {
        (0..<2).map { _ in String(UInt64.random(in: 0...UInt64.max), radix: 16) }.joined(separator: "-")
    }

    /// Plans the run if this machine is first, else checks that this machine built the same
    /// tests and tells whether the run goes on or is over. A different test list is an error
    /// that says what differs. Every later call of this machine is checked against the run
    /// joined here (its nonce).
    @discardableResult
    public func join(tests: [TestID], plan batches: [QueuedBatch]) throws -> QueueJoin {
        let digest = RunPlan.digest(of: tests)
        let head = [Self.makeNonce(), digest, String(tests.count), machine, String(Int(leaseTimeout * 1000))]
        // A probe first: only the machine that plans sends the plan.
        var reply = try run(QueueScripts.join, args: head)
        if reply.array?.first?.text == "absent" {
            reply = try run(QueueScripts.join, args: head + [json(tests.sorted())] + batches.map(json))
        }
        let parts = (reply.array ?? []).map { $0.text ?? "" }
        func part(_ i: Int) -> String { i < parts.count ? parts[i] : "" }
        let joined: QueueJoin
        switch part(0) {
        case "planned": joined = .planned(nonce: part(1))
        case "joined": joined = .joined(nonce: part(1))
        case "finished":
            joinedRun.withLock { $0.finishedMark = part(4) }
            let ms = Double(part(4)) ?? 0
            joined = .finished(nonce: part(1), at: Date(timeIntervalSince1970: ms / 1000), lost: part(5) == "lost")
        default: throw QueueError("the queue \(address) answered join with \(reply); is it a robotci queue of this version?")
        }
        guard !joined.nonce.isEmpty else { throw QueueError("the queue \(address) has a plan without a run nonce (an older robotci's?); use a new queue name") }
        if case .planned = joined {} else {
            let theirs = part(2), count = part(3)
            guard theirs == digest else {
                throw QueueError("the queue \(address) was planned for another test list (\(count) tests, digest \(theirs)); "
                                 + "this machine has \(tests.count) tests (digest \(digest)). Every machine of a run must build the same "
                                 + "commit with the same --filter/--skip; or use a new queue NAME for a new run")
            }
        }
        joinedRun.withLock { $0.nonce = joined.nonce }
        if case .finished = joined { return joined }
        try touch()
        return joined
    }

    /// Re-opens the finished run joined for `batches` (its tests that did not pass, at their
    /// next attempt numbers). True when this machine re-opened it; false when another
    /// machine already had (this one then just leases).
    public func reopen(_ batches: [QueuedBatch]) throws -> Bool {
        guard let finishedMark = joinedRun.withLock({ $0.finishedMark }) else { throw QueueError("robotci bug: re-opening \(address) before a join found it finished") }
        let reply = try run(QueueScripts.reopen, args: [finishedMark] + batches.map(json))
        try touch()
        return reply.array?.first?.text == "reopened"
    }

    /// Leases the next batch for one shard.
    public func lease() throws -> Lease {
        try step(finishing: nil, lease: true).lease
    }

    /// Finishes `batch` and leases the shard's next one, in one round trip. A merged batch
    /// is expected to take at most `longest` seconds (slow start: `BatchShape.next(after:)`).
    /// `first` is whether this machine finished the batch first (nil without a batch).
    public func lease(finishing batch: FinishedBatch?, longest: Double = .infinity) throws -> (lease: Lease, first: Bool?) {
        let (lease, first) = try step(finishing: batch, lease: true, longest: longest)
        return (lease, first)
    }

    /// Finishes `batch` without leasing another: stores its results, its record (machine-
    /// labelled) and queues its leftovers if this machine is the first to finish it.
    /// Returns whether it was the first.
    @discardableResult
    public func finish(_ batch: FinishedBatch) throws -> Bool {
        try step(finishing: batch, lease: false).first ?? false
    }

    /// Finishes batch `id` with no results to store (`finish`).
    @discardableResult
    public func ack(_ id: Int, record: BatchRecord, leftovers: [QueuedBatch]) throws -> Bool {
        try finish(FinishedBatch(id: id, record: record, leftovers: leftovers))
    }

    /// Stores results that earn no retry, outside any batch's finish.
    public func store(_ results: [StoredResult]) throws {
        guard !results.isEmpty else { return }
        _ = try step(finishing: nil, results: results, lease: false)
    }

    /// `QueueScripts.step`: store, acknowledge, lease.
    private func step(finishing batch: FinishedBatch?, results extra: [StoredResult] = [], lease: Bool,
                      longest: Double = .infinity) throws -> (lease: Lease, first: Bool?) {
        let shape = self.shape
        let longestMs = longest.isFinite ? String(Int(max(0, longest) * 1000)) : "1e15"
        var args = [machine, String(Int(leaseTimeout * 1000)), String(Int(retryAvoidSeconds * 1000)), String(shape.shards),
                    String(shape.batchesPerShard), String(Int(shape.minimumBatchSeconds * 1000)), String(shape.maximumTests),
                    String(shape.maximumBytes), lease ? "1" : "0", longestMs]
        let results = extra + (batch?.results ?? [])
        args.append(String(results.count))
        for r in results {
            var attempt = r.attempt
            attempt.machine = machine
            let (field, entry) = resultField(r.test, quarantined: r.quarantined, attempt: attempt)
            args += [field, entry, secondField(field, attempt)]
        }
        if let batch {
            var record = batch.record
            record.machine = machine
            args += [String(batch.id), tagged(json(JournalEntry.batch(record)))] + batch.leftovers.map(json)
        } else {
            args.append("")
        }
        let reply = try run(QueueScripts.step, args: args)
        let parts = reply.array ?? []
        guard let ack = parts.first?.integer else {
            throw QueueError("the queue \(address) answered a lease with \(reply); is it a robotci queue of this version?")
        }
        let first: Bool? = ack < 0 ? nil : ack == 1
        let rest = Array(parts.dropFirst())
        switch rest.first?.text {
        case "batch":
            let (id, batch) = try leasedBatch(rest)
            return (.batch(id: id, batch), first)
        case "done": return (.done, first)
        case "none": return (.wait, first)
        case "stopped": return (.stopped(reason: rest.count > 1 ? rest[1].text ?? "stopped" : "stopped"), first)
        case "missing":
            let id = rest.count > 1 ? rest[1].text ?? "?" : "?"
            throw QueueLost(.batchMissing(id: Int(id) ?? 0), "lost the queue \(address): batch \(id) is queued but its tests are gone "
                            + "(the key \(batches) was evicted or deleted mid-run); the run is marked lost")
        case "wait": return (.wait, first)
        default: throw QueueError("the queue \(address) answered a lease with \(reply); is it a robotci queue of this version?")
        }
    }

    /// Stops the run on every machine: later leases answer `.stopped(reason)`.
    public func stop(reason: String) throws {
        _ = try run(QueueScripts.stop, args: [reason])
    }

    /// Why another machine stopped the run, if one did (read by the heartbeat, so machines
    /// busy with long batches hear of it too).
    public func stopReason() throws -> String? {
        try withConnection { c in try c.command(["HGET", plan, "stopped"]) }.text
    }

    /// Extends the leases of `ids`; returns those this machine no longer holds.
    @discardableResult
    public func heartbeat(_ ids: [Int]) throws -> [Int] {
        let reply = try run(QueueScripts.heartbeat, args: [machine, String(Int(leaseTimeout * 1000))] + ids.map(String.init))
        try touch()
        return (reply.array ?? []).compactMap { $0.text.flatMap(Int.init) }
    }

    /// Stores an attempt (labelled with this machine); queues `retry` if this is the first
    /// result for the attempt. Returns false for a second result of the attempt (a batch
    /// that ran twice): it is kept too, and counts in the verdict, but queues nothing.
    @discardableResult
    public func record(_ test: TestID, quarantined: Bool, attempt: Attempt, retry: QueuedBatch?) throws -> Bool {
        var attempt = attempt
        attempt.machine = machine
        let (field, entry) = resultField(test, quarantined: quarantined, attempt: attempt)
        let second = secondField(field, attempt)
        let reply = try run(QueueScripts.record, args: [field, entry, retry.map(json) ?? "", second])
        return (reply.integer ?? 0) > 0
    }

    /// Registers (or updates) this machine's run metadata, for the merged report's lanes.
    public func announce(_ metadata: RunMetadata) throws {
        _ = try withConnection { c in try c.command(["HSET", machines, tagged(machine), json(metadata)]) }
    }

    /// This machine is finished: it stops counting as a live machine; keys get their TTL.
    public func leave(_ metadata: RunMetadata) throws {
        try announce(metadata)
        _ = try withConnection { c in try c.command(["ZREM", alive, machine]) }
        try touch()
    }

    /// A result's field (this run's nonce, test, attempt: a result of another run never
    /// counts) and its journal entry, labelled with this machine.
    /// The batch a lease handed out (`["batch", id, body]`). A body of another robotci version
    /// (format v2 named tests as text) or one written by hand is refused by its id, with what
    /// is wrong, never guessed at: running it could run tests nobody planned.
    private func leasedBatch(_ parts: [RedisReply]) throws -> (id: Int, batch: QueuedBatch) {
        guard parts.count == 3, let id = parts[1].text.flatMap(Int.init), let body = parts[2].text else {
            throw QueueError("the queue \(address) answered a lease with a malformed batch; is it a robotci queue of this version?")
        }
        do {
            return (id, try JSONDecoder().decode(QueuedBatch.self, from: Data(body.utf8)))
        } catch {
            throw QueueError("the queue \(address) holds batch \(id), which this robotci cannot read (\(DecodingFailure.describe(error))): "
                + "a queue written by another robotci version, or tampered with; use a new queue name for this version")
        }
    }

    private func resultField(_ test: TestID, quarantined: Bool, attempt: Attempt) -> (String, String) {
        var attempt = attempt
        attempt.machine = machine
        // The id's JSON (sorted keys: one text per identity); JSON escapes the separator.
        let field = tagged("\(json(test))\(Self.separator)\(attempt.number)")
        return (field, json(JournalEntry.attempt(test: test, quarantined: quarantined, attempt: attempt)))
    }

    /// The field of a second result of the same attempt (a batch that ran twice).
    private func secondField(_ field: String, _ attempt: Attempt) -> String {
        field + Self.separator + machine + Self.separator + String(attempt.start)
    }

    /// `text` prefixed with this run's nonce, for fields and list entries shared by runs.
    private func tagged(_ text: String) -> String { "\(nonce ?? "")\(Self.separator)\(text)" }

    /// After the run was lost: puts this machine's results back into the queue when its
    /// plan vanished (restoring the plan, marked lost) or another machine already did, so
    /// `robotci report --queue` names what ran and what never did. Never writes over a live
    /// plan or another run's. Returns what it did, in words.
    @discardableResult
    public func salvage(tests: [TestID], result: RunResult, metadata: RunMetadata) throws -> String {
        guard let nonce else { return "nothing (never joined)" }
        var pairs: [String] = []
        for t in result.tests {
            for a in t.attempts {
                let (field, entry) = resultField(t.id, quarantined: t.quarantined, attempt: a)
                pairs += [field, entry]
            }
        }
        let records = result.batches.map { b -> String in
            var b = b
            b.machine = machine
            return tagged(json(JournalEntry.batch(b)))
        }
        let reply = try run(QueueScripts.salvage, args: [nonce, RunPlan.digest(of: tests), String(tests.count), json(tests.sorted()), tagged(machine),
                                    json(metadata), String(pairs.count / 2)] + pairs + records)
        try touch()
        switch reply.array?.first?.text {
        case "restored": return "restored the run's plan (marked lost) with this machine's \(pairs.count / 2) results"
        case "added": return "added this machine's \(pairs.count / 2) results to the run (marked lost)"
        case "other": return "nothing: the queue now holds another run"
        default: return "nothing: the run's plan is live"
        }
    }

    /// (Re)sets the TTL of every key of the run.
    public func touch() throws {
        _ = try run(QueueScripts.expire, args: [String(Self.ttlSeconds)])
    }

    // MARK: reading the whole run (for `robotci report --queue`)

    /// Everything the queue holds about the run: its plan, per-machine metadata, every
    /// attempt (a late second result of an attempt too) and every batch record, of one run only (fields tagged with its
    /// nonce). With `nonce` (a machine at the end of its run), a plan that vanished or is
    /// another run's throws `QueueLost`; without (`robotci report --queue`), the plan's run.
    public func snapshot(nonce expected: String? = nil) throws -> QueueSnapshot {
        let (planReply, meta, results, records) = try withConnection { c in
            (try c.command(["HGETALL", plan]), try c.command(["HGETALL", machines]), try c.command(["HGETALL", self.results]),
             try c.command(["LRANGE", self.records, "0", "-1"]))
        }
        let fields = Self.pairs(planReply)
        guard let planned = fields["tests"].flatMap({ Int($0) }) else {
            if expected != nil { throw lostError(now: "", marked: false) }
            throw QueueError("no run named '\(address.name)' on \(address.host):\(address.port) (no plan key; it never started, was lost with Redis's data, or expired after \(Self.ttlSeconds / 3600) h)")
        }
        let runNonce = fields["nonce"] ?? ""
        if let expected, runNonce != expected {
            throw lostError(now: runNonce, marked: false)
        }
        let decoder = JSONDecoder()
        let list = fields["list"].flatMap { try? decoder.decode([TestID].self, from: Data($0.utf8)) }
        var snapshot = QueueSnapshot(plannedTests: planned)
        snapshot.nonce = runNonce
        snapshot.plan = list.map { RunPlan(tests: $0) }
        snapshot.finishedAt = fields["finished"].flatMap(Double.init).map { Date(timeIntervalSince1970: $0 / 1000) }
        snapshot.lost = fields["lost"] != nil
        snapshot.stopped = fields["stopped"]
        let prefix = runNonce + Self.separator
        func ours(_ text: String) -> Substring? { text.hasPrefix(prefix) ? text.dropFirst(prefix.count) : nil }
        for (name, body) in Self.pairs(meta) {
            guard let name = ours(name), let m = try? decoder.decode(RunMetadata.self, from: Data(body.utf8)) else { continue }
            snapshot.machines[String(name)] = m
        }
        for (field, text) in Self.pairs(results) where ours(field) != nil {
            if case .attempt(let test, let q, let a)? = try? decoder.decode(JournalEntry.self, from: Data(text.utf8)) {
                snapshot.attempts.append((test, q, a))
            }
        }
        for value in records.array ?? [] {
            if let text = value.text.flatMap(ours), case .batch(let b)? = try? decoder.decode(JournalEntry.self, from: Data(text.utf8)) {
                snapshot.batches.append(b)
            }
        }
        return snapshot
    }

    /// A HGETALL reply as field → value.
    private static func pairs(_ reply: RedisReply) -> [String: String] {
        let items = reply.array ?? []
        var result: [String: String] = [:]
        for i in stride(from: 0, to: items.count - 1, by: 2) {
            if let k = items[i].text, let v = items[i + 1].text { result[k] = v }
        }
        return result
    }
}
