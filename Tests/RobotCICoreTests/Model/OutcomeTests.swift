import RobotCICore
import XCTest

final class OutcomeTests: XCTestCase {
    func testNoAttemptsIsNotRun() {
        XCTAssertEqual(Outcome.verdict(for: []), .notRun, "no attempt is never a pass nor a skip")
        XCTAssertEqual(Outcome.verdict(for: [], quarantined: true), .notRun, "quarantine does not hide a test that never ran")
    }

    func testSinglePass() {
        XCTAssertEqual(Outcome.verdict(for: [.passed]), .passed)
        XCTAssertEqual(Outcome.verdict(for: [.passed, .passed]), .passed)
    }

    func testFailedOnEveryAttemptIsFailed() {
        for n in 1...4 {
            XCTAssertEqual(Outcome.verdict(for: Array(repeating: .failed, count: n)), .failed, "\(n) failures")
        }
    }

    func testFailureThenPassIsFlaky() {
        XCTAssertEqual(Outcome.verdict(for: [.failed, .passed]), .flaky)
        XCTAssertEqual(Outcome.verdict(for: [.failed, .failed, .passed]), .flaky)
        XCTAssertEqual(Outcome.verdict(for: [.crashed, .passed]), .flaky)
        XCTAssertEqual(Outcome.verdict(for: [.timedOut, .passed]), .flaky)
        XCTAssertEqual(Outcome.verdict(for: [.timedOut, .crashed, .passed]), .flaky)
    }

    func testSkippedBeforePassIsNotFlaky() {
        XCTAssertEqual(Outcome.verdict(for: [.skipped, .passed]), .passed)
    }

    func testLastAttemptDecidesBetweenFailureKinds() {
        XCTAssertEqual(Outcome.verdict(for: [.crashed]), .crashed)
        XCTAssertEqual(Outcome.verdict(for: [.timedOut]), .timedOut)
        XCTAssertEqual(Outcome.verdict(for: [.failed, .crashed]), .crashed)
        XCTAssertEqual(Outcome.verdict(for: [.failed, .timedOut]), .timedOut)
        XCTAssertEqual(Outcome.verdict(for: [.crashed, .failed]), .failed)
        XCTAssertEqual(Outcome.verdict(for: [.timedOut, .failed]), .failed)
        XCTAssertEqual(Outcome.verdict(for: [.crashed, .timedOut]), .timedOut)
        XCTAssertEqual(Outcome.verdict(for: [.timedOut, .crashed]), .crashed)
        XCTAssertEqual(Outcome.verdict(for: [.passed, .failed]), .failed)
    }

    func testSkipped() {
        XCTAssertEqual(Outcome.verdict(for: [.skipped]), .skipped)
        XCTAssertEqual(Outcome.verdict(for: [.failed, .skipped]), .failed, "a retry that skips does not erase the failure")
        XCTAssertEqual(Outcome.verdict(for: [.crashed, .skipped]), .crashed)
    }

    func testQuarantineMasksOnlyBuildFailingVerdicts() {
        XCTAssertEqual(Outcome.verdict(for: [.failed], quarantined: true), .quarantined)
        XCTAssertEqual(Outcome.verdict(for: [.failed, .failed, .failed], quarantined: true), .quarantined)
        XCTAssertEqual(Outcome.verdict(for: [.crashed], quarantined: true), .quarantined)
        XCTAssertEqual(Outcome.verdict(for: [.timedOut], quarantined: true), .quarantined)
        XCTAssertEqual(Outcome.verdict(for: [.passed], quarantined: true), .passed)
        XCTAssertEqual(Outcome.verdict(for: [.failed, .passed], quarantined: true), .flaky)
        XCTAssertEqual(Outcome.verdict(for: [.skipped], quarantined: true), .skipped)
    }

    /// Every sequence of up to three attempts against the rules as written in the docs.
    func testEveryCombinationUpToThreeAttempts() {
        let all = AttemptOutcome.allCases
        var sequences: [[AttemptOutcome]] = []
        var level: [[AttemptOutcome]] = [[]]
        for _ in 1...3 {
            level = level.flatMap { s in all.map { s + [$0] } }
            sequences += level
        }
        XCTAssertEqual(sequences.count, 5 + 25 + 125)
        for s in sequences {
            let expected: Outcome
            switch s.last {
            case .passed: expected = s.contains { $0 == .failed || $0 == .crashed || $0 == .timedOut } ? .flaky : .passed
            case .failed: expected = .failed
            case .skipped:
                // A skip after a failure does not erase it: the last failure's kind stands.
                switch s.last(where: { $0 == .failed || $0 == .crashed || $0 == .timedOut }) {
                case .crashed?: expected = .crashed
                case .timedOut?: expected = .timedOut
                case .failed?: expected = .failed
                default: expected = .skipped
                }
            case .timedOut: expected = .timedOut
            case .crashed: expected = .crashed
            case nil: expected = .skipped
            }
            XCTAssertEqual(Outcome.verdict(for: s), expected, "\(s)")
            let masked: Outcome = [.failed, .timedOut, .crashed].contains(expected) ? .quarantined : expected
            XCTAssertEqual(Outcome.verdict(for: s, quarantined: true), masked, "\(s) quarantined")
        }
    }

    func testFailsBuild() {
        let failing = Outcome.allCases.filter(\.failsBuild)
        XCTAssertEqual(Set(failing), [.failed, .timedOut, .crashed, .notRun])
    }

    func testAttemptIsFailure() {
        XCTAssertEqual(Set(AttemptOutcome.allCases.filter(\.isFailure)), [.failed, .timedOut, .crashed])
    }

    func testRawValuesAreTheJSONNames() {
        XCTAssertEqual(Outcome.allCases.map(\.rawValue),
                       ["passed", "failed", "flaky", "skipped", "timedOut", "crashed", "quarantined", "notRun"])
        XCTAssertEqual(AttemptOutcome.allCases.map(\.rawValue), ["passed", "failed", "skipped", "timedOut", "crashed"])
    }

    // MARK: OutcomeCounts

    func testCountsEveryVerdict() {
        let id = TestID("M.C/t")
        let tests = [
            TestRecord(id: id, attempts: [attempt(.passed)]),
            TestRecord(id: id, attempts: [attempt(.passed)]),
            TestRecord(id: id, attempts: [attempt(.failed), attempt(.failed)]),
            TestRecord(id: id, attempts: [attempt(.failed), attempt(.passed)]),
            TestRecord(id: id, attempts: [attempt(.skipped)]),
            TestRecord(id: id, attempts: [attempt(.timedOut)]),
            TestRecord(id: id, attempts: [attempt(.timedOut)]),
            TestRecord(id: id, attempts: [attempt(.crashed)]),
            TestRecord(id: id, attempts: [attempt(.crashed)], quarantined: true),
            TestRecord(id: id, attempts: []),
        ]
        var expected = OutcomeCounts()
        expected.total = 10
        expected.passed = 2
        expected.failed = 1
        expected.flaky = 1
        expected.skipped = 1
        expected.timedOut = 2
        expected.crashed = 1
        expected.quarantined = 1
        expected.notRun = 1
        let counts = OutcomeCounts(tests)
        XCTAssertEqual(counts, expected)
        XCTAssertEqual(counts.failing, 5)
    }

    func testAddIncrementsTotalAndOneBucket() {
        var counts = OutcomeCounts()
        XCTAssertEqual(counts.total, 0)
        XCTAssertEqual(counts.failing, 0)
        for outcome in Outcome.allCases { counts.add(outcome) }
        XCTAssertEqual(counts.total, 8)
        XCTAssertEqual([counts.passed, counts.failed, counts.flaky, counts.skipped, counts.timedOut, counts.crashed,
                        counts.quarantined, counts.notRun], [1, 1, 1, 1, 1, 1, 1, 1])
        XCTAssertEqual(counts.failing, 4)
    }
}
