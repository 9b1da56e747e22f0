import RobotCICore
@testable import RobotCIRunner
import Testing

/// The one leftover rule both batch sources follow (WorkQueueTests covers it through the
/// local queue; queue mode has no unit test of its own for it).
@Suite struct LeftoverPolicyTests {
    let a = TestID("M.C/a"), b = TestID("M.C/b"), c = TestID("M.C/c")

    @Test func aFirstRunsLeftoversArePlannedAgainTogether() {
        var policy = LeftoverPolicy()
        let plan = policy.plan(attempt: 1, unstarted: [a, b], noTestStarted: false, isolate: [], stopped: false)
        #expect(plan == .init(alone: [], replanned: [a, b], givenUp: []))
    }

    @Test func aRetrysLeftoversRunAloneAtTheSameAttempt() {
        var policy = LeftoverPolicy()
        let plan = policy.plan(attempt: 2, unstarted: [a], noTestStarted: false, isolate: [], stopped: false)
        #expect(plan == .init(alone: [a], replanned: [], givenUp: []))
    }

    @Test func isolatedTestsRunAloneBeforeARetrysLeftovers() {
        var policy = LeftoverPolicy()
        #expect(policy.plan(attempt: 1, unstarted: [c], noTestStarted: false, isolate: [a, b], stopped: false)
            == .init(alone: [a, b], replanned: [c], givenUp: []))
        #expect(policy.plan(attempt: 3, unstarted: [c], noTestStarted: false, isolate: [a], stopped: false)
            == .init(alone: [a, c], replanned: [], givenUp: []))
    }

    @Test func aSecondLaunchFailureGivesUp() {
        var policy = LeftoverPolicy()
        #expect(policy.plan(attempt: 1, unstarted: [a, b], noTestStarted: true, isolate: [], stopped: false)
            == .init(alone: [], replanned: [a, b], givenUp: []))
        #expect(policy.plan(attempt: 1, unstarted: [a, b], noTestStarted: true, isolate: [], stopped: false)
            == .init(alone: [], replanned: [], givenUp: [a, b]))
    }

    @Test func launchFailuresCountPerTestAndOnlyWhenNothingStarted() {
        var policy = LeftoverPolicy()
        _ = policy.plan(attempt: 1, unstarted: [a], noTestStarted: true, isolate: [], stopped: false)
        // After a crash mid-batch the rest is no launch failure, however often it happens.
        for _ in 0..<3 {
            #expect(policy.plan(attempt: 1, unstarted: [b], noTestStarted: false, isolate: [], stopped: false).givenUp.isEmpty)
        }
        #expect(policy.plan(attempt: 1, unstarted: [b], noTestStarted: true, isolate: [], stopped: false).givenUp.isEmpty,
                "b's first launch failure")
        #expect(policy.plan(attempt: 1, unstarted: [a], noTestStarted: true, isolate: [], stopped: false).givenUp == [a])
    }

    @Test func aStoppedRunRunsNothingAgainButStillGivesUp() {
        var policy = LeftoverPolicy()
        #expect(policy.plan(attempt: 1, unstarted: [a], noTestStarted: true, isolate: [b], stopped: true)
            == .init(alone: [], replanned: [], givenUp: []))
        #expect(policy.plan(attempt: 1, unstarted: [a], noTestStarted: true, isolate: [], stopped: true)
            == .init(alone: [], replanned: [], givenUp: [a]), "the first failure was counted while stopped")
    }
}
