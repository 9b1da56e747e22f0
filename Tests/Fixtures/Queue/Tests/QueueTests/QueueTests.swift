import Foundation
import XCTest

private let sleep = Double(ProcessInfo.processInfo.environment["QUEUE_SLEEP"] ?? "") ?? 0.2

/// Tests that pass after a short sleep, so a run lasts long enough to kill a machine mid-way.
final class SlowTests: XCTestCase {
    func test01() { Thread.sleep(forTimeInterval: sleep) }
    func test02() { Thread.sleep(forTimeInterval: sleep) }
    func test03() { Thread.sleep(forTimeInterval: sleep) }
    func test04() { Thread.sleep(forTimeInterval: sleep) }
    func test05() { Thread.sleep(forTimeInterval: sleep) }
    func test06() { Thread.sleep(forTimeInterval: sleep) }
    func test07() { Thread.sleep(forTimeInterval: sleep) }
    func test08() { Thread.sleep(forTimeInterval: sleep) }
    func test09() { Thread.sleep(forTimeInterval: sleep) }
    func test10() { Thread.sleep(forTimeInterval: sleep) }
    func test11() { Thread.sleep(forTimeInterval: sleep) }
    func test12() { Thread.sleep(forTimeInterval: sleep) }
    func test13() { Thread.sleep(forTimeInterval: sleep) }
    func test14() { Thread.sleep(forTimeInterval: sleep) }
    func test15() { Thread.sleep(forTimeInterval: sleep) }
    func test16() { Thread.sleep(forTimeInterval: sleep) }
    func test17() { Thread.sleep(forTimeInterval: sleep) }
    func test18() { Thread.sleep(forTimeInterval: sleep) }
    func test19() { Thread.sleep(forTimeInterval: sleep) }
    func test20() { Thread.sleep(forTimeInterval: sleep) }
    func test21() { Thread.sleep(forTimeInterval: sleep) }
    func test22() { Thread.sleep(forTimeInterval: sleep) }
    func test23() { Thread.sleep(forTimeInterval: sleep) }
    func test24() { Thread.sleep(forTimeInterval: sleep) }
    func test25() { Thread.sleep(forTimeInterval: sleep) }
    func test26() { Thread.sleep(forTimeInterval: sleep) }
    func test27() { Thread.sleep(forTimeInterval: sleep) }
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
