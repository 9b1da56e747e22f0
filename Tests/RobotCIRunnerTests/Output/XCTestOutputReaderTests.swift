import ProcessToolkit
import RobotCICore
@testable import RobotCIRunner
import XCTest

/// `XCTestOutputReader` alone: console lines and times in, effects and verdicts out.
final class XCTestOutputReaderTests: XCTestCase {
    private let a = TestID("M.C/testA"), b = TestID("M.C/testB"), c = TestID("M.C/testC")

    /// XCTest's own lines, as corelibs-xctest prints them on Linux.
    private enum Line {
        static func start(_ t: TestID) -> String { "Test Case '\(t.outputName)' started at 2026-01-01 00:00:00.000" }
        static func passed(_ t: TestID) -> String { "Test Case '\(t.outputName)' passed (0.010 seconds)" }
        static func failed(_ t: TestID) -> String { "Test Case '\(t.outputName)' failed (0.020 seconds)" }
        static func skipped(_ t: TestID) -> String { "Test Case '\(t.outputName)' skipped (0.000 seconds)" }
        static func error(_ t: TestID, _ message: String) -> String { "/src/CTests.swift:12: error: \(t.outputName) : \(message)" }
        static func summary(_ executed: Int, failures: Int, skipped: Int = 0) -> String {
            let skips = skipped > 0 ? "\(skipped) test\(skipped == 1 ? "" : "s") skipped and " : ""
            return "\t Executed \(executed) test\(executed == 1 ? "" : "s"), with \(skips)\(failures) failure\(failures == 1 ? "" : "s") "
                + "(0 unexpected) in 0.030 (0.030) seconds"
        }
    }

    private func drive(_ tests: [TestID], rules: TestRules = TestRules(retries: 0, testTimeout: 30)) -> ReaderDrive<XCTestOutputReader> {
        ReaderDrive(XCTestOutputReader(batch: ReaderDrive<XCTestOutputReader>.facts(tests, rules: rules)), start: 100)
    }

    // MARK: agreement

    func testEveryLineIsLoggedAndAResultLineAsksForTheTestsFiles() {
        var x = drive([a, b])
        let lines = [Line.start(a), "hello", Line.passed(a)]
        XCTAssertEqual(x.feed(lines), lines.map { .log(Substring($0)) } + [.artifactsDue(a)])
    }

    func testAgreeingEvidenceReportsEveryResultOnlyAtTheEnd() {
        var x = drive([a, b, c])
        x.feed([Line.start(a), Line.passed(a), Line.start(b), Line.error(b, "no"), Line.failed(b)])
        let startOfC = x.feed([Line.start(c)])
        XCTAssertEqual(startOfC.count, 2, "the start line, and b's failure counted for --max-failures")
        XCTAssertEqual(startOfC.first, .log(Substring(Line.start(c))))
        guard case .provisionalFailure(b, let held) = startOfC.last else { return XCTFail("\(startOfC)") }
        XCTAssertEqual(held.outcome, .failed)
        x.feed([Line.passed(c), Line.summary(3, failures: 1)])
        XCTAssertTrue(x.reports.isEmpty, "held until the process ends")

        let finished = x.end(.exited(1))
        XCTAssertEqual(finished.isolate, [])
        XCTAssertEqual(finished.effects.first, .provisionalSettled)
        XCTAssertEqual(x.reports.map(\.test), [a, b, c], "in the batch's order")
        XCTAssertEqual(x.outcomes([a, b, c]), [.passed, .failed, .passed])
        XCTAssertEqual(x.attempt(b)?.failures, [FailureMessage(file: "/src/CTests.swift", line: 12, message: "no")])
        XCTAssertEqual(x.attempt(b)?.start, 103, "the time its start line arrived")
        XCTAssertEqual(x.attempt(b)?.duration, 0.02, "XCTest's own measure")
        XCTAssertEqual(x.attempt(a)?.batch, 7)
        XCTAssertEqual(x.attempt(a)?.shard, 2)
        XCTAssertEqual(x.attempt(a)?.number, 1)
        XCTAssertEqual(x.notes, [])
    }

    func testAttachedFilesBelongToTheTestWhoseResultAskedForThem() {
        var x = drive([a, b])
        x.feed([Line.start(a), Line.failed(a)])
        let shot = Artifact(kind: .screenshot, path: "attempts/a/shot.png")
        x.reader.attach([shot], to: a)
        x.reader.attach([Artifact(kind: .log, path: "elsewhere")], to: b)  // b is not running: ignored
        x.feed([Line.start(b), Line.passed(b), Line.summary(2, failures: 1)])
        _ = x.end(.exited(1))
        XCTAssertEqual(x.attempt(a)?.artifacts, [shot])
        XCTAssertEqual(x.attempt(b)?.artifacts, [])
    }

    // MARK: disagreement

    func testASummaryThatDisagreesSendsTheBatchToRunAlone() {
        var x = drive([a, b])
        x.feed([Line.start(a), Line.passed(a), Line.start(b), Line.passed(b), Line.summary(3, failures: 0)])
        let finished = x.end(.exited(0))
        XCTAssertEqual(finished.isolate, [a, b])
        XCTAssertEqual(Array(finished.effects.suffix(2)), [.discard(a), .discard(b)])
        XCTAssertTrue(x.reports.isEmpty)
        XCTAssertEqual(x.notes, ["robotci: XCTest's summary (3 executed, 0 skipped, 0 failures) disagrees with the result lines "
                                 + "(2 results, 0 skipped, 0 failed); re-running the batch's 2 tests one per process, where the exit status is the verdict"])
    }

    func testAnExitStatusThatDisagreesSendsTheBatchToRunAlone() {
        var x = drive([a, b])
        x.feed([Line.start(a), Line.passed(a), Line.start(b), Line.passed(b), Line.summary(2, failures: 0)])
        XCTAssertEqual(x.end(.exited(1)).isolate, [a, b])
        XCTAssertEqual(x.notes.first?.hasPrefix("robotci: the test process exited 1 but the result lines say 0 failed;"), true, "\(x.notes)")
        XCTAssertTrue(x.reports.isEmpty)
    }

    func testNoSummarySendsTheBatchToRunAlone() {
        var x = drive([a, b])
        x.feed([Line.start(a), Line.passed(a), Line.start(b), Line.passed(b)])
        XCTAssertEqual(x.end(.exited(0)).isolate, [a, b])
        XCTAssertEqual(x.notes.first?.hasPrefix("robotci: the process ended (exit 0) without XCTest's summary line;"), true, "\(x.notes)")
    }

    // MARK: doubt

    func testAForgedStartLineWhileATestRunsPutsBothInDoubt() {
        var x = drive([a, b])
        x.feed([Line.start(a), Line.start(b), Line.error(a, "real"), Line.failed(a),
                Line.start(b), Line.passed(b), Line.summary(2, failures: 1)])
        XCTAssertEqual(x.end(.exited(1)).isolate, [a, b])
        XCTAssertTrue(x.notes.first?.contains("lines printed by the tests look like XCTest's own (2 tests in doubt)") ?? false, "\(x.notes)")
        XCTAssertTrue(x.reports.isEmpty)
    }

    func testAForgedResultLineForABatchMatePutsTheBatchInDoubt() {
        var x = drive([a, b, c])
        x.feed([Line.start(a), Line.passed(c), Line.passed(a), Line.start(b), Line.passed(b), Line.start(c), Line.passed(c),
                Line.summary(3, failures: 0)])
        XCTAssertEqual(Set(x.end(.exited(0)).isolate), [a, b, c])
        XCTAssertTrue(x.reports.isEmpty)
    }

    func testAnErrorLineNamingABatchMateIsDoubtButAStrangersStartIsOutput() {
        var mate = drive([a, b])
        mate.feed([Line.start(a), Line.error(b, "forged"), Line.passed(a), Line.start(b), Line.passed(b), Line.summary(2, failures: 0)])
        XCTAssertEqual(mate.end(.exited(0)).isolate, [a, b], "one test in doubt sends the whole batch")
        XCTAssertTrue(mate.notes.first?.contains("(1 tests in doubt)") ?? false, "a was running; b had not started: \(mate.notes)")

        var stranger = drive([a, b])
        let forged = "Test Case 'Someone.testElse' started at 2026-01-01 00:00:00.000"
        stranger.feed([Line.start(a), forged, Line.passed(a), Line.start(b), Line.passed(b), Line.summary(2, failures: 0)])
        XCTAssertEqual(stranger.end(.exited(0)).isolate, [])
        XCTAssertEqual(stranger.outcomes([a, b]), [.passed, .passed])
        XCTAssertTrue(stranger.attempt(a)?.output.contains(forged) ?? false)
    }

    func testARunStoppedEarlyReportsWhatTheOrderVouchesForAndTheRunningTestIsNotRun() {
        var x = drive([a, b, c])
        x.feed([Line.start(a), Line.passed(a), Line.start(b), Line.start(c), Line.passed(b), Line.start(c)])
        // b's result stands on order alone, but a start line came while it ran: doubted, not reported.
        let stopped = x.reader.finishStopped(reason: "--max-failures 1 reached")
        XCTAssertEqual(stopped.isolate, [])
        XCTAssertEqual(stopped.effects.count, 3, "\(stopped.effects)")
        XCTAssertEqual(stopped.effects[0], .provisionalSettled)
        XCTAssertEqual(stopped.effects[1], .notRun(c, reason: "--max-failures 1 reached"))
        guard case .report(a, let attempt) = stopped.effects[2] else { return XCTFail("\(stopped.effects)") }
        XCTAssertEqual(attempt.outcome, .passed)
    }

    // MARK: crashes and hangs

    func testACrashBlamesTheRunningTestForTheTimeSinceItStarted() {
        var x = drive([a, b, c])
        x.feed([Line.start(a), Line.passed(a), Line.start(b), "Fatal error: Index out of range",
                "3 [ra] 0x000055 C.testB() + 215 in MTests.xctest at /src/CTests.swift:28:19"])
        x.wait(10)
        let finished = x.end(.signaled(4))
        XCTAssertEqual(finished.isolate, [a], "no summary after a crash: a's result had only the line order behind it")
        XCTAssertEqual(x.outcomes([a, b, c]), [nil, .crashed, nil])
        XCTAssertEqual(x.attempt(b)?.duration, 12, "from its start line (103) to the end (115)")
        XCTAssertEqual(x.attempt(b)?.failures, [FailureMessage(
            file: "/src/CTests.swift", line: 28,
            message: "crashed: Fatal error: Index out of range (the test process ended with signal 4 while this test was running)")])
        XCTAssertEqual(x.reader.unstarted, [c])
        XCTAssertEqual(finished.effects.last, .discard(a))
    }

    func testAHangBlamesTheRunningTest() {
        var x = drive([a, b])
        x.feed([Line.start(a), "waiting for the page…"])
        XCTAssertEqual(x.reader.deadline(), 131, "a's start (101) + 30 s")
        x.wait(29)
        XCTAssertEqual(x.end(.signaled(9), timedOut: true).isolate, [])
        XCTAssertEqual(x.outcomes([a, b]), [.timedOut, nil])
        XCTAssertEqual(x.attempt(a)?.duration, 30)
        XCTAssertEqual(x.attempt(a)?.failures.map(\.message),
                       ["timed out: still running after 30 s (--test-timeout); its process group was killed"])
        XCTAssertEqual(x.reader.unstarted, [b])
    }

    func testSilenceAfterAResultBlamesTheNextTest() {
        var x = drive([a, b, c])
        x.feed([Line.start(a), Line.passed(a)])
        XCTAssertEqual(x.reader.deadline(), 132, "the last result (102) + b's 30 s")
        x.wait(30)
        let finished = x.end(.signaled(9), timedOut: true)
        XCTAssertEqual(finished.isolate, [a], "killed without a summary: a runs again alone")
        XCTAssertEqual(x.outcomes([a, b, c]), [nil, .timedOut, nil])
        XCTAssertEqual(x.attempt(b)?.start, 102)
        XCTAssertEqual(x.attempt(b)?.duration, 30)
        XCTAssertEqual(x.attempt(b)?.failures.map(\.message),
                       ["timed out: the process printed nothing for 30 s before this test started (--test-timeout)"])
        XCTAssertEqual(x.reader.unstarted, [c])
    }

    func testTheDeadlineCountsTheRunningTestsRuleThenTheNextTests() throws {
        let rules = try TestRules(retries: 0, testTimeout: 100, rules: [TestRule(match: "/testA$", testTimeout: 5)])
        var x = drive([a, b], rules: rules)
        XCTAssertEqual(x.reader.timeoutInForce, 5, "before any test: the first test's")
        XCTAssertEqual(x.reader.deadline(), 105)
        x.feed([Line.start(a)])
        XCTAssertEqual(x.reader.deadline(), 106, "a's start + a's timeout (not b's 100)")
        x.feed([Line.passed(a)])
        XCTAssertEqual(x.reader.timeoutInForce, 100, "between tests: the next test's (b has no rule)")
        XCTAssertEqual(x.reader.deadline(), 202)
    }

    // MARK: a lone test

    func testALoneTestsVerdictIsHowItsProcessEnded() {
        var exitZero = drive([a])
        exitZero.feed([Line.start(a), Line.error(a, "real"), Line.failed(a)])
        XCTAssertEqual(exitZero.end(.exited(0)).isolate, [])
        XCTAssertEqual(exitZero.attempt(a)?.outcome, .failed, "a failure, then exit(0): still a failure")

        var liar = drive([a])
        liar.feed([Line.start(a), Line.passed(a), Line.summary(1, failures: 0)])
        _ = liar.end(.exited(1))
        XCTAssertEqual(liar.attempt(a)?.outcome, .failed)

        var crash = drive([a])
        crash.feed([Line.start(a), Line.passed(a)])
        _ = crash.end(.signaled(11))
        XCTAssertEqual(crash.attempt(a)?.outcome, .crashed)

        var skipped = drive([a])
        skipped.feed([Line.start(a), Line.skipped(a), Line.summary(1, failures: 0, skipped: 1)])
        _ = skipped.end(.exited(0))
        XCTAssertEqual(skipped.attempt(a)?.outcome, .skipped, "its result line and XCTest's summary agree")

        var skipLineOnly = drive([a])
        skipLineOnly.feed([Line.start(a), Line.skipped(a)])
        _ = skipLineOnly.end(.exited(0))
        XCTAssertEqual(skipLineOnly.attempt(a)?.outcome, .passed, "a skip line without XCTest's summary is not evidence")
    }

    func testByTerminationNeverTurnsAFailureIntoAPass() {
        let failed = Attempt(number: 1, outcome: .failed, duration: 1, start: 0, placement: .init(shard: 0, batch: 0),
                             evidence: .init(failures: [FailureMessage(message: "real")], output: "", artifacts: []))
        let verdict = OutputReaderCore.byTermination(failed, end: .exited(0), skipped: false)
        XCTAssertEqual(verdict.outcome, .failed)
        XCTAssertEqual(verdict.failures, failed.failures)
    }
}
