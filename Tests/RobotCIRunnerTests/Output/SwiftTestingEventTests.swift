@testable import RobotCIRunner
import XCTest

/// Swift Testing's event stream lines (captured from a real run) become the same
/// events the XCTest parser makes, named by the listed test id.
final class SwiftTestingEventTests: XCTestCase {
    private func parse(_ s: String) -> [XCTestLine] { SwiftTestingEvent.parse(Substring(s)) }

    func testStartedEndedAndIssue() {
        let id = "Fix.ArithmeticTests/wrongProduct()/Tests.swift:7:6"
        XCTAssertEqual(parse(#"{"kind":"event","payload":{"instant":{"absolute":1.0,"since1970":2.0},"kind":"testStarted","messages":[{"symbol":"default","text":"Test wrongProduct() started."}],"testID":"Fix.ArithmeticTests/wrongProduct()/Tests.swift:7:6"},"version":0}"#),
                       [.started(name: id)])
        XCTAssertEqual(parse(#"{"kind":"event","payload":{"issue":{"isKnown":false,"sourceLocation":{"_filePath":"/src/Tests.swift","column":33,"fileID":"Fix/Tests.swift","line":7}},"kind":"issueRecorded","messages":[{"symbol":"fail","text":"Expectation failed: (2 * 2 → 4) == 5"},{"symbol":"details","text":"two times two"}],"testID":"Fix.ArithmeticTests/wrongProduct()/Tests.swift:7:6"},"version":0}"#),
                       [.error(file: "/src/Tests.swift", line: 7, test: id, message: "Expectation failed: (2 * 2 → 4) == 5 — two times two")])
        XCTAssertEqual(parse(#"{"kind":"event","payload":{"kind":"testEnded","messages":[{"symbol":"fail","text":"Test wrongProduct() failed after 0.125 seconds with 1 issue."}],"testID":"Fix.ArithmeticTests/wrongProduct()/Tests.swift:7:6"},"version":0}"#),
                       [.finished(name: id, status: .ended, seconds: 0.125)], "the end event carries no verdict: the issues decide")
        XCTAssertEqual(parse(#"{"kind":"event","payload":{"kind":"testEnded","messages":[{"symbol":"pass","text":"Test addition() passed after 0.001 seconds."}],"testID":"Fix.ArithmeticTests/addition()/Tests.swift:6:6"},"version":0}"#),
                       [.finished(name: "Fix.ArithmeticTests/addition()/Tests.swift:6:6", status: .ended, seconds: 0.001)])
    }

    func testSkippedTestGetsTheWholeSequence() {
        let events = parse(#"{"kind":"event","payload":{"kind":"testSkipped","messages":[{"symbol":"skip","text":"Test disabled() skipped: \"not on this platform\""}],"testID":"Fix.ArithmeticTests/disabled()/Tests.swift:8:6"},"version":0}"#)
        let id = "Fix.ArithmeticTests/disabled()/Tests.swift:8:6"
        XCTAssertEqual(events, [.started(name: id), .skipped(file: "", line: 0, test: id, reason: "not on this platform"),
                                .finished(name: id, status: .skipped, seconds: 0)])
    }

    func testKnownIssuesRunLevelEventsAndGarbageAreIgnored() {
        XCTAssertEqual(parse(#"{"kind":"event","payload":{"issue":{"isKnown":true},"kind":"issueRecorded","messages":[],"testID":"A/b()/F.swift:1:1"},"version":0}"#), [])
        XCTAssertEqual(parse(#"{"kind":"event","payload":{"kind":"runStarted","messages":[]},"version":0}"#), [])
        XCTAssertEqual(parse(#"{"kind":"event", not json"#), [])
    }

    func testListedID() {
        XCTAssertEqual(SwiftTestingEvent.listedID("M.S/f()/F.swift:3:4"), "M.S/f()")
        XCTAssertEqual(SwiftTestingEvent.listedID("M.f()/F.swift:16:2"), "M.f()")
        XCTAssertEqual(SwiftTestingEvent.listedID("M.Suite"), "M.Suite")
        XCTAssertEqual(SwiftTestingEvent.listedID("M.`a/b.swift:1:2`()/F.swift:3:4"), "M.`a/b.swift:1:2`()")
    }
}

/// Parameterized tests are reported per function; a failing case's issue names its arguments
/// (lines captured from a real Swift 6.3 run; the console's `Test case passing 1 argument
/// value → 3 …` lines reach the output as any output does).
final class SwiftTestingParameterizedTests: XCTestCase {
    private func parse(_ s: String) -> [XCTestLine] { SwiftTestingEvent.parse(Substring(s)) }

    func testIssueInACaseNamesItsArguments() {
        let events = parse(#"{"kind":"event","payload":{"_testCase":{"displayName":"3","id":"x"},"issue":{"isKnown":false,"sourceLocation":{"_filePath":"\/src\/Tests.swift","column":9,"fileID":"Fix\/Tests.swift","line":16}},"kind":"issueRecorded","messages":[{"symbol":"fail","text":"Expectation failed: (value % 2 → 1) == 0"},{"symbol":"details","text":"3 is odd"}],"testID":"Fix.ArithmeticTests\/parameterized(value:)\/Tests.swift:15:6"},"version":0}"#)
        XCTAssertEqual(events, [.error(file: "/src/Tests.swift", line: 16, test: "Fix.ArithmeticTests/parameterized(value:)/Tests.swift:15:6",
                                       message: "with arguments (3): Expectation failed: (value % 2 → 1) == 0 — 3 is odd")])
    }

    func testCaseStartAndEndAreNotTestStartAndEnd() {
        XCTAssertEqual(parse(#"{"kind":"event","payload":{"_testCase":{"displayName":"3","id":"x"},"kind":"testCaseEnded","messages":[],"testID":"Fix.S\/p(value:)\/Tests.swift:15:6"},"version":0}"#), [])
        XCTAssertEqual(parse(#"{"kind":"event","payload":{"_testCase":{"displayName":"3","id":"x"},"kind":"testCaseStarted","messages":[{"symbol":"default","text":"Test case passing 1 argument value → 3 to \"p\" started."}],"testID":"Fix.S\/p(value:)\/Tests.swift:15:6"},"version":0}"#), [])
    }
}
