@testable import RobotCIRunner
import XCTest

final class XCTestLineTests: XCTestCase {
    private func parse(_ s: String) -> XCTestLine { XCTestLine(Substring(s)) }

    // MARK: Linux

    func testStarted() {
        XCTAssertEqual(parse("Test Case 'LoginTests.testLogin' started at 2026-11-21 14:07:12.784"),
                       .started(name: "LoginTests.testLogin"))
    }

    func testPassedFailedSkipped() {
        XCTAssertEqual(parse("Test Case 'A.b' passed (0.001 seconds)"), .finished(name: "A.b", status: .passed, seconds: 0.001))
        XCTAssertEqual(parse("Test Case 'A.b' failed (1.5 seconds)"), .finished(name: "A.b", status: .failed, seconds: 1.5))
        XCTAssertEqual(parse("Test Case 'A.b' skipped (0.0 seconds)"), .finished(name: "A.b", status: .skipped, seconds: 0))
        XCTAssertEqual(parse("Test Case 'A.b' passed (12 seconds)"), .finished(name: "A.b", status: .passed, seconds: 12))
    }

    func testUnparsableDurationIsZero() {
        XCTAssertEqual(parse("Test Case 'A.b' passed (n/a seconds)"), .finished(name: "A.b", status: .passed, seconds: 0))
    }

    func testErrorLine() {
        XCTAssertEqual(
            parse(#"/path/F.swift:12: error: A.b : XCTAssertEqual failed: ("1") is not equal to ("2") - msg"#),
            .error(file: "/path/F.swift", line: 12, test: "A.b", message: #"XCTAssertEqual failed: ("1") is not equal to ("2") - msg"#))
    }

    func testErrorMessageWithSeparatorsAndColons() {
        XCTAssertEqual(
            parse("/w/Tests/T.swift:7: error: A.b : failed : expected a : b, got 12:30: x"),
            .error(file: "/w/Tests/T.swift", line: 7, test: "A.b", message: "failed : expected a : b, got 12:30: x"))
        XCTAssertEqual(
            parse("/w/T.swift:3: error: A.b : XCTAssertEqual failed: (\"http://x:80/\") is not equal to (\"\")"),
            .error(file: "/w/T.swift", line: 3, test: "A.b", message: "XCTAssertEqual failed: (\"http://x:80/\") is not equal to (\"\")"))
    }

    func testErrorWithEmptyMessage() {
        XCTAssertEqual(parse("/w/T.swift:3: error: A.b : "), .error(file: "/w/T.swift", line: 3, test: "A.b", message: ""))
    }

    func testThrownErrorLineHasNoRealLocation() {
        // corelibs-xctest records a thrown error at "<EXPR>:0".
        XCTAssertEqual(parse(#"<EXPR>:0: error: A.b : threw error "boom""#),
                       .error(file: "<EXPR>", line: 0, test: "A.b", message: #"threw error "boom""#))
    }

    func testRelativePathWithSpacesAndDriveLikeColons() {
        XCTAssertEqual(parse("Tests/My Tests/F.swift:99: error: A.b : m"),
                       .error(file: "Tests/My Tests/F.swift", line: 99, test: "A.b", message: "m"))
    }

    func testSkipLine() {
        XCTAssertEqual(parse("/p/F.swift:43: A.b : Test skipped - reason"),
                       .skipped(file: "/p/F.swift", line: 43, test: "A.b", reason: "reason"))
        XCTAssertEqual(parse("/p/F.swift:43: A.b : Test skipped - not on: this platform - really"),
                       .skipped(file: "/p/F.swift", line: 43, test: "A.b", reason: "not on: this platform - really"))
    }

    func testSkipLineWithoutReason() {
        XCTAssertEqual(parse("/p/F.swift:43: A.b : Test skipped"),
                       .skipped(file: "/p/F.swift", line: 43, test: "A.b", reason: ""))
    }

    // MARK: macOS

    func testMacOSStartedAndFinished() {
        XCTAssertEqual(parse("Test Case '-[Mod.A b]' started."), .started(name: "A.b"))
        XCTAssertEqual(parse("Test Case '-[Mod.A b]' passed (0.001 seconds)."), .finished(name: "A.b", status: .passed, seconds: 0.001))
        XCTAssertEqual(parse("Test Case '-[Mod.A testB]' failed (2.250 seconds)."),
                       .finished(name: "A.testB", status: .failed, seconds: 2.25))
        XCTAssertEqual(parse("Test Case '-[A b]' started."), .started(name: "A.b"), "no module")
    }

    func testMacOSErrorAndSkip() {
        XCTAssertEqual(parse("/p/F.swift:5: error: -[Mod.A b] : XCTAssertTrue failed"),
                       .error(file: "/p/F.swift", line: 5, test: "A.b", message: "XCTAssertTrue failed"))
        XCTAssertEqual(parse("/p/F.swift:6: -[Mod.A b] : Test skipped - later"),
                       .skipped(file: "/p/F.swift", line: 6, test: "A.b", reason: "later"))
    }

    func testNormalise() {
        XCTAssertEqual(XCTestLine.normalise("-[Mod.Sub.A testB]"), "A.testB")
        XCTAssertEqual(XCTestLine.normalise("A.b"), "A.b")
        XCTAssertEqual(XCTestLine.normalise("-[Broken]"), "-[Broken]")
    }

    // MARK: Everything else

    func testOrdinaryOutputIsOther() {
        let lines = [
            "",
            "hello: world",
            "12:30: meeting",
            "12:30: meeting : agenda",
            "note: 5 apples",
            "http://localhost:8080/path: ok",
            "/p/F.swift:12: warning: something",
            "/p/F.swift:12: A.b : not a skip",
            "/p/F.swift:x: error: A.b : m",
            ":12: error: A.b : m",
            "/p/F.swift:12: error: no separator here",
            "Test Suite 'X' started at 2026-11-21 14:07:12.782",
            "Test Suite 'All tests' passed at 2026-11-21 14:07:12.889",
            "Swift/ContiguousArrayBuffer.swift:692: Fatal error: Index out of range",
            "Test Case 'A.b' measured [Time, seconds] average: 0.001",
            "Test Case 'unterminated",
            "  3 [ra] 0x00005582c246ad18 CrashTests.testB() + 215 in X.xctest at /w/T.swift:28:19",
        ]
        for line in lines { XCTAssertEqual(parse(line), .other, line) }
    }

    func testOnlyTheFirstQuoteEndsTheName() {
        XCTAssertEqual(parse("Test Case 'A.b' started at 2026-01-01 'quoted'"), .started(name: "A.b"))
    }

    func testWorksOnSubstringsOfALargerBuffer() {
        let text = "noise\nTest Case 'A.b' passed (0.5 seconds)\nmore"
        let line = text.split(separator: "\n")[1]
        XCTAssertEqual(XCTestLine(line), .finished(name: "A.b", status: .passed, seconds: 0.5))
    }

    /// A real swift-corelibs-xctest transcript (the Outcomes fixture, Swift 6.3 on Linux).
    func testRealLinuxTranscript() {
        let transcript = """
            Test Suite 'Selected tests' started at 2026-11-21 14:07:12.886
            Test Suite 'FailingTests' started at 2026-11-21 14:07:12.888
            Test Case 'FailingTests.testWrongSum' started at 2026-11-21 14:07:12.888
            /work/main/Tests/Fixtures/Outcomes/Tests/OutcomesTests/OutcomesTests.swift:12: error: FailingTests.testWrongSum : XCTAssertEqual failed: ("4") is not equal to ("5") - two and two
            Test Case 'FailingTests.testWrongSum' failed (0.001 seconds)
            Test Suite 'FailingTests' failed at 2026-11-21 14:07:12.889
            \t Executed 1 test, with 1 failure (0 unexpected) in 0.001 (0.001) seconds
            Test Case 'PassingTests.testPrintsAndPasses' started at 2026-11-21 14:07:12.889
            hello from a passing test
            Test Case 'PassingTests.testPrintsAndPasses' passed (0.0 seconds)
            Test Case 'SkippedTests.testSkipped' started at 2026-11-21 14:07:12.889
            /work/main/Tests/Fixtures/Outcomes/Tests/OutcomesTests/OutcomesTests.swift:43: SkippedTests.testSkipped : Test skipped - not on this platform
            Test Case 'SkippedTests.testSkipped' skipped (0.0 seconds)
            Test Suite 'Selected tests' failed at 2026-11-21 14:07:12.889
            \t Executed 3 tests, with 1 test skipped and 1 failure (0 unexpected) in 0.001 (0.001) seconds
            """
        let file = "/work/main/Tests/Fixtures/Outcomes/Tests/OutcomesTests/OutcomesTests.swift"
        let parsed = transcript.split(separator: "\n", omittingEmptySubsequences: false).map(XCTestLine.init)
        XCTAssertEqual(parsed, [
            .other, .other,
            .started(name: "FailingTests.testWrongSum"),
            .error(file: file, line: 12, test: "FailingTests.testWrongSum",
                   message: #"XCTAssertEqual failed: ("4") is not equal to ("5") - two and two"#),
            .finished(name: "FailingTests.testWrongSum", status: .failed, seconds: 0.001),
            .other, .summary(executed: 1, skipped: 0, failures: 1),
            .started(name: "PassingTests.testPrintsAndPasses"),
            .other,
            .finished(name: "PassingTests.testPrintsAndPasses", status: .passed, seconds: 0),
            .started(name: "SkippedTests.testSkipped"),
            .skipped(file: file, line: 43, test: "SkippedTests.testSkipped", reason: "not on this platform"),
            .finished(name: "SkippedTests.testSkipped", status: .skipped, seconds: 0),
            .other, .summary(executed: 3, skipped: 1, failures: 1),
        ])
    }
}

/// Look-alike lines and glued markers (issue: test output must not forge a verdict).
final class XCTestLineMarkerTests: XCTestCase {
    func testResultLineGluedAfterAPartialLineIsFound() {
        XCTAssertEqual(XCTestLine("downloading… 42%Test Case 'A.testB' passed (0.25 seconds)"),
                       .finished(name: "A.testB", status: .passed, seconds: 0.25))
        XCTAssertEqual(XCTestLine("\r 50%\r100%Test Case 'A.testB' failed (1.0 seconds)"),
                       .finished(name: "A.testB", status: .failed, seconds: 1.0))
        XCTAssertEqual(XCTestLine("noiseTest Case 'A.testB' started at 2026-11-24 21:13:43.719"), .started(name: "A.testB"))
    }

    func testAResultLineWithTextAfterItIsNotXCTests() {
        XCTAssertEqual(XCTestLine("Test Case 'A.testB' passed (0.25 seconds) -- not really"), .other)
        XCTAssertEqual(XCTestLine("Test Case 'A.testB' started later"), .other)
    }

    func testSummaryLines() {
        XCTAssertEqual(XCTestLine("\t Executed 16 tests, with 7 failures (0 unexpected) in 0.45 (0.45) seconds"),
                       .summary(executed: 16, skipped: 0, failures: 7))
        XCTAssertEqual(XCTestLine("\t Executed 1 test, with 1 test skipped and 0 failures (0 unexpected) in 0.001 (0.001) seconds"),
                       .summary(executed: 1, skipped: 1, failures: 0))
        XCTAssertEqual(XCTestLine("\t Executed 3 tests, with 2 tests skipped and 1 failure (0 unexpected) in 0.1 (0.1) seconds"),
                       .summary(executed: 3, skipped: 2, failures: 1))
        XCTAssertEqual(XCTestLine("Executed 3 tests, with 1 failure"), .other, "not at XCTest's indentation")
        XCTAssertEqual(XCTestLine("\t Executed 99999999999 tests, with 0 failures (0 unexpected)"), .other, "absurd counts are not XCTest's")
    }

    func testProgressBarBeforeAnErrorLineIsNotPartOfThePath() {
        XCTAssertEqual(XCTestLine("\rprogress 90%/no/such/File.swift:55: error: A.testB : failed - x"),
                       .error(file: "progress 90%/no/such/File.swift", line: 55, test: "A.testB", message: "failed - x"))
        let real = #filePath
        XCTAssertEqual(XCTestLine(Substring("progress 90%\(real):55: error: A.testB : failed - x")),
                       .error(file: real, line: 55, test: "A.testB", message: "failed - x"))
    }
}
