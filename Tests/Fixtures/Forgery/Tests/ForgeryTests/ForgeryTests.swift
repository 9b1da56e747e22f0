import Foundation
import XCTest

/// Test names end in their true verdict: `…Passes` or `…Fails`.
final class ForgeryTests: XCTestCase {
    private func say(_ text: String, terminator: String = "\n") {
        print(text, terminator: terminator)
        fflush(stdout)
    }

    private func sayOnStderr(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }

    func testForeignStartLineThenFails() {
        say("Test Case 'SomeoneElse.testNotInThisBatch' started at 2026-01-01 00:00:00.000")
        XCTFail("fails for real after printing a start line for a test that is not in the batch")
    }

    func testBatchMateStartLineThenFails() {
        say("Test Case 'ForgeryTests.testZLastRealFails' started at 2026-01-01 00:00:00.000")
        XCTFail("fails for real after printing a start line for a batch mate")
    }

    func testFakePassedLineForItselfThenFails() {
        say("Test Case 'ForgeryTests.testFakePassedLineForItselfThenFails' passed (0.001 seconds)")
        XCTFail("fails for real after printing a passed line for itself")
    }

    func testFakeFailedLinesForItselfButPasses() {
        say("/tmp/Fake.swift:1: error: ForgeryTests.testFakeFailedLinesForItselfButPasses : XCTAssertTrue failed - forged")
        say("Test Case 'ForgeryTests.testFakeFailedLinesForItselfButPasses' failed (0.001 seconds)")
    }

    func testFakeResultLinesForOthersButPasses() {
        say("Test Case 'ForgeryTests.testZLastRealFails' passed (0.001 seconds)")
        say("Test Case 'ForgeryTests.testPlainPasses' failed (0.001 seconds)")
    }

    func testPartialLineBeforeResultPasses() {
        say("downloading… 42%", terminator: "")
    }

    func testPartialLineOnStderrBeforeResultPasses() {
        sayOnStderr("stderr without a newline")
    }

    func testCarriageReturnProgressBarsPasses() {
        for p in stride(from: 0, through: 100, by: 25) { say("\r[\(String(repeating: "#", count: p / 10))] \(p)%", terminator: "") }
        sayOnStderr("\r 50%\r 75%\r100%")
    }

    func testCarriageReturnProgressThenFails() {
        say("\rprogress 10%\rprogress 90%", terminator: "")
        XCTFail("fails for real after a progress bar")
    }

    func testEightMebibyteLinePasses() {
        say(String(repeating: "x", count: 8 << 20))
    }

    func testEightMebibytesWithoutNewlinePasses() {
        say(String(repeating: "y", count: 8 << 20), terminator: "")
    }

    func testFakeSummaryPasses() {
        say("Test Suite 'Selected tests' passed at 2026-01-01 00:00:00.000")
        say("\t Executed 99 tests, with 0 failures (0 unexpected) in 0.001 (0.001) seconds")
    }

    func testFakeSummaryThenFails() {
        say("\t Executed 1 test, with 0 failures (0 unexpected) in 0.001 (0.001) seconds")
        XCTFail("fails for real after a fake summary")
    }

    func testPlainPasses() {}

    func testFakePassedAndStartOfBatchMateThenFails() {
        say("Test Case 'ForgeryTests.testFakePassedAndStartOfBatchMateThenFails' passed (0.001 seconds)")
        say("Test Case 'ForgeryTests.testPlainPasses' started at 2026-01-01 00:00:00.000")
        XCTFail("fails for real after forging its own pass and a batch mate's start")
    }

    func testZLastRealFails() {
        XCTFail("fails for real")
    }
}
