import RobotCICore
import XCTest

@testable import RobotCIRunner

/// The summary's one command that accepts a run's failed snapshots.
final class SnapshotAcceptanceTests: XCTestCase {
    private func attempt(_ outcome: AttemptOutcome, snapshot: Bool) -> Attempt {
        Attempt(number: 1, outcome: outcome, duration: 1, start: 0, placement: .init(shard: 0, batch: 0),
                evidence: .init(artifacts: snapshot ? [Artifact(kind: .snapshot, path: "a/snapshot-testA.page.json")] : []))
    }

    func testNamesExactlyTheFailedTestsWithASnapshotFailure() {
        let tests = [
            TestRecord(id: TestID("M.ProfileTests/testBadge"), attempts: [attempt(.failed, snapshot: true), attempt(.failed, snapshot: true)]),
            TestRecord(id: TestID("M.Suite/page()"), attempts: [attempt(.failed, snapshot: true)]),
            // Failed without a snapshot, and flaky with one: neither needs accepting.
            TestRecord(id: TestID("M.ProfileTests/testLogin"), attempts: [attempt(.failed, snapshot: false)]),
            TestRecord(id: TestID("M.ProfileTests/testFlaky"), attempts: [attempt(.failed, snapshot: true), attempt(.passed, snapshot: false)]),
        ]
        XCTAssertEqual(SnapshotAcceptance.command(for: tests),
                       #"robotci run --update-snapshots all --filter '^(M\.ProfileTests/testBadge|M\.Suite/page\(\))$'"#)
        XCTAssertNil(SnapshotAcceptance.command(for: Array(tests.suffix(2))))
        XCTAssertNil(SnapshotAcceptance.command(for: []))
    }

    func testTheFilterSelectsThemThroughTheRunsOwnRegexes() throws {
        let command = try XCTUnwrap(SnapshotAcceptance.command(for: [
            TestRecord(id: TestID("M.A/test.x"), attempts: [attempt(.failed, snapshot: true)]),
        ]))
        let pattern = String(command.split(separator: "'")[1])
        let regex = try NSRegularExpression(pattern: pattern)
        func matches(_ id: String) -> Bool { regex.firstMatch(in: id, range: NSRange(id.startIndex..., in: id)) != nil }
        XCTAssertTrue(matches("M.A/test.x"))
        XCTAssertFalse(matches("M.A/testXx"), "the dot is escaped")
        XCTAssertFalse(matches("M.A/test.x2"))
    }
}
