import RobotCICore

/// What becomes of a finished batch's tests that have no result: the one rule both batch
/// sources (`WorkQueue`, `RedisBatchSource`) follow; each lays the plan out in its own queue.
///
/// - Tests whose process died before any test started (a bundle that fails to load) go back
///   once; the second time they are given up (`AttemptRouter` records them as crashed).
/// - A first run's leftovers (the rest after a crash or a hang) are planned work again, as
///   one group; a retry's leftovers run alone, like every retry.
/// - Tests the driver asks to isolate (a command-driver batch ended without their result) run
///   again alone at the same attempt.
/// - Once the run is stopped nothing runs again; launch failures are still counted.
///
/// Not thread-safe: each source calls it under its own lock.
struct LeftoverPolicy {
    struct Plan: Equatable {
        /// Run again alone, at the batch's attempt: isolated tests first, then a retry's leftovers.
        var alone: [TestID] = []
        /// A first run's leftovers: planned again, together.
        var replanned: [TestID] = []
        /// Failed to launch twice: recorded as crashed, never run again.
        var givenUp: [TestID] = []
    }

    /// Times a test's process died before the test even started.
    private var launchFailures: [TestID: Int] = [:]

    mutating func plan(attempt: Int, unstarted: [TestID], noTestStarted: Bool, isolate: [TestID], stopped: Bool) -> Plan {
        var plan = Plan()
        var requeue = unstarted
        if noTestStarted {
            requeue = []
            for test in unstarted {
                launchFailures[test, default: 0] += 1
                if launchFailures[test, default: 0] >= 2 { plan.givenUp.append(test) } else { requeue.append(test) }
            }
        }
        guard !stopped else { return plan }
        plan.alone = isolate
        if attempt > 1 { plan.alone += requeue } else { plan.replanned = requeue }
        return plan
    }
}
