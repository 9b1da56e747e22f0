import Foundation
import ProcessToolkit
import RobotCICore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How busy the CPU was over the last sampling window, and how much of it was robotci's.
struct CPUPressure: Equatable, Sendable {
    /// Share of the window in which some runnable task waited for a CPU (PSI `some`, 0…1;
    /// from the load fallback: the share of samples with more runnable tasks than cores).
    var waiting: Double
    /// Share of the machine's CPU time that was busy (0…1; nil when unknown).
    var busy: Double?
    /// Cores' worth of CPU that robotci and every process it started used (nil when unknown:
    /// then all the pressure counts as robotci's, as before it could tell).
    var own: Double?
    /// Cores' worth of time the main threads of those processes (a test process's test
    /// thread, a browser's main thread) waited in a run queue, and ran (nil when unknown).
    var testsWaiting: Double?
    var testsRunning: Double?
}

/// Whose a window's CPU pressure is.
enum PressureCause: Equatable, Sendable {
    /// No pressure to speak of: the CPU is neither queueing nor full.
    case none
    /// robotci's tests use most of the busy CPU: fewer at once relieves it.
    case ours
    /// Other processes use most of it, robotci's tests a quarter or more, and they wait for a
    /// CPU at least twice as long as they run.
    case othersStarving
    /// Other processes use most of it, robotci's tests a quarter to a half, not starved: more
    /// at once would mostly take CPU from the others and add robotci's own contention.
    case partlyOurs
    /// Other processes make it and robotci's tests are not held up: fewer at once would
    /// relieve nothing and only lengthen the run.
    case others
}

/// The pure part of adaptive concurrency: from the pressure of the last window and whose it
/// was, how many batches may run at once. Kept free of I/O and clocks so it can be tested on
/// recorded windows.
///
/// Why this shape: a UI test (test process + Chromium's browser, renderer and GPU processes)
/// keeps more than one core busy on its own, so on a small runner `--shards 8` mostly adds
/// eight browsers' start-up and context switches. Shards only help while the machine has
/// spare CPU, which is what CPU pressure measures, but only pressure robotci's own tests make
/// is relieved by running fewer: on a host shared with CPU-bound neighbours the pressure is
/// always high, and holding a sleeping suite at two batches doubled its wall (issue 50). So
/// a window's pressure counts when robotci's process tree uses at least half of the busy CPU,
/// or when its tests are the ones starved; pressure from others alone lets the limit grow.
struct ConcurrencyPolicy: Equatable, Sendable {
    var shards: Int
    var cores: Int
    /// Above this waiting share the machine is saturated: no new batch starts.
    var saturated: Double = 0.30
    /// Below this (and with idle CPU) there is room: the limit grows.
    var relaxed: Double = 0.10
    /// Busy share above which the CPU counts as full even without queueing yet.
    var fullyBusy: Double = 0.85
    /// Share of the busy CPU robotci's tree must use for the pressure to be its own. Its
    /// tests then compete with each other more than with anyone else.
    var ownShare: Double = 0.5
    /// Share of the busy CPU from which robotci's tests are part of the pressure: below it
    /// (a sleeping suite's test processes starting next to neighbours use 0–0.3 of 2 busy
    /// cores) fewer at once relieves nothing, and the tests' waits are not counted either.
    var partShare: Double = 0.25
    /// Cores' worth of run-queue wait from which robotci's tests count as starved by others,
    /// when it is also `starvedRatio` times what they ran: each then gets a third of the CPU
    /// it asks for or less. Both, because a window in which eight test processes start next to
    /// two CPU-bound neighbours already waits 0.3–0.4 cores' worth, about as long as it runs
    /// (recorded in `ConcurrencyPolicyTraceTests`), and a sleeping suite is not starved by it.
    var starvedWaiting: Double = 0.25
    var starvedRatio: Double = 2

    /// What the last run of this suite on as many shards held (`RunHistory.Run.concurrency`):
    /// where this one starts.
    var learned: Int?

    init(shards: Int, cores: Int, learned: Int? = nil) {
        self.shards = max(1, shards)
        self.cores = max(1, cores)
        self.learned = learned
    }

    /// The least the limit falls to: as many batches as cores (never more than the shards).
    /// The pressure decides only what runs beyond one batch per core.
    /// Why a floor at the cores and not at one: a UI test also waits (page loads, IPC, mock
    /// delays), so one batch per core is not yet an overloaded machine. On the example with
    /// Chromium's headless shell, `--shards 2` on 2 cores was the faster for it, while a floor
    /// of one (the first version) held `--shards 8` at 1.2 batches on average, 15–30 % slower
    /// than `--shards 2` (bench/RESULTS.md, issue 31).
    var floor: Int { min(shards, cores) }

    /// The limit a run starts with: what the last run held, or without one every shard (the
    /// pressure lowers it within a window or two when the tests make it). A sleep- or
    /// I/O-bound suite then runs every shard from the start; a UI suite starts where it
    /// settled last time.
    var initialLimit: Int { clamp(learned ?? shards) }

    /// Where the next run on as many shards starts, from this one: the floor when robotci's
    /// own tests kept the CPU saturated in most of its windows (batches beyond one per core
    /// bought nothing but a browser and a process start each: the example on `--shards 8`, 2
    /// cores, started at 4 took 4–7 % more wall and CPU than started at 2, bench/RESULTS.md),
    /// else the mean it held (a suite that sleeps or waits keeps every shard).
    func nextStart(held mean: Double, tally: PressureTally) -> Int {
        if tally.windows >= 4 && Double(tally.ours) >= ownSaturation * Double(tally.windows) { return floor }
        return max(1, Int(mean.rounded()))
    }

    /// The share of windows robotci's own saturation must reach for `nextStart` to learn the floor.
    var ownSaturation = 0.8

    /// Whose the pressure of `pressure`'s window was.
    func cause(of pressure: CPUPressure) -> PressureCause {
        guard pressure.waiting >= relaxed || (pressure.busy ?? 0) >= fullyBusy else { return .none }
        guard let own = pressure.own else { return .ours }
        let busy = (pressure.busy ?? 1) * Double(cores)
        if own >= ownShare * busy { return .ours }
        guard own >= partShare * busy else { return .others }
        if let waited = pressure.testsWaiting, waited >= starvedWaiting, waited >= starvedRatio * (pressure.testsRunning ?? 0) {
            return .othersStarving
        }
        return .partlyOurs
    }

    /// The next limit, from the current `limit`, the batches `running` now and the last
    /// window's `pressure`. Never below `floor`, never above `shards`.
    /// - saturated, by robotci's tests or with them starved: hold back, and let one running
    ///   batch go without replacement (the limit falls to one below what runs, so a shard
    ///   that finishes does not start another);
    /// - room to spare (no pressure, or only others'): double, capped at twice what runs, so
    ///   a burst of starts is never decided on a window that did not yet see them;
    /// - robotci's pressure in between, or a quarter to a half of it robotci's: keep.
    func nextLimit(limit: Int, running: Int, pressure: CPUPressure?) -> Int {
        guard let pressure else { return shards }  // no signal: behave as without the governor
        let limit = clamp(limit)
        switch cause(of: pressure) {
        case .none, .others:
            return running >= limit ? clamp(min(limit * 2, max(running, 1) * 2)) : limit
        case .ours, .othersStarving:
            return pressure.waiting >= saturated ? clamp(min(limit, running - 1)) : limit
        case .partlyOurs:
            return limit
        }
    }

    /// `n` within the floor and the shards.
    func clamp(_ n: Int) -> Int { min(shards, max(floor, n)) }
}

/// Cumulative counters the sampler turns into a `CPUPressure` per window.
struct PressureCounters: Equatable, Sendable {
    /// PSI `some total` (µs), or with the load fallback the running count of windows'
    /// saturated samples (scaled to µs of the sampling interval).
    var stalledMicroseconds: UInt64
    /// /proc/stat jiffies: busy and all.
    var busyJiffies: UInt64?
    var allJiffies: UInt64?
    /// robotci's own process tree.
    var own: ProcessTreeLoad.Reading?
}

/// Reads the machine's CPU pressure (Linux PSI, `/proc/pressure/cpu`, else `/proc/loadavg`'s
/// runnable count against the cores) and what robotci's own processes used of it, all
/// through `ProcessTable`.
struct PressureSampler: Sendable {
    let cores: Int
    private let hasPSI: Bool
    /// robotci's process and everything it started: nil reads every pressure as robotci's.
    private var tree: ProcessTreeLoad?

    init(cores: Int = ProcessInfo.processInfo.activeProcessorCount, ownLoad: Bool = true) {
        self.cores = max(1, cores)
        // PSI can exist yet be disabled (psi=0): reading fails with EOPNOTSUPP, so probe it.
        hasPSI = ProcessTable.cpuStall() != nil
        tree = ownLoad ? ProcessTreeLoad() : nil
    }

    var hasSignal: Bool { hasPSI || ProcessTable.runnableTasks() != nil }
    var source: String { hasPSI ? "PSI" : "loadavg" }

    /// Cumulative counters now; `interval` (s) scales the load fallback's sample.
    mutating func read(interval: Double) -> PressureCounters? {
        let jiffies = ProcessTable.cpuJiffies()
        let own = tree?.read()
        if hasPSI, let total = ProcessTable.cpuStall() {
            return PressureCounters(stalledMicroseconds: total, busyJiffies: jiffies?.busy, allJiffies: jiffies?.all, own: own)
        }
        // Fallback: one sample of the kernel's runnable count (includes this reader). More
        // runnable than cores: the whole interval counts as waiting.
        guard let runnable = ProcessTable.runnableTasks() else { return nil }
        let waited = runnable - 1 > cores ? UInt64(interval * 1e6) : 0
        return PressureCounters(stalledMicroseconds: waited, busyJiffies: jiffies?.busy, allJiffies: jiffies?.all, own: own)
    }

    /// The pressure between two readings `seconds` apart. With the load fallback each reading
    /// is a sample, not a running total, so `later` alone is the window.
    func pressure(from earlier: PressureCounters, to later: PressureCounters, seconds: Double) -> CPUPressure {
        let window = max(seconds, 0.001)
        let stalled = hasPSI ? Double(later.stalledMicroseconds &- earlier.stalledMicroseconds) : Double(later.stalledMicroseconds)
        var pressure = CPUPressure(waiting: min(1, max(0, stalled / 1e6 / window)))
        if let b0 = earlier.busyJiffies, let b1 = later.busyJiffies, let a0 = earlier.allJiffies, let a1 = later.allJiffies, a1 > a0 {
            pressure.busy = min(1, Double(b1 &- b0) / Double(a1 - a0))
        }
        if let a = earlier.own, let b = later.own {
            // A process that ended between its parent's stat and its own can dip the tree's
            // total for a window: never below nothing.
            pressure.own = max(0, b.cpu - a.cpu) / window
            pressure.testsWaiting = max(0, b.waited - a.waited) / window
            pressure.testsRunning = max(0, b.ran - a.ran) / window
        }
        return pressure
    }
}

/// How many sampling windows found the CPU saturated, and whose the pressure was: what the
/// summary line says the governor decided from.
struct PressureTally: Equatable, Sendable {
    var windows = 0
    var ours = 0
    var othersStarving = 0
    var partlyOurs = 0
    var others = 0

    mutating func count(_ cause: PressureCause, saturated: Bool) {
        windows += 1
        guard saturated else { return }
        switch cause {
        case .ours: ours += 1
        case .othersStarving: othersStarving += 1
        case .partlyOurs: partlyOurs += 1
        case .others: others += 1
        case .none: break
        }
    }

    /// `CPU saturated 21 % of the run: by robotci's tests 2 %, by others 19 % (ignored 17 %, held 2 %)`:
    /// held while robotci's tests used a quarter to a half of the CPU, backed off while they starved.
    var description: String {
        guard windows > 0 else { return "no window sampled" }
        func percent(_ n: Int) -> String { "\(Int((Double(n) * 100 / Double(windows)).rounded())) %" }
        var others = ["ignored \(percent(self.others))"]
        if partlyOurs > 0 { others.append("held \(percent(partlyOurs))") }
        if othersStarving > 0 { others.append("backed off \(percent(othersStarving)), its tests starved") }
        let byOthers = self.others + partlyOurs + othersStarving
        return "CPU saturated \(percent(ours + byOthers)) of the run: by robotci's tests \(percent(ours)), "
            + "by others \(percent(byOthers)) (\(others.joined(separator: ", ")))"
    }
}

/// Gates the start of every batch: a shard asks before it takes work from the queue and says
/// when its batch is over. While the CPU is saturated, shards beyond the current limit wait
/// (re-checking every sampling interval), so `--shards 8` on two cores runs near the best
/// effective count instead of eight browsers at once. Never fewer than one running batch.
/// Waiting shards are let in warm first: a shard that has run a batch (its browser is up)
/// before one that never has, lowest index first within each. A shard whose batch just ended
/// is counted as waiting at once, because it asks again straight away: without that, a cold
/// shard took the slot in the moment between, and over a held-back run every shard started
/// a browser of its own. Every waiting shard still gets in once the limit allows it or the
/// warm ones find the queue empty, so none starves.
/// Also records how many batches ran over time, for the summary and the report's timeline.
final class ConcurrencyGovernor: Sendable {
    let policy: ConcurrencyPolicy
    let enabled: Bool
    let interval: Double
    private let sampler: PressureSampler?
    private let clock: RunClock

    /// What the shards and the sampling thread share.
    private struct State {
        var limit: Int
        /// Shards let in (running a batch, or waiting in the queue for one).
        var running = 0
        /// Shards running a batch: what the series records.
        var active = 0
        var waiting = Set<Int>()
        /// Shards that have run a batch: their browsers are warm.
        var warm = Set<Int>()
        var finished = false
        var samples: [ConcurrencySample] = []
        var tally = PressureTally()
        var resolution: Double
        /// Most samples kept: beyond it the series is thinned to half and recorded coarser.
        let maxSamples = 600

        /// The waiting shard to let in next: the lowest warm one, else the lowest.
        var next: Int? { waiting.filter(warm.contains).min() ?? waiting.min() }

        /// Appends (`now`, running), folding changes closer than the resolution into the last
        /// point (its value becomes the latest), and thinning the series when it grows too long.
        mutating func record(now: Double) {
            let t = (now * 1000).rounded() / 1000
            if let last = samples.last, t - last.time < resolution, samples.count > 1 {
                samples[samples.count - 1] = ConcurrencySample(time: last.time, running: active)
            } else {
                samples.append(ConcurrencySample(time: t, running: active))
            }
            if samples.count > maxSamples {
                samples = samples.enumerated().filter { $0.offset % 2 == 0 || $0.offset == samples.count - 1 }.map(\.element)
                resolution *= 2
            }
        }
    }

    private let state: LockedCondition<State>

    /// `enabled` false: every shard runs as soon as it asks (the series is still recorded).
    init(shards: Int, enabled: Bool, clock: RunClock, sampler: PressureSampler? = PressureSampler(), interval: Double = 0.1,
         learned: Int? = nil) {
        let cores = sampler?.cores ?? ProcessInfo.processInfo.activeProcessorCount
        policy = ConcurrencyPolicy(shards: shards, cores: cores, learned: learned)
        let usable = sampler.flatMap { $0.hasSignal ? $0 : nil }
        self.enabled = enabled && usable != nil && shards > 1
        self.sampler = usable
        self.clock = clock
        self.interval = interval
        state = LockedCondition(State(limit: self.enabled ? policy.initialLimit : policy.shards, resolution: interval))
    }

    /// How many batches are likely to run at once, which the batches are cut for: what
    /// `learned` (the newest run on as many shards that ran at least half as many tests)
    /// held, when this run is governed too; else every shard. Never one of several shards:
    /// one is the cutter's "alone" case, a single batch.
    /// Cutting for eight shards when the CPU holds three gives each of the three a tail of
    /// small batches and a process start for each (the example UI suite on `--shards 8`, 2
    /// cores: 22–23 batches against 14–17, 6 % of the run's CPU and wall, bench/RESULTS.md).
    /// Without such a run the cut stays at the shards, where the governor starts too: batches
    /// cut for two would hand out a quarter of an I/O-bound suite at a time, and a small
    /// filtered run holds few batches for want of work, not of CPU.
    func shardsAtOnce(learned: Int?) -> Int {
        guard enabled, let learned, policy.shards > 1 else { return policy.shards }
        return max(2, policy.clamp(learned))
    }

    /// Where the pressure comes from ("PSI", "loadavg"), for the summary.
    var signal: String { sampler?.source ?? "none" }

    /// Blocks until `shard` may start a batch.
    func acquire(shard: Int) {
        var asked = false
        state.wait(checkingEvery: interval) { s -> Void? in
            if !asked {
                s.waiting.insert(shard)
                asked = true
            }
            guard s.running < s.limit && s.next == shard else { return nil }
            s.waiting.remove(shard)
            s.running += 1
            state.broadcast()
            return ()
        }
    }

    /// `shard` got a batch from the queue and runs it.
    func began(shard: Int) {
        state.withLock { s in
            s.warm.insert(shard)
            s.active += 1
            s.record(now: clock.now())
        }
    }

    /// `shard`'s batch is over (`ran`), or it found no work. `askingAgain`: the shard asks for
    /// its next batch straight away (`ShardPool`'s loop), so it waits, first in line among the
    /// warm, from now on.
    func release(shard: Int, ran: Bool, askingAgain: Bool = false) {
        state.withLock { s in
            s.running -= 1
            if ran {
                s.active -= 1
                s.record(now: clock.now())
                if askingAgain { s.waiting.insert(shard) }
            }
            state.broadcast()
        }
    }

    /// Samples the pressure every interval and moves the limit until `stop()`. Runs on its
    /// own thread so the limit also falls while every shard is busy.
    func start() {
        guard enabled, let sampler else { return }
        let thread = Thread { [self] in
            var sampler = sampler
            var last = sampler.read(interval: interval)
            var lastTime = clock.now()
            while true {
                Thread.sleep(forTimeInterval: interval)
                if state.withLock({ $0.finished }) { return }
                let now = clock.now()
                let counters = sampler.read(interval: interval)
                let pressure = zip(last, counters).map { sampler.pressure(from: $0, to: $1, seconds: now - lastTime) }
                last = counters
                lastTime = now
                tick(pressure)
            }
        }
        thread.name = "robotci-governor"
        thread.stackSize = 1 << 18
        thread.start()
    }

    /// One sampling window's verdict: moves the limit and wakes the waiting shards.
    func tick(_ pressure: CPUPressure?) {
        guard enabled else { return }  // off means every shard, whatever the pressure
        state.withLock { s in
            s.limit = policy.nextLimit(limit: s.limit, running: s.running, pressure: pressure)
            if let pressure { s.tally.count(policy.cause(of: pressure), saturated: pressure.waiting >= policy.saturated) }
            state.broadcast()
        }
    }

    /// How the pressure was read and whose it was, for the summary line:
    /// `PSI; CPU saturated 41 % of the run: by robotci's tests 38 %, by others 3 % (not backed off for)`.
    var decisions: String { "\(signal); " + state.withLock { $0.tally.description } }

    /// The current limit (for tests and the summary).
    var currentLimit: Int { state.withLock { $0.limit } }

    /// Ends sampling; returns the series of running batches over the run, and where the next
    /// run on as many shards should start (nil when this one was not governed).
    func stop() -> (samples: [ConcurrencySample], next: Int?) {
        state.withLock { s in
            s.finished = true
            return (s.samples, enabled ? policy.nextStart(held: s.samples.mean, tally: s.tally) : nil)
        }
    }
}

private func zip<A, B>(_ a: A?, _ b: B?) -> (A, B)? {
    guard let a, let b else { return nil }
    return (a, b)
}
