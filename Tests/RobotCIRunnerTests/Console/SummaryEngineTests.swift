import RobotCICore
@testable import RobotCIRunner
import XCTest

/// The summary's counts per engine (`--browsers`): a test flaky on WebKit only is WebKit's.
final class SummaryEngineTests: XCTestCase {
    private func record(_ test: String, _ browser: String?, _ outcomes: [AttemptOutcome]) -> TestRecord {
        TestRecord(id: TestID(test, repetition: nil, browser: browser), attempts: outcomes.enumerated().map { n, o in
            Attempt(number: n + 1, outcome: o, duration: 1, start: 0, placement: .init(shard: 0, batch: 0))
        })
    }

    func testEachEngineHasItsLine() {
        let tests = [record("M.C/a", nil, [.passed]), record("M.C/a", "webkit", [.failed, .passed]),
                     record("M.C/b", nil, [.passed]), record("M.C/b", "webkit", [.failed, .failed])]
        XCTAssertEqual(Summary.engineLines(tests), ["  chromium     2 passed", "  webkit       0 passed, 1 failed, 1 flaky"])
        XCTAssertEqual(Summary.engineLines([record("M.C/a", "webkit", [.passed])]), ["  webkit       1 passed"])
    }

    func testARunOfTheDefaultEngineAloneHasNone() {
        XCTAssertEqual(Summary.engineLines([record("M.C/a", nil, [.passed])]), [])
    }
}
