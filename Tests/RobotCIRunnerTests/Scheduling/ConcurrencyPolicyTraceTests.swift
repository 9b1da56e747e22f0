@testable import RobotCIRunner
import XCTest

/// The policy replayed on recorded runs (`GovernorTrace`): what each window's pressure makes
/// of the limit, given the batches that ran then. Open loop (the recorded batches, not the
/// ones this limit would have let run), which is enough to show where the limit goes.
final class ConcurrencyPolicyTraceTests: XCTestCase {
    /// The limit after each window, from `policy`'s start; `ownKnown` false drops what
    /// robotci's tree used, which is how the governor saw every window before issue 50.
    private func replay(_ trace: GovernorTrace, _ policy: ConcurrencyPolicy, ownKnown: Bool = true) -> [Int] {
        var limit = policy.initialLimit
        return trace.windows.map { window in
            var pressure = window.pressure
            if !ownKnown { pressure.own = nil }
            limit = policy.nextLimit(limit: limit, running: window.running, pressure: pressure)
            return limit
        }
    }

    private func mean(_ limits: [Int]) -> Double { Double(limits.reduce(0, +)) / Double(max(limits.count, 1)) }

    /// Quiet machine, the UI suite's Chromiums saturate both cores: every saturated window is
    /// robotci's own, and a cold run falls from 8 to the floor without ever growing.
    func testQuietUISuiteStillBacksOffToTheFloor() {
        let policy = ConcurrencyPolicy(shards: 8, cores: 2)
        let trace = GovernorTrace.quietUISuite
        // The first window, browsers still starting, may read as others'; none after it.
        XCTAssertFalse(trace.windows.dropFirst().contains { policy.cause(of: $0.pressure) == .others }, "a UI suite's own pressure read as others'")
        let limits = replay(trace, policy)
        XCTAssertEqual(limits.last, 2)
        XCTAssertEqual(zip(limits, limits.dropFirst()).filter { $0 < $1 }.count, 0, "grew while its own tests saturated the CPU")
    }

    /// Two CPU-bound neighbours, the sleeping suite: the machine is always busy, yet the
    /// tests need no CPU, so the limit stays at (or comes straight back to) every shard.
    /// Before, every window counted and the full CPU forbade growth: held at 5 all run.
    func testSleepSuiteKeepsItsShardsNextToNeighbours() {
        let policy = ConcurrencyPolicy(shards: 8, cores: 2, learned: 8)
        let trace = GovernorTrace.sleepSuiteWithNeighbours
        let limits = replay(trace, policy)
        XCTAssertGreaterThanOrEqual(mean(limits), 7.5)
        XCTAssertEqual(limits.last, 8)
        XCTAssertGreaterThanOrEqual(limits.dropFirst().min() ?? 0, 7, "past the start, at most one batch held back")
        let before = replay(trace, policy, ownKnown: false)
        XCTAssertLessThanOrEqual(before.max() ?? 8, 5, "the old rule, for contrast: never back above 5")
    }

    /// Two neighbours, the UI suite: its browsers are most of the CPU robotci gets and its
    /// tests wait for a CPU, so it stays near the floor, as it did before (where the issue
    /// found the governor harmless: 5.5–5.8 s on, 5.2–5.7 s off).
    func testUISuiteNextToNeighboursStaysNearTheFloor() {
        let policy = ConcurrencyPolicy(shards: 8, cores: 2, learned: 2)
        let trace = GovernorTrace.uiSuiteWithNeighbours
        let causes = trace.windows.map { policy.cause(of: $0.pressure) }
        XCTAssertGreaterThan(causes.filter { $0 != .others }.count, causes.count * 4 / 5, "mostly robotci's or starved")
        let limits = replay(trace, policy)
        XCTAssertLessThanOrEqual(mean(limits), 3)
        XCTAssertEqual(limits.last, 2)
    }
}
