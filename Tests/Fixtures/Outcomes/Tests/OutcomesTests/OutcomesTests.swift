import Foundation
import XCTest
@testable import Outcomes

final class PassingTests: XCTestCase {
    func testAddition() { XCTAssertEqual(add(2, 2), 4) }
    func testAlsoPasses() { XCTAssertTrue(true) }
    func testPrintsAndPasses() { print("hello from a passing test") }
}

final class FailingTests: XCTestCase {
    func testWrongSum() { XCTAssertEqual(add(2, 2), 5, "two and two") }
}

final class FlakyTests: XCTestCase {
    /// Fails on the first attempt, passes on any retry.
    func testFailsOnceThenPasses() {
        let attempt = ProcessInfo.processInfo.environment["ROBOTCI_ATTEMPT"] ?? "1"
        XCTAssertNotEqual(attempt, "1", "first attempt fails on purpose")
    }
}

final class CrashTests: XCTestCase {
    func testA_BeforeCrash() { XCTAssertTrue(true) }
    func testB_Crashes() {
        print("about to crash")
        let values: [Int] = []
        _ = values[3]  // traps: index out of range
    }
    func testC_AfterCrash() { XCTAssertTrue(true) }
}

final class HangTests: XCTestCase {
    func testA_BeforeHang() { XCTAssertTrue(true) }
    func testB_Hangs() {
        print("about to hang")
        Thread.sleep(forTimeInterval: 3600)
    }
    func testC_AfterHang() { XCTAssertTrue(true) }
}

final class SkippedTests: XCTestCase {
    func testSkipped() throws { throw XCTSkip("not on this platform") }
}

final class LoudTests: XCTestCase {
    /// 20,000 lines: must not stall its worker on a full pipe.
    func testPrintsTwentyThousandLines() {
        for i in 0..<20_000 { print("line \(i) of a very loud test <>&\u{1}") }
    }
}
