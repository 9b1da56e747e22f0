import Foundation
import RobotCICore
import XCTest

final class JournalEntryTests: XCTestCase {
    private let encoder: JSONEncoder = {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return e
    }()

    private func roundTrip(_ entry: JournalEntry, file: StaticString = #filePath, line: UInt = #line) throws -> [String: Any] {
        let data = try encoder.encode(entry)
        XCTAssertEqual(try JSONDecoder().decode(JournalEntry.self, from: data), entry, file: file, line: line)
        XCTAssertFalse(data.contains(UInt8(ascii: "\n")), "one entry is one line", file: file, line: line)
        return try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any], file: file, line: line)
    }

    private func decode(_ json: String) throws -> JournalEntry {
        try JSONDecoder().decode(JournalEntry.self, from: Data(json.utf8))
    }

    func testRunAndFinishedRoundTrip() throws {
        var m = metadata(wallTime: 12.5)
        m.gitCommit = "abc123"
        m.partition = "2/4"
        let run = try roundTrip(.run(m))
        XCTAssertEqual(run["type"] as? String, "run")
        XCTAssertEqual((run["run"] as? [String: Any])?["runID"] as? String, "run-1")
        let finished = try roundTrip(.finished(m))
        XCTAssertEqual(finished["type"] as? String, "finished")
        XCTAssertNotNil(finished["run"], "finished stores its metadata under 'run' too")
    }

    func testBatchRoundTrip() throws {
        var b = BatchRecord(id: 3, shard: 1, start: 1, end: 2.5, tests: [TestID("M.A/t")], termination: "signal 4")
        b.machine = "m1"
        b.mockPort = 41000
        b.webDriverPort = 41001
        let json = try roundTrip(.batch(b))
        XCTAssertEqual(json["type"] as? String, "batch")
        XCTAssertEqual((json["batch"] as? [String: Any])?["tests"] as? [[String: String]], [["test": "M.A/t"]])
    }

    func testAttemptRoundTripOmitsQuarantinedWhenFalse() throws {
        let a = Attempt(number: 2, outcome: .failed, duration: 0.5, start: 3, placement: .init(shard: 1, batch: 4),
                        evidence: .init(
                            failures: [FailureMessage(file: "/w/T.swift", line: 9, message: "XCTAssertEqual failed: (\"1\") is not equal to (\"2\")")],
                            output: "line 1\nline \"2\"\u{1}\n",
                            artifacts: [Artifact(kind: .screenshot, path: "attachments/x/2/s.png")]))
        let plain = try roundTrip(.attempt(test: TestID("M.A/t"), quarantined: false, attempt: a))
        XCTAssertEqual(plain["type"] as? String, "attempt")
        XCTAssertEqual(plain["test"] as? [String: String], ["test": "M.A/t"])
        XCTAssertNil(plain["quarantined"])
        XCTAssertEqual((plain["attempt"] as? [String: Any])?["outcome"] as? String, "failed")
        let quarantined = try roundTrip(.attempt(test: TestID("M.A/t"), quarantined: true, attempt: a))
        XCTAssertEqual(quarantined["quarantined"] as? Bool, true)
    }

    func testAttemptWithoutQuarantinedKeyDecodesAsFalse() throws {
        let json = #"{"type":"attempt","test":{"test":"M.A/t"},"attempt":{"number":1,"outcome":"passed","duration":0.1,"start":0,"worker":0,"batch":0,"failures":[],"output":"","artifacts":[]}}"#
        XCTAssertEqual(try decode(json),
                       .attempt(test: TestID("M.A/t"), quarantined: false,
                                attempt: Attempt(number: 1, outcome: .passed, duration: 0.1, start: 0, placement: .init(shard: 0, batch: 0))))
    }

    func testUnknownTypeIsRejected() {
        XCTAssertThrowsError(try decode(#"{"type":"bogus"}"#)) { error in
            guard case DecodingError.dataCorrupted(let context) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(context.debugDescription, "unknown journal entry type 'bogus'")
        }
        XCTAssertThrowsError(try decode(#"{"run":{}}"#), "type is required")
        XCTAssertThrowsError(try decode(#"{"type":"attempt","test":"M.A/t"}"#), "attempt is required")
    }
}

final class RunResultJournalTests: XCTestCase {
    private let a = TestID("M.A/testA")
    private let b = TestID("M.B/testB")
    private let c = TestID("M.C/testC")

    private func batch(_ id: Int, _ start: Double, _ end: Double) -> BatchRecord {
        BatchRecord(id: id, shard: 0, start: start, end: end, tests: [], termination: "exit 0")
    }

    private var journal: [JournalEntry] {
        [
            .run(metadata(wallTime: 0)),
            .attempt(test: b, quarantined: false, attempt: attempt(.failed, number: 1, duration: 2, start: 0)),
            .attempt(test: a, quarantined: false, attempt: attempt(.passed, number: 1, duration: 1, start: 1)),
            .attempt(test: c, quarantined: true, attempt: attempt(.failed, number: 1, duration: 1, start: 2)),
            .batch(batch(0, 0, 3)),
            .attempt(test: b, quarantined: false, attempt: attempt(.passed, number: 2, duration: 4, start: 5)),
            .batch(batch(1, 4, 8.5)),
        ]
    }

    func testGroupsAttemptsPerTestInJournalOrder() {
        let result = RunResult(journal: journal)
        XCTAssertEqual(result.tests.map(\.id), [a, b, c], "tests sorted by id")
        XCTAssertEqual(result.tests[1].attempts.map(\.number), [1, 2])
        XCTAssertEqual(result.tests[1].attempts.map(\.outcome), [.failed, .passed])
        XCTAssertEqual(result.tests.map(\.outcome), [.passed, .flaky, .quarantined])
        XCTAssertEqual(result.tests.map(\.quarantined), [false, false, true])
        XCTAssertEqual(result.batches.map(\.id), [0, 1])
    }

    func testQuarantinedIfAnyEntrySaysSo() {
        let entries: [JournalEntry] = [
            .attempt(test: a, quarantined: true, attempt: attempt(.failed, number: 1)),
            .attempt(test: a, quarantined: false, attempt: attempt(.failed, number: 2)),
        ]
        let record = RunResult(journal: entries).tests.first
        XCTAssertEqual(record?.quarantined, true)
        XCTAssertEqual(record?.outcome, .quarantined)
    }

    func testWithoutFinishedIsInterruptedAndDerivesWallTime() {
        let result = RunResult(journal: journal)
        XCTAssertTrue(result.metadata.interrupted)
        XCTAssertEqual(result.metadata.runID, "run-1")
        // Last attempt ends at 5 + 4 = 9, after the last batch's 8.5.
        XCTAssertEqual(result.metadata.wallTime, 9)
    }

    func testWallTimeFromBatchWhenItEndsLast() {
        let entries = journal + [.batch(batch(2, 8, 11.25))]
        XCTAssertEqual(RunResult(journal: entries).metadata.wallTime, 11.25)
    }

    func testRecordedWallTimeWinsWhenLater() {
        var entries = journal
        entries[0] = .run(metadata(wallTime: 42))
        XCTAssertEqual(RunResult(journal: entries).metadata.wallTime, 42)
    }

    func testFinishedRunUsesItsMetadata() {
        let result = RunResult(journal: journal + [.finished(metadata(runID: "run-1", wallTime: 20))])
        XCTAssertFalse(result.metadata.interrupted)
        XCTAssertEqual(result.metadata.wallTime, 20)
        XCTAssertEqual(result.tests.count, 3)
    }

    func testFinishedMarkedInterruptedStaysInterrupted() {
        let result = RunResult(journal: journal + [.finished(metadata(wallTime: 7, interrupted: true))])
        XCTAssertTrue(result.metadata.interrupted)
        XCTAssertEqual(result.metadata.wallTime, 7)
    }

    func testEmptyJournal() {
        let result = RunResult(journal: [])
        XCTAssertEqual(result.metadata.runID, "unknown")
        XCTAssertTrue(result.metadata.interrupted)
        XCTAssertEqual(result.metadata.wallTime, 0)
        XCTAssertEqual(result.tests, [])
        XCTAssertEqual(result.batches, [])
        XCTAssertEqual(result.format, RunResult.formatName)
    }

    func testJSONLinesRoundTripRebuildsTheSameResult() throws {
        let encoder = JSONEncoder()
        let lines = try journal.map { String(decoding: try encoder.encode($0), as: UTF8.self) }.joined(separator: "\n")
        let decoded = try lines.split(separator: "\n").map { try JSONDecoder().decode(JournalEntry.self, from: Data($0.utf8)) }
        XCTAssertEqual(RunResult(journal: decoded), RunResult(journal: journal))
    }
}
