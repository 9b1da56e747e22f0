import RobotCICore
import Testing

@Suite struct TestDeadlineTests {
    @Test func tenTimesTheP95WithAFloorFromFiveRuns() throws {
        #expect(TestDeadline.fromHistory([0.02, 0.02, 0.02, 0.02]) == nil, "four runs are too few")
        let fast = try #require(TestDeadline.fromHistory([0.02, 0.021, 0.019, 0.025, 0.022]))
        #expect(fast.seconds == 10, "the floor")
        #expect(fast.rule.hasPrefix("history: 10 × p95 0.03 s of 5 passing runs"))
        let slow = try #require(TestDeadline.fromHistory([2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 6]))
        #expect(slow.seconds == 20, "p95 of 20 runs is the 19th: one slow outlier does not stretch the deadline")
        #expect(TestDeadline.fromHistory([3, 3, 3, 3, 30])?.seconds == 300, "with 5 runs the p95 is the slowest")
    }

    @Test func theShorterOfHistoryAndTheCeilingWins() throws {
        let id = TestID("M.C/testFast")
        let rules = try TestRules(retries: 1, testTimeout: 300, rules: [TestRule(match: "Slow", testTimeout: 5)])
            .learningDeadlines(from: ["M.C/testFast": [0.02, 0.02, 0.02, 0.02, 0.02], "M.Slow/testA": [0.1, 0.1, 0.1, 0.1, 0.1],
                                      "M.C/testLong": [100, 100, 100, 100, 100]])
        #expect(rules.deadline(for: id).seconds == 10)
        #expect(rules.deadline(for: id.repetition(2, of: 3)).seconds == 10, "a repetition has its test's history")
        #expect(rules.deadline(for: TestID("M.Slow/testA")) == TestDeadline(seconds: 5, rule: "rule 1's test-timeout"))
        #expect(rules.deadline(for: TestID("M.C/testLong")) == TestDeadline(seconds: 300, rule: "--test-timeout"), "the ceiling")
        #expect(rules.deadline(for: TestID("M.C/testNew")).rule == "--test-timeout", "no history")
        #expect(rules.testTimeout(for: id) == 10)
    }
}
