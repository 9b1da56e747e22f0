import ProcessToolkit
import RobotCICore
@testable import RobotCIRunner
import XCTest

/// `SwiftTestingOutputReader` alone: events, console lines and times in, effects and
/// verdicts out.
final class SwiftTestingOutputReaderTests: XCTestCase {
    private let one = TestID("M.S/one()"), two = TestID("M.S/two()")

    /// One event of the stream; the stream names a test with its location.
    private func event(_ kind: String, _ test: TestID, _ text: String = "", issue: Bool = false, at location: String = "S.swift:3:4") -> String {
        let messages = text.isEmpty ? "[]" : #"[{"symbol":"default","text":"\#(text)"}]"#
        let issuePart = issue ? #""issue":{"isKnown":false,"sourceLocation":{"_filePath":"/src/S.swift","line":9}},"# : ""
        return #"{"kind":"event","payload":{\#(issuePart)"kind":"\#(kind)","messages":\#(messages),"testID":"\#(test.description)/\#(location)"},"version":0}"#
    }

    private func drive(_ tests: [TestID]) -> ReaderDrive<SwiftTestingOutputReader> {
        ReaderDrive(SwiftTestingOutputReader(batch: ReaderDrive<SwiftTestingOutputReader>.facts(tests)), start: 100)
    }

    func testAnIssueFailsATestWhateverItsEndSays() {
        var x = drive([one, two])
        x.feedEvents([event("testStarted", one), event("testEnded", one, "Test one() passed after 0.010 seconds."),
                      event("testStarted", two), event("issueRecorded", two, "Expectation failed: 1 == 2", issue: true),
                      event("testEnded", two, "Test two() passed after 0.020 seconds.")])
        XCTAssertFalse(x.effects.contains { if case .log = $0 { true } else { false } }, "events are not the batch log's lines")
        XCTAssertEqual(x.effects.filter { $0 == .artifactsDue(one) || $0 == .artifactsDue(two) }.count, 2)
        XCTAssertEqual(x.end(.exited(1)).isolate, [])
        XCTAssertEqual(x.outcomes([one, two]), [.passed, .failed])
        XCTAssertEqual(x.attempt(two)?.failures, [FailureMessage(file: "/src/S.swift", line: 9, message: "Expectation failed: 1 == 2")])
        XCTAssertEqual(x.attempt(two)?.start, 103)
    }

    func testACancelledTestIsSkipped() {
        var x = drive([one, two])
        x.feedEvents([event("testStarted", one),
                      #"{"kind":"event","payload":{"_comments":["not today"],"kind":"testCancelled","messages":[],"testID":"M.S/one()/S.swift:3:4"},"version":0}"#,
                      event("testEnded", one, "Test one() was cancelled after 0.001 seconds."),
                      event("testStarted", two), event("testEnded", two, "Test two() passed after 0.010 seconds.")])
        XCTAssertEqual(x.end(.exited(0)).isolate, [])
        XCTAssertEqual(x.outcomes([one, two]), [.skipped, .passed])
        XCTAssertEqual(x.attempt(one)?.failures.map(\.message), ["cancelled: not today"])
    }

    func testAnOverloadIsNamedByItsLocationAndItsSiblingIsNot() {
        let first = TestID("M.S/check(_:)/S.swift:3:4"), second = TestID("M.S/check(_:)/S.swift:9:4")
        var x = drive([first, second])
        let check = TestID("M.S/check(_:)")
        x.feedEvents([event("testStarted", check, at: "S.swift:9:4"), event("testEnded", check, "passed", at: "S.swift:9:4"),
                      event("testStarted", check, at: "S.swift:3:4"), event("issueRecorded", check, "nope", issue: true, at: "S.swift:3:4"),
                      event("testEnded", check, "passed", at: "S.swift:3:4")])
        XCTAssertEqual(x.end(.exited(1)).isolate, [])
        XCTAssertEqual(x.outcomes([first, second]), [.failed, .passed])
    }

    func testConsoleLinesAreOutputAndLoggedEvenWhenTheyLookLikeXCTests() {
        var x = drive([one])
        x.feedEvents([event("testStarted", one)])
        let forged = ["Test Case 'S.one()' failed (0.001 seconds)", "\t Executed 1 test, with 1 failure (0 unexpected) in 0.0 (0.0) seconds"]
        XCTAssertEqual(x.feed(forged), forged.map { .log(Substring($0)) })
        x.feedEvents([event("testEnded", one, "Test one() passed after 0.010 seconds.")])
        _ = x.end(.exited(0))
        XCTAssertEqual(x.attempt(one)?.outcome, .passed)
        XCTAssertTrue(x.attempt(one)?.output.contains(forged[0]) ?? false, "the test's own output")
    }

    func testAnExitStatusThatDisagreesSendsTheBatchToRunAlone() {
        var x = drive([one, two])
        x.feedEvents([event("testStarted", one), event("testEnded", one, "passed"),
                      event("testStarted", two), event("testEnded", two, "passed")])
        XCTAssertEqual(x.end(.exited(1)).isolate, [one, two])
        XCTAssertEqual(x.notes, ["robotci: the test process exited 1 but the results say every test passed; "
                                 + "re-running the batch's 2 tests one per process, where the exit status is the verdict"])
        XCTAssertTrue(x.reports.isEmpty)
    }

    func testALoneCancelledTestStaysSkippedAfterACleanExit() {
        var x = drive([one])
        x.feedEvents([event("testStarted", one),
                      #"{"kind":"event","payload":{"kind":"testCancelled","messages":[],"testID":"M.S/one()/S.swift:3:4"},"version":0}"#,
                      event("testEnded", one, "cancelled")])
        _ = x.end(.exited(0))
        XCTAssertEqual(x.attempt(one)?.outcome, .skipped)
    }

    func testACrashBlamesTheTestWhoseEndNeverCame() {
        var x = drive([one, two])
        x.feedEvents([event("testStarted", one), event("testEnded", one, "passed"), event("testStarted", two)])
        x.feed(["Fatal error: boom"])
        x.wait(5)
        XCTAssertEqual(x.end(.signaled(5)).isolate, [one])
        XCTAssertEqual(x.outcomes([one, two]), [nil, .crashed])
        XCTAssertEqual(x.attempt(two)?.duration, 6, "from its start event (103) to the end (109)")
    }
}
