@testable import RobotCIRunner
import XCTest

/// Inputs caught by the invariants of fuzz/FuzzXCTestLine and fuzz/FuzzSwiftTestingEvent
/// (libFuzzer; see fuzz/README.md).
final class FuzzRegressionTests: XCTestCase {
    /// A result line whose duration has 309+ digits read as infinity: the attempt then
    /// could not be written to results.jsonl/results.json (JSON has no infinity).
    func testXCTestDurationTooBigForADoubleIsZero() {
        let digits = String(repeating: "9", count: 400)
        XCTAssertEqual(XCTestLine(Substring("Test Case 'A.b' passed (\(digits) seconds)")),
                       .finished(name: "A.b", status: .passed, seconds: 0))
        XCTAssertEqual(XCTestLine(Substring("Test Case 'A.b' failed (1\(String(repeating: "0", count: 309)).5 seconds)")),
                       .finished(name: "A.b", status: .failed, seconds: 0))
        XCTAssertEqual(XCTestLine(Substring("Test Case 'A.b' passed (1\(String(repeating: "0", count: 300)) seconds)")),
                       .finished(name: "A.b", status: .passed, seconds: 1e300), "big but finite is kept")
    }

    func testSwiftTestingDurationTooBigForADoubleIsZero() {
        let digits = String(repeating: "9", count: 400)
        let line = #"{"kind":"event","payload":{"kind":"testEnded","messages":[{"symbol":"pass","text":"Test t() passed after \#(digits) seconds."}],"testID":"M.S/t()/F.swift:1:1"},"version":0}"#
        XCTAssertEqual(SwiftTestingEvent.parse(Substring(line)), [.finished(name: "M.S/t()/F.swift:1:1", status: .ended, seconds: 0)])
    }

    /// Found by fuzz/FuzzXCTestLine (crash-f7e6851b…, kept in fuzz/corpus): a line of the
    /// test's output ending in CR, joined to the next with "\n", became one "\r\n" Character,
    /// which `split(separator: "\n")` does not split at: the reason took in the next line.
    func testCrashReasonEndsAtACRLF() {
        let summary = CrashSummary(output: "Fatal error: boom\r\r\nnext line\r\n3 [ra] 0x1 T.t() + 5 in X.xctest at /w/Tests/T.swift:28:19\n")
        XCTAssertEqual(summary.reason?.hasPrefix("Fatal error: boom"), true)
        XCTAssertEqual(summary.reason?.contains("next line"), false)
        XCTAssertEqual(summary.file, "/w/Tests/T.swift")
        XCTAssertEqual(summary.line, 28)
    }
}
