import Foundation
import XCTest

private let sleep = Double(ProcessInfo.processInfo.environment["QUEUE_SLEEP"] ?? "") ?? 0.2

/// Tests that pass after a short sleep, so a run lasts long enough to kill a machine mid-way
/// (with QUEUE_FAIL_ALL=1 every one fails: a broken environment, for --max-failures).
final class SlowTests: XCTestCase {
    private func slowly() {
        Thread.sleep(forTimeInterval: sleep)
        if ProcessInfo.processInfo.environment["QUEUE_FAIL_ALL"] == "1" { XCTFail("the environment is broken (QUEUE_FAIL_ALL)") }
    }

    func test01() { slowly() }
    func test02() { slowly() }
    func test03() { slowly() }
    func test04() { slowly() }
    func test05() { slowly() }
    func test06() { slowly() }
    func test07() { slowly() }
    func test08() { slowly() }
    func test09() { slowly() }
    func test10() { slowly() }
    func test11() { slowly() }
    func test12() { slowly() }
    func test13() { slowly() }
    func test14() { slowly() }
    func test15() { slowly() }
    func test16() { slowly() }
    func test17() { slowly() }
    func test18() { slowly() }
    func test19() { slowly() }
    func test20() { slowly() }
    func test21() { slowly() }
    func test22() { slowly() }
    func test23() { slowly() }
    func test24() { slowly() }
    func test25() { slowly() }
    func test26() { slowly() }
    func test27() { slowly() }
}

final class FailingTests: XCTestCase {
    func testFails() { XCTAssertEqual(1 + 1, 3, "fails on every attempt") }
}

final class FlakyTests: XCTestCase {
    /// Fails on the first attempt, passes on any retry (on whichever machine runs it).
    func testFailsOnce() {
        XCTAssertNotEqual(ProcessInfo.processInfo.environment["ROBOTCI_ATTEMPT"] ?? "1", "1", "first attempt fails on purpose")
    }
}

final class CrashTests: XCTestCase {
    func testCrashes() {
        print("about to crash")
        let values: [Int] = []
        _ = values[2]
    }
}

final class SkippedTests: XCTestCase {
    func testSkipped() throws { throw XCTSkip("skipped on purpose") }
}
