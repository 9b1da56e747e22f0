import Foundation
import ProcessToolkit
import RobotCICore
@testable import RobotCIRunner
import XCTest

/// `XCTestOutputReader` and `SwiftTestingOutputReader` fed a bundle process's lines by hand,
/// their effects applied by a `BatchRun` as `BundleDriver` does, without a process: which
/// verdicts they report when the process ends, which tests they send to run alone, and whom
/// they blame for a crash or a hang. The forged lines are those of `Tests/Fixtures/Forgery`
/// (end to end: ForgeryEndToEndTests), one case each.
final class BundleOutputReaderTests: XCTestCase {
    private let a = TestID("M.C/testA"), b = TestID("M.C/testB"), c = TestID("M.C/testC")

    /// XCTest's own lines, as corelibs-xctest prints them on Linux.
    private enum Line {
        static func start(_ t: TestID) -> String { "Test Case '\(t.outputName)' started at 2026-01-01 00:00:00.000" }
        static func passed(_ t: TestID) -> String { "Test Case '\(t.outputName)' passed (0.010 seconds)" }
        static func failed(_ t: TestID) -> String { "Test Case '\(t.outputName)' failed (0.020 seconds)" }
        static func error(_ t: TestID, _ message: String, line: Int = 12) -> String {
            "/src/CTests.swift:\(line): error: \(t.outputName) : \(message)"
        }
        static func summary(_ executed: Int, failures: Int, skipped: Int = 0) -> String {
            let skips = skipped > 0 ? "\(skipped) test\(skipped == 1 ? "" : "s") skipped and " : ""
            return "\t Executed \(executed) test\(executed == 1 ? "" : "s"), with \(skips)\(failures) failure\(failures == 1 ? "" : "s") "
                + "(0 unexpected) in 0.030 (0.030) seconds"
        }
    }

    /// One batch of `tests` (attempt 1) with its reader, whose effects the batch applies as
    /// `BundleDriver` does, and the run its reports go to.
    private struct Batch {
        let run: RunFixture
        let batch: BatchRun
        var reader: any BundleOutputReading

        /// Lines of the process's output, each at the time it is fed.
        mutating func feed(_ lines: [String]) {
            for line in lines { apply(reader.read(line: Substring(line), at: run.clock.now())) }
        }

        /// Lines of Swift Testing's event channel.
        mutating func feedEvents(_ lines: [String]) {
            for line in lines { apply(reader.read(event: Substring(line), at: run.clock.now())) }
        }

        /// The process ended: returns the tests to run again alone.
        mutating func end(_ end: ChildProcess.Termination, timedOut: Bool = false) -> [TestID] {
            let finished = reader.finish(end: end, timedOut: timedOut, now: run.clock.now())
            apply(finished.effects)
            return finished.isolate
        }

        /// The run was stopped early: returns the tests to run again alone.
        mutating func stop(reason: String) -> [TestID] {
            let stopped = reader.finishStopped(reason: reason)
            apply(stopped.effects)
            return stopped.isolate
        }

        private mutating func apply(_ effects: [ReaderEffect]) { batch.apply(effects, to: &reader) }

        var result: RunResult { run.result() }

        /// The one reported attempt of `test`, nil when none was reported.
        func attempt(_ test: TestID) -> Attempt? {
            let attempts = result.tests.first { $0.id == test }?.attempts ?? []
            XCTAssertLessThanOrEqual(attempts.count, 1, "\(test) reported once")
            return attempts.first
        }

        /// What each test was reported as, in the batch's order (nil: nothing reported).
        func outcomes(_ tests: [TestID]) -> [AttemptOutcome?] { tests.map { attempt($0)?.outcome } }
    }

    private func batch(_ tests: [TestID], rules: TestRules = TestRules(retries: 0), swiftTesting: Bool = false) throws -> Batch {
        let run = try RunFixture(tests: tests, rules: rules)
        let batch = try run.batch(WorkItem(id: 0, tests: tests, attempt: 1))
        let facts = ReaderBatch(batch)
        let reader: any BundleOutputReading = swiftTesting ? SwiftTestingOutputReader(batch: facts) : XCTestOutputReader(batch: facts)
        return Batch(run: run, batch: batch, reader: reader)
    }

    // MARK: evidence that agrees

    func testAnOrderlyBatchIsReportedOnlyOnceTheProcessHasEnded() throws {
        var x = try batch([a, b, c])
        x.feed([Line.start(a), "hello from a", Line.passed(a),
                Line.start(b), Line.error(b, "XCTAssertEqual failed: (\"1\") is not equal to (\"2\")"), Line.failed(b),
                Line.start(c), Line.passed(c), "Test Suite 'Selected tests' failed at 2026-01-01 00:00:00.100",
                Line.summary(3, failures: 1)])
        XCTAssertEqual(x.outcomes([a, b, c]), [nil, nil, nil], "results are held until the process ends")

        XCTAssertEqual(x.end(.exited(1)), [])
        XCTAssertEqual(x.outcomes([a, b, c]), [.passed, .failed, .passed])
        XCTAssertEqual(x.attempt(b)?.failures, [FailureMessage(file: "/src/CTests.swift", line: 12,
                                                                message: "XCTAssertEqual failed: (\"1\") is not equal to (\"2\")")])
        XCTAssertEqual(x.attempt(b)?.duration, 0.02, "XCTest's own measure")
        XCTAssertTrue(x.attempt(a)?.output.contains("hello from a") ?? false, x.attempt(a)?.output ?? "")
        XCTAssertFalse(x.attempt(a)?.output.contains("Test Case 'C.testB'") ?? true, "b's lines are b's output")
        XCTAssertEqual(x.reader.unstarted, [])
        XCTAssertFalse(x.reader.noTestStarted)
    }

    func testMacOSStyleNamesAreTheSameTests() throws {
        var x = try batch([a, b])
        x.feed(["Test Case '-[M.C testA]' started.", "Test Case '-[M.C testA]' passed (0.010 seconds).",
                "Test Case '-[M.C testB]' started.", "Test Case '-[M.C testB]' passed (0.010 seconds).", Line.summary(2, failures: 0)])
        XCTAssertEqual(x.end(.exited(0)), [])
        XCTAssertEqual(x.outcomes([a, b]), [.passed, .passed])
    }

    // MARK: forged lines (Tests/Fixtures/Forgery)

    func testAStartLineForATestOutsideTheBatchIsOutput() throws {
        // testForeignStartLineThenFails
        var x = try batch([a, b])
        let forged = "Test Case 'SomeoneElse.testNotInThisBatch' started at 2026-01-01 00:00:00.000"
        x.feed([Line.start(a), forged, Line.error(a, "fails for real"), Line.failed(a),
                Line.start(b), Line.passed(b), Line.summary(2, failures: 1)])
        XCTAssertEqual(x.end(.exited(1)), [], "nothing in doubt")
        XCTAssertEqual(x.outcomes([a, b]), [.failed, .passed])
        XCTAssertTrue(x.attempt(a)?.output.contains(forged) ?? false, "the forged line is a's output")
    }

    func testTheLastResultLineBeforeTheNextStartWins() throws {
        // testFakePassedLineForItselfThenFails, testFakeFailedLinesForItselfButPasses
        var x = try batch([a, b])
        x.feed([Line.start(a), Line.passed(a), Line.error(a, "fails for real"), Line.failed(a),
                Line.start(b), Line.error(b, "XCTAssertTrue failed - forged"), Line.failed(b), Line.passed(b),
                Line.summary(2, failures: 1)])
        XCTAssertEqual(x.end(.exited(1)), [])
        XCTAssertEqual(x.outcomes([a, b]), [.failed, .passed])
        XCTAssertEqual(x.attempt(a)?.failures.map(\.message), ["fails for real"])
        XCTAssertEqual(x.attempt(b)?.failures, [], "a passing test's error lines were its own output")
    }

    func testABatchMatesStartLineWhileATestRunsSendsTheBatchToRunOneByOne() throws {
        // testBatchMateStartLineThenFails
        var x = try batch([a, b])
        x.feed([Line.start(a), Line.start(b), Line.error(a, "fails for real"), Line.failed(a),
                Line.start(b), Line.passed(b), Line.summary(2, failures: 1)])
        XCTAssertEqual(Set(x.end(.exited(1))), [a, b])
        XCTAssertEqual(x.outcomes([a, b]), [nil, nil], "nothing reported: each runs again alone")
        let log = try x.run.log(of: x.batch)
        XCTAssertTrue(log.contains("lines printed by the tests look like XCTest's own (2 tests in doubt)"), log)
        XCTAssertTrue(log.contains("one per process, where the exit status is the verdict"), log)
    }

    func testLinesNamingAnotherTestOfTheBatchPutTheBatchInDoubt() throws {
        // testFakeResultLinesForOthersButPasses, and an error line naming a batch mate.
        for forged in [Line.passed(c), Line.failed(b), Line.error(b, "forged")] {
            var x = try batch([a, b, c])
            x.feed([Line.start(a), forged, Line.passed(a), Line.start(b), Line.passed(b), Line.start(c), Line.passed(c),
                    Line.summary(3, failures: 0)])
            XCTAssertEqual(Set(x.end(.exited(0))), [a, b, c], forged)
            XCTAssertEqual(x.outcomes([a, b, c]), [nil, nil, nil], forged)
        }
    }

    func testAPartialLineInFrontOfAResultLineIsTheTestsOwnOutput() throws {
        // testPartialLineBeforeResultPasses, testCarriageReturnProgressThenFails
        var x = try batch([a, b])
        x.feed([Line.start(a), "downloading… 42%" + Line.passed(a),
                Line.start(b), Line.error(b, "fails for real after a progress bar"), "\rprogress 10%\rprogress 90%" + Line.failed(b),
                Line.summary(2, failures: 1)])
        XCTAssertEqual(x.end(.exited(1)), [])
        XCTAssertEqual(x.outcomes([a, b]), [.passed, .failed])
        XCTAssertTrue(x.attempt(a)?.output.contains("downloading… 42%") ?? false, x.attempt(a)?.output ?? "")
    }

    func testOnlyTheLastSummaryCounts() throws {
        // testFakeSummaryPasses, testFakeSummaryThenFails
        var x = try batch([a, b])
        x.feed([Line.start(a), "Test Suite 'Selected tests' passed at 2026-01-01 00:00:00.000", Line.summary(99, failures: 0), Line.passed(a),
                Line.start(b), Line.summary(1, failures: 0), Line.error(b, "fails for real after a fake summary"), Line.failed(b),
                Line.summary(2, failures: 1)])
        XCTAssertEqual(x.end(.exited(1)), [])
        XCTAssertEqual(x.outcomes([a, b]), [.passed, .failed])
    }

    // MARK: evidence that disagrees

    func testResultsTheSummaryOrTheExitStatusContradictRunAgainOneByOne() throws {
        let orderly = [Line.start(a), Line.passed(a), Line.start(b), Line.passed(b)]
        let cases: [(lines: [String], exit: Int32, says: String)] = [
            (orderly, 0, "the process ended (exit 0) without XCTest's summary line"),
            (orderly + [Line.summary(3, failures: 0)], 0,
             "XCTest's summary (3 executed, 0 skipped, 0 failures) disagrees with the result lines (2 results, 0 skipped, 0 failed)"),
            (orderly + [Line.summary(2, failures: 1)], 1,
             "XCTest's summary (2 executed, 0 skipped, 1 failures) disagrees with the result lines (2 results, 0 skipped, 0 failed)"),
            (orderly + [Line.summary(2, failures: 0)], 1, "the test process exited 1 but the result lines say 0 failed"),
        ]
        for (lines, exit, says) in cases {
            var x = try batch([a, b])
            x.feed(lines)
            XCTAssertEqual(Set(x.end(.exited(exit))), [a, b], says)
            XCTAssertEqual(x.outcomes([a, b]), [nil, nil], says)
            let log = try x.run.log(of: x.batch)
            XCTAssertTrue(log.contains("robotci: \(says); re-running the batch's 2 tests one per process"), log)
        }
    }

    // MARK: a lone test

    func testALoneTestsVerdictIsItsProcesssExitStatus() throws {
        var liar = try batch([a])
        liar.feed([Line.start(a), Line.passed(a), Line.summary(1, failures: 0)])
        XCTAssertEqual(liar.end(.exited(1)), [])
        XCTAssertEqual(liar.attempt(a)?.outcome, .failed)
        XCTAssertEqual(liar.attempt(a)?.failures.map(\.message),
                       ["the test process exited 1 (a failure) although its output said 'passed': output is not evidence, the exit status is"])

        // A forged failure is followed by XCTest's own result line, which wins.
        var forged = try batch([a])
        forged.feed([Line.start(a), Line.error(a, "forged"), Line.failed(a), Line.passed(a)])
        XCTAssertEqual(forged.end(.exited(0)), [], "no summary needed: the exit status decides")
        XCTAssertEqual(forged.attempt(a)?.outcome, .passed)
        XCTAssertEqual(forged.attempt(a)?.failures, [])

        // A failure, then `exit(0)` (a class tearDown, the app under test): still a failure.
        var exitZero = try batch([a])
        exitZero.feed([Line.start(a), Line.error(a, "real"), Line.failed(a)])
        XCTAssertEqual(exitZero.end(.exited(0)), [])
        XCTAssertEqual(exitZero.attempt(a)?.outcome, .failed, "a clean exit never turns a failure into a pass")

        // Its own passed line, then a crash: the signal is the verdict.
        var crash = try batch([a])
        crash.feed([Line.start(a), Line.passed(a)])
        XCTAssertEqual(crash.end(.signaled(11)), [])
        XCTAssertEqual(crash.attempt(a)?.outcome, .crashed)
        XCTAssertEqual(crash.attempt(a)?.failures.map(\.message),
                       ["crashed: the test process was killed by signal 11 after its output said 'passed': output is not evidence, how the process ended is"])

        // Its own passed line, then a hang until the timeout.
        var hang = try batch([a], rules: TestRules(retries: 0, testTimeout: 30))
        hang.feed([Line.start(a), Line.passed(a)])
        XCTAssertEqual(hang.end(.signaled(9), timedOut: true), [])
        XCTAssertEqual(hang.attempt(a)?.outcome, .timedOut)

        var skipped = try batch([a])
        skipped.feed([Line.start(a), "/src/CTests.swift:5: C.testA : Test skipped - not on Linux",
                      "Test Case 'C.testA' skipped (0.000 seconds)", Line.summary(1, failures: 0, skipped: 1)])
        XCTAssertEqual(skipped.end(.exited(0)), [])
        XCTAssertEqual(skipped.attempt(a)?.outcome, .skipped)
        XCTAssertEqual(skipped.attempt(a)?.failures.map(\.message), ["not on Linux"])
    }

    // MARK: crashes and hangs

    func testACrashBlamesTheRunningTestAndLeavesTheRestUnstarted() throws {
        var x = try batch([a, b, c])
        x.feed([Line.start(a), Line.passed(a), Line.start(b), "Fatal error: Index out of range",
                "3 [ra] 0x000055 C.testB() + 215 in MTests.xctest at /src/CTests.swift:28:19"])
        XCTAssertEqual(x.end(.signaled(4)), [a], "no summary after a crash: a's result had only the line order behind it")
        XCTAssertEqual(x.outcomes([a, b, c]), [nil, .crashed, nil])
        XCTAssertEqual(x.attempt(b)?.failures, [FailureMessage(
            file: "/src/CTests.swift", line: 28,
            message: "crashed: Fatal error: Index out of range (the test process ended with signal 4 while this test was running)")])
        XCTAssertEqual(x.reader.unstarted, [c])
        XCTAssertFalse(x.reader.noTestStarted)
    }

    func testATimeoutBlamesTheRunningTest() throws {
        var x = try batch([a, b], rules: TestRules(retries: 0, testTimeout: 30))
        x.feed([Line.start(a), "waiting for the page…"])
        XCTAssertEqual(x.end(.signaled(9), timedOut: true), [])
        XCTAssertEqual(x.outcomes([a, b]), [.timedOut, nil])
        XCTAssertEqual(x.attempt(a)?.failures.map(\.message),
                       ["timed out: still running after 30 s (--test-timeout); its process group was killed"])
        XCTAssertEqual(x.reader.unstarted, [b])
    }

    func testASilentHangBetweenTestsBlamesTheNextTest() throws {
        var x = try batch([a, b, c], rules: TestRules(retries: 0, testTimeout: 30))
        x.feed([Line.start(a), Line.passed(a)])
        XCTAssertEqual(x.end(.signaled(9), timedOut: true), [a], "killed without a summary: a runs again alone")
        XCTAssertEqual(x.outcomes([a, b, c]), [nil, .timedOut, nil])
        XCTAssertEqual(x.attempt(b)?.failures.map(\.message),
                       ["timed out: the process printed nothing for 30 s before this test started (--test-timeout)"])
        XCTAssertEqual(x.reader.unstarted, [c])
    }

    func testAProcessThatStartsNoTestLeavesThemAllUnstarted() throws {
        var x = try batch([a, b])
        x.feed(["error: could not load the test bundle"])
        XCTAssertEqual(x.end(.exited(1)), [])
        XCTAssertEqual(x.outcomes([a, b]), [nil, nil])
        XCTAssertEqual(x.reader.unstarted, [a, b])
        XCTAssertTrue(x.reader.noTestStarted)
    }

    func testARunStoppedEarlyKeepsWhatFinishedAndTheRunningTestIsNotRun() throws {
        var x = try batch([a, b, c])
        x.feed([Line.start(a), Line.passed(a), Line.start(b), "still working"])
        XCTAssertEqual(x.stop(reason: "--max-failures 1 reached"), [], "nothing runs again")
        let result = x.result
        XCTAssertEqual(x.outcomes([a, b, c]), [.passed, nil, nil])
        XCTAssertEqual(result.tests.first { $0.id == b }?.reason, "--max-failures 1 reached", "b was running when the run stopped")
        XCTAssertEqual(result.tests.first { $0.id == c }?.reason, "no result", "c never started: the run's own reason")
    }

    // MARK: deadline

    func testTheDeadlineIsTheRunningTestsTimeoutAndBetweenTestsTheNextOnes() throws {
        let rules = try TestRules(retries: 0, testTimeout: 100, rules: [TestRule(match: "/testA$", testTimeout: 5)])
        var x = try batch([a, b], rules: rules)
        XCTAssertEqual(x.reader.timeoutInForce, 5, "before any test: the first test's")
        XCTAssertEqual(x.reader.deadline(), x.batch.start + 5, accuracy: 1e-9)
        x.feed([Line.start(a)])
        let started = x.run.clock.now()
        XCTAssertEqual(x.reader.timeoutInForce, 5)
        XCTAssertEqual(x.reader.deadline(), started + 5, accuracy: 1, "a's start + a's timeout (not b's 100)")
        x.feed([Line.passed(a)])
        XCTAssertEqual(x.reader.timeoutInForce, 100, "between tests: the next test's (b has no rule)")
        x.feed([Line.start(b)])
        XCTAssertEqual(x.reader.deadline(), x.run.clock.now() + 100, accuracy: 1, "b's start + b's timeout")
    }

    // MARK: artifacts

    func testFilesLeftBeforeATestsResultLineAreItsOwnAndGoWhenItRunsAgain() throws {
        var x = try batch([a, b])
        x.feed([Line.start(a)])
        try Data("png".utf8).write(to: x.batch.artifactsDirectory.appendingPathComponent("screenshot.png"))
        x.feed([Line.error(a, "no button"), Line.failed(a), Line.start(b), Line.passed(b), Line.summary(2, failures: 1)])
        let folder = x.batch.attemptDirectory(of: a)
        XCTAssertEqual(x.end(.exited(1)), [])
        XCTAssertEqual(x.attempt(a)?.artifacts, [Artifact(kind: .screenshot, path: "\(folder)/screenshot.png")])
        XCTAssertEqual(x.attempt(b)?.artifacts, [], "b left nothing")
        XCTAssertTrue(FileManager.default.fileExists(atPath: x.run.directory.appendingPathComponent("\(folder)/screenshot.png").path))

        var doubted = try batch([a, b])
        doubted.feed([Line.start(a)])
        try Data("png".utf8).write(to: doubted.batch.artifactsDirectory.appendingPathComponent("screenshot.png"))
        doubted.feed([Line.start(b), Line.failed(a), Line.start(b), Line.passed(b), Line.summary(2, failures: 1)])
        XCTAssertEqual(Set(doubted.end(.exited(1))), [a, b])
        XCTAssertFalse(FileManager.default.fileExists(atPath: doubted.run.directory.appendingPathComponent(folder).path),
                       "the attempt runs again alone: the doubtful run's files go")
    }

    // MARK: Swift Testing

    private func event(_ kind: String, _ test: TestID, _ text: String = "", issue: Bool = false) -> String {
        let messages = text.isEmpty ? "[]" : #"[{"symbol":"default","text":"\#(text)"}]"#
        let issuePart = issue ? #""issue":{"isKnown":false,"sourceLocation":{"_filePath":"/src/S.swift","line":9}},"# : ""
        return #"{"kind":"event","payload":{\#(issuePart)"kind":"\#(kind)","messages":\#(messages),"testID":"\#(test.description)/S.swift:3:4"},"version":0}"#
    }

    func testSwiftTestingResultsComeFromItsEventsNotFromTheOutput() throws {
        let one = TestID("M.S/one()"), two = TestID("M.S/two()")
        var x = try batch([one, two], swiftTesting: true)
        x.feedEvents([event("testStarted", one), event("testEnded", one, "Test one() passed after 0.010 seconds."),
                      event("testStarted", two), event("issueRecorded", two, "Expectation failed: 1 == 2", issue: true),
                      event("testEnded", two, "Test two() failed after 0.020 seconds with 1 issue.")])
        // On stdout, XCTest-looking lines are output only.
        x.feed(["Test Case 'S.one()' failed (0.001 seconds)"])
        XCTAssertEqual(x.end(.exited(1)), [])
        XCTAssertEqual(x.outcomes([one, two]), [.passed, .failed])
        XCTAssertEqual(x.attempt(two)?.failures, [FailureMessage(file: "/src/S.swift", line: 9, message: "Expectation failed: 1 == 2")])

        var liar = try batch([one, two], swiftTesting: true)
        liar.feedEvents([event("testStarted", one), event("testEnded", one, "Test one() passed after 0.010 seconds."),
                         event("testStarted", two), event("testEnded", two, "Test two() passed after 0.010 seconds.")])
        XCTAssertEqual(Set(liar.end(.exited(1))), [one, two], "every test passed but the process exited 1")
    }

    func testAForgedPassThenACrashIsNeverTrusted() throws {
        // b prints its own passed line and a start line for c, then crashes: c is blamed, and
        // nothing before the crash stands on line order alone.
        var x = try batch([a, b, c])
        x.feed([Line.start(a), Line.passed(a), Line.start(b), Line.passed(b), Line.start(c)])
        XCTAssertEqual(Set(x.end(.signaled(11))), [a, b])
        XCTAssertEqual(x.outcomes([a, b, c]), [nil, nil, .crashed])
    }

    func testSwiftTestingVerdictsComeFromStructureNotText() throws {
        let shown = TestID("M.S/shown()"), cancelled = TestID("M.S/cancelled()")
        let overload = TestID("M.S/check(_:)/S.swift:3:4")
        var x = try batch([shown, cancelled, overload], swiftTesting: true)
        x.feedEvents([event("testStarted", shown),
                     event("testEnded", shown, "Test \\\"it failed with 3 issues\\\" passed after 0.010 seconds."),
                     event("testStarted", cancelled),
                     #"{"kind":"event","payload":{"_comments":["not today"],"kind":"testCancelled","messages":[],"testID":"M.S/cancelled()/S.swift:3:4"},"version":0}"#,
                     event("testEnded", cancelled, "Test cancelled() was cancelled after 0.001 seconds."),
                     // The overload's planned name is its stream id (listed with the location).
                     #"{"kind":"event","payload":{"kind":"testStarted","messages":[],"testID":"M.S/check(_:)/S.swift:3:4"},"version":0}"#,
                     #"{"kind":"event","payload":{"issue":{"isKnown":false},"kind":"issueRecorded","messages":[{"symbol":"fail","text":"nope"}],"testID":"M.S/check(_:)/S.swift:3:4"},"version":0}"#,
                     #"{"kind":"event","payload":{"kind":"testEnded","messages":[{"symbol":"pass","text":"Test check(_:) passed after 0.1 seconds."}],"testID":"M.S/check(_:)/S.swift:3:4"},"version":0}"#])
        XCTAssertEqual(x.end(.exited(1)), [])
        XCTAssertEqual(x.outcomes([shown, cancelled, overload]), [.passed, .skipped, .failed],
                       "a display name saying 'failed with' passes; a cancelled test is skipped; an issue fails whatever the end text says")
        XCTAssertEqual(x.attempt(cancelled)?.failures.map(\.message), ["cancelled: not today"])
    }
}
