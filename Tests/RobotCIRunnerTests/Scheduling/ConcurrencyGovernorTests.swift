import RobotCICore
@testable import RobotCIRunner
import XCTest

final class ConcurrencyPolicyTests: XCTestCase {
    private let policy = ConcurrencyPolicy(shards: 8, cores: 2)
    private let calm = CPUPressure(waiting: 0.01, busy: 0.2)
    private let saturated = CPUPressure(waiting: 0.6, busy: 1.0)
    private let between = CPUPressure(waiting: 0.2, busy: 0.9)

    /// A cold run (no history) starts every shard and decides from what it sees.
    func testColdStartsAtTheShardsAndNeverAboveThem() {
        XCTAssertEqual(policy.initialLimit, 8)
        XCTAssertEqual(ConcurrencyPolicy(shards: 1, cores: 4).initialLimit, 1)
        XCTAssertEqual(policy.nextLimit(limit: 8, running: 8, pressure: calm), 8)
    }

    /// What the last run held is where the next starts; the floor stays one batch per core,
    /// so a start learnt too high still falls under pressure.
    func testStartsWhereTheLastRunSettledAndStillFallsUnderPressure() {
        let learned = ConcurrencyPolicy(shards: 8, cores: 2, learned: 8)
        XCTAssertEqual(learned.initialLimit, 8, "a sleep suite: every shard at once")
        XCTAssertEqual(learned.nextLimit(limit: 8, running: 8, pressure: saturated), 7)
        XCTAssertEqual(learned.nextLimit(limit: 7, running: 3, pressure: saturated), 2, "down to the floor, as before")
        XCTAssertEqual(ConcurrencyPolicy(shards: 8, cores: 2, learned: 1).initialLimit, 2, "never below one batch per core")
        XCTAssertEqual(ConcurrencyPolicy(shards: 4, cores: 2, learned: 9).initialLimit, 4, "never above the shards")
        XCTAssertEqual(ConcurrencyPolicy(shards: 8, cores: 2, learned: 3).initialLimit, 3, "a UI suite: where it settled")
    }

    /// A sleeping suite (no pressure, idle CPU) held at the floor: 2 → 4 → 8 in two windows.
    func testCalmMachineDoublesWhileEveryAllowedShardRuns() {
        var limit = policy.floor
        var seen: [Int] = []
        for _ in 0..<3 {
            limit = policy.nextLimit(limit: limit, running: limit, pressure: calm)
            seen.append(limit)
        }
        XCTAssertEqual(seen, [4, 8, 8])
    }

    /// Growth needs demand: a limit nobody uses does not grow (else a burst could start at once).
    func testDoesNotGrowBeyondTwiceWhatRuns() {
        XCTAssertEqual(policy.nextLimit(limit: 2, running: 1, pressure: calm), 2)
        XCTAssertEqual(policy.nextLimit(limit: 1, running: 1, pressure: calm), 2)
    }

    /// Saturated: the limit falls below what runs, so a finishing batch is not replaced…
    func testSaturationHoldsBackStarts() {
        XCTAssertEqual(policy.nextLimit(limit: 8, running: 8, pressure: saturated), 7)
        XCTAssertEqual(policy.nextLimit(limit: 7, running: 3, pressure: saturated), 2)
    }

    /// …but never below one batch per core (nor below one on a machine with more cores than shards).
    func testNeverBelowOneBatchPerCore() {
        XCTAssertEqual(policy.nextLimit(limit: 2, running: 2, pressure: saturated), 2)
        XCTAssertEqual(policy.nextLimit(limit: 1, running: 0, pressure: saturated), 2)
        let oneCore = ConcurrencyPolicy(shards: 8, cores: 1)
        XCTAssertEqual(oneCore.nextLimit(limit: 1, running: 1, pressure: saturated), 1)
        XCTAssertEqual(ConcurrencyPolicy(shards: 1, cores: 4).nextLimit(limit: 1, running: 1, pressure: saturated), 1)
    }

    /// Busy CPU without queueing yet, or moderate queueing: keep.
    func testInBetweenKeepsTheLimit() {
        XCTAssertEqual(policy.nextLimit(limit: 3, running: 3, pressure: between), 3)
        XCTAssertEqual(policy.nextLimit(limit: 3, running: 3, pressure: CPUPressure(waiting: 0.0, busy: 0.95)), 3)
    }

    /// Whose the pressure is: robotci's when its tree uses at least half the busy CPU, or
    /// when nothing says how much it used; others' otherwise, unless the tests wait for a CPU
    /// at least twice as long as they run.
    func testCauseIsWhoseTheBusyCPUIs() {
        XCTAssertEqual(policy.cause(of: calm), .none)
        XCTAssertEqual(policy.cause(of: saturated), .ours, "no view of its own use: as before")
        XCTAssertEqual(policy.cause(of: CPUPressure(waiting: 0.6, busy: 1, own: 1.2)), .ours)
        XCTAssertEqual(policy.cause(of: CPUPressure(waiting: 0.6, busy: 1, own: 0.1, testsWaiting: 0.05, testsRunning: 0.01)), .others)
        XCTAssertEqual(policy.cause(of: CPUPressure(waiting: 0.6, busy: 1, own: 0.6, testsWaiting: 0.4, testsRunning: 0.35)), .partlyOurs,
                       "test processes starting next to neighbours wait about as long as they run: not starved")
        XCTAssertEqual(policy.cause(of: CPUPressure(waiting: 0.3, busy: 1, own: 0.1, testsWaiting: 0.78, testsRunning: 0.27)), .others,
                       "a sleeping suite's tests waiting as they start: too little of the CPU to count")
        XCTAssertEqual(policy.cause(of: CPUPressure(waiting: 0.6, busy: 1, own: 0.6, testsWaiting: 0.9, testsRunning: 0.3)), .othersStarving)
        XCTAssertEqual(policy.cause(of: CPUPressure(waiting: 0.0, busy: 1, own: 0.1)), .others, "full, no queue: still whose it is")
    }

    /// Others' pressure is room: the limit grows; robotci's or a starving one sheds.
    func testOnlyPressureThatPaysHoldsBack() {
        let others = CPUPressure(waiting: 0.6, busy: 1, own: 0.1, testsWaiting: 0.01, testsRunning: 0.01)
        XCTAssertEqual(policy.nextLimit(limit: 2, running: 2, pressure: others), 4)
        XCTAssertEqual(policy.nextLimit(limit: 8, running: 8, pressure: others), 8)
        let starving = CPUPressure(waiting: 0.6, busy: 1, own: 0.6, testsWaiting: 0.9, testsRunning: 0.3)
        XCTAssertEqual(policy.nextLimit(limit: 8, running: 8, pressure: starving), 7)
        let partly = CPUPressure(waiting: 0.6, busy: 1, own: 0.7, testsWaiting: 0.2, testsRunning: 0.3)
        XCTAssertEqual(policy.nextLimit(limit: 2, running: 2, pressure: partly), 2, "a quarter to a half robotci's: hold")
        let ours = CPUPressure(waiting: 0.6, busy: 1, own: 1.8)
        XCTAssertEqual(policy.nextLimit(limit: 8, running: 8, pressure: ours), 7)
        XCTAssertEqual(policy.nextLimit(limit: 3, running: 3, pressure: CPUPressure(waiting: 0.2, busy: 0.9, own: 1.7)), 3, "ours in between: keep")
    }

    /// The summary line's account of the windows.
    func testTallySaysWhoseThePressureWas() {
        var tally = PressureTally()
        tally.count(.ours, saturated: true)
        tally.count(.others, saturated: true)
        tally.count(.others, saturated: false)
        tally.count(.none, saturated: false)
        XCTAssertEqual(tally.description, "CPU saturated 50 % of the run: by robotci's tests 25 %, by others 25 % (ignored 25 %)")
        tally.count(.partlyOurs, saturated: true)
        tally.count(.othersStarving, saturated: true)
        tally.count(.none, saturated: false)
        tally.count(.none, saturated: false)
        XCTAssertEqual(tally.description,
                       "CPU saturated 50 % of the run: by robotci's tests 13 %, by others 38 % (ignored 13 %, held 13 %, backed off 13 %, its tests starved)")
        XCTAssertEqual(PressureTally().description, "no window sampled")
    }

    /// A run its own tests kept saturated teaches the next to start at one batch per core;
    /// one that was not, or only partly, the mean it held.
    func testTheNextRunStartsAtTheFloorAfterARunItsTestsSaturated() {
        func tally(ours: Int, of windows: Int) -> PressureTally {
            var t = PressureTally()
            for i in 0..<windows { t.count(i < ours ? .ours : .none, saturated: i < ours) }
            return t
        }
        XCTAssertEqual(policy.nextStart(held: 4.4, tally: tally(ours: 9, of: 10)), 2, "saturated 90 %: the floor (2 cores)")
        XCTAssertEqual(policy.nextStart(held: 4.4, tally: tally(ours: 5, of: 10)), 4, "half: what it held")
        XCTAssertEqual(policy.nextStart(held: 7.6, tally: tally(ours: 0, of: 10)), 8, "a sleeping suite keeps every shard")
        XCTAssertEqual(policy.nextStart(held: 4.4, tally: tally(ours: 3, of: 3)), 4, "too few windows to say")
        XCTAssertEqual(policy.nextStart(held: 0.2, tally: PressureTally()), 1)
    }

    func testNoSignalMeansEveryShard() {
        XCTAssertEqual(policy.nextLimit(limit: 2, running: 2, pressure: nil), 8)
    }

    func testLoadFallbackPressureIsTheSample() {
        let sampler = PressureSampler(cores: 2)
        let a = PressureCounters(stalledMicroseconds: 1_000_000, busyJiffies: 100, allJiffies: 200)
        let b = PressureCounters(stalledMicroseconds: 1_050_000, busyJiffies: 150, allJiffies: 300)
        let p = sampler.pressure(from: a, to: b, seconds: 0.1)
        XCTAssertEqual(p.busy ?? -1, 0.5, accuracy: 1e-9)
        if sampler.source == "PSI" { XCTAssertEqual(p.waiting, 0.5, accuracy: 1e-9) }
    }

    func testSeriesMeanIsTimeWeighted() {
        let series = [ConcurrencySample(time: 0, running: 2), ConcurrencySample(time: 1, running: 4), ConcurrencySample(time: 2, running: 0)]
        XCTAssertEqual(series.mean, 3, accuracy: 1e-9)
        XCTAssertEqual(series.peak, 4)
        XCTAssertEqual([ConcurrencySample]().mean, 0)
    }

    func testSampleEncodesAsAPair() throws {
        let data = try JSONEncoder().encode([ConcurrencySample(time: 1.5, running: 3)])
        XCTAssertEqual(String(decoding: data, as: UTF8.self), "[[1.5,3]]")
        XCTAssertEqual(try JSONDecoder().decode([ConcurrencySample].self, from: data), [ConcurrencySample(time: 1.5, running: 3)])
    }
}

/// The gate itself, driven by hand (`tick`), its sampling thread never started.
final class ConcurrencyGovernorTests: XCTestCase {
    private func governor(shards: Int, enabled: Bool = true, cores: Int = 2) throws -> ConcurrencyGovernor {
        let sampler = PressureSampler(cores: cores)
        try XCTSkipUnless(sampler.hasSignal, "no /proc/pressure/cpu or /proc/loadavg here")
        return ConcurrencyGovernor(shards: shards, enabled: enabled, clock: RunClock(), sampler: sampler, interval: 0.01)
    }

    /// Saturated from the start: the third shard waits until one of the two finishes.
    func testHeldBackShardStartsWhenARunningOneFinishes() throws {
        let g = try governor(shards: 3)
        g.tick(CPUPressure(waiting: 0.9, busy: 1))  // saturated before any batch: down to the floor, 2
        g.acquire(shard: 0); g.began(shard: 0)
        g.acquire(shard: 1); g.began(shard: 1)
        let started = expectation(description: "shard 2 starts")
        let flag = Flag()
        Thread {
            g.acquire(shard: 2)
            flag.set()
            started.fulfill()
        }.start()
        Thread.sleep(forTimeInterval: 0.1)
        XCTAssertFalse(flag.isSet, "a third batch started while two ran at the limit")
        g.release(shard: 0, ran: true)
        wait(for: [started], timeout: 5)
        g.began(shard: 2)
        g.release(shard: 1, ran: true)
        g.release(shard: 2, ran: true)
        let series = g.stop().samples
        XCTAssertEqual(series.peak, 2)
        XCTAssertEqual(series.last?.running, 0)
    }

    /// What the batches are cut for: what a comparable last run held when this one is
    /// governed too; without one, or with the governor off, every shard; never one of several
    /// (the cutter's "alone" case), even on one core.
    func testShardsAtOnceIsWhatTheLastRunHeld() throws {
        func g(shards: Int = 8, enabled: Bool = true, cores: Int = 2) throws -> ConcurrencyGovernor {
            let sampler = PressureSampler(cores: cores)
            try XCTSkipUnless(sampler.hasSignal, "no /proc/pressure/cpu or /proc/loadavg here")
            return ConcurrencyGovernor(shards: shards, enabled: enabled, clock: RunClock(), sampler: sampler, interval: 0.01)
        }
        XCTAssertEqual(try g().shardsAtOnce(learned: 3), 3)
        XCTAssertEqual(try g().shardsAtOnce(learned: 1), 2, "never below the cores the governor starts at")
        XCTAssertEqual(try g(cores: 1).shardsAtOnce(learned: 1), 2, "one core: still cut for two, not one batch")
        XCTAssertEqual(try g().shardsAtOnce(learned: 20), 8)
        XCTAssertEqual(try g().shardsAtOnce(learned: nil), 8, "no comparable run: the ramp is not yet known")
        XCTAssertEqual(try g(enabled: false).shardsAtOnce(learned: 3), 8, "ungoverned: every shard runs")
        XCTAssertEqual(try g(shards: 1).shardsAtOnce(learned: 1), 1)
    }

    /// Off: every shard gets in at once, whatever the pressure.
    func testDisabledLetsEveryShardIn() throws {
        let g = try governor(shards: 4, enabled: false)
        g.tick(CPUPressure(waiting: 1, busy: 1))
        for shard in 0..<4 { g.acquire(shard: shard) }
        XCTAssertEqual(g.currentLimit, 4)
    }

    /// With one slot free and two shards waiting, the lower index goes first.
    func testLowestWaitingShardGoesFirst() throws {
        let g = try governor(shards: 3, cores: 1)
        g.tick(CPUPressure(waiting: 0.9, busy: 1))
        XCTAssertEqual(g.currentLimit, 1)
        g.acquire(shard: 1)
        let order = OrderLog()
        let done = expectation(description: "both waiting shards ran")
        done.expectedFulfillmentCount = 2
        for shard in [2, 0] {
            Thread {
                g.acquire(shard: shard)
                order.append(shard)
                g.release(shard: shard, ran: false)
                done.fulfill()
            }.start()
            Thread.sleep(forTimeInterval: 0.05)
        }
        g.release(shard: 1, ran: false)
        wait(for: [done], timeout: 5)
        XCTAssertEqual(order.values, [0, 2])
    }

    /// A shard whose batch just ended and that asks again (its browser warm) goes before a
    /// cold shard waiting with a lower index; the cold one gets in when the warm one finds no
    /// more work. Without `askingAgain`, the waiting cold shard takes the slot.
    func testAWarmShardAskingAgainGoesBeforeAColdOne() throws {
        for askingAgain in [true, false] {
            let g = try governor(shards: 3, cores: 1)
            g.tick(CPUPressure(waiting: 0.9, busy: 1))
            XCTAssertEqual(g.currentLimit, 1)
            g.acquire(shard: 2)
            g.began(shard: 2)
            let order = OrderLog()
            let coldIn = expectation(description: "the cold shard ran")
            Thread {
                g.acquire(shard: 0)
                order.append(0)
                g.release(shard: 0, ran: false)
                coldIn.fulfill()
            }.start()
            Thread.sleep(forTimeInterval: 0.05)
            g.release(shard: 2, ran: true, askingAgain: askingAgain)
            Thread.sleep(forTimeInterval: 0.05)  // the moment in which a cold shard used to win
            let warmIn = expectation(description: "the warm shard ran again")
            Thread {
                g.acquire(shard: 2)
                order.append(2)
                g.release(shard: 2, ran: false)
                warmIn.fulfill()
            }.start()
            wait(for: [coldIn, warmIn], timeout: 5)
            XCTAssertEqual(order.values, askingAgain ? [2, 0] : [0, 2], "askingAgain: \(askingAgain)")
        }
    }
}

private final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    func set() { lock.withLock { value = true } }
    var isSet: Bool { lock.withLock { value } }
}

private final class OrderLog: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [Int] = []
    func append(_ n: Int) { lock.withLock { items.append(n) } }
    var values: [Int] { lock.withLock { items } }
}
