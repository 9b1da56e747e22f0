import RobotCICore

/// Tests whose process died before they started (a bundle that fails to load): such a test
/// goes back to the queue once, and the second time it is given up (recorded as crashed by
/// `AttemptRouter`). One count per batch source; callers hold their own lock.
struct LaunchFailures {
    private var counts: [TestID: Int] = [:]

    /// Splits a finished batch's unstarted tests into those to run again and those given up.
    mutating func sort(unstarted: [TestID], noTestStarted: Bool) -> (requeue: [TestID], givenUp: [TestID]) {
        guard noTestStarted else { return (unstarted, []) }
        var requeue: [TestID] = []
        var givenUp: [TestID] = []
        for test in unstarted {
            counts[test, default: 0] += 1
            if counts[test, default: 0] >= 2 { givenUp.append(test) } else { requeue.append(test) }
        }
        return (requeue, givenUp)
    }
}
