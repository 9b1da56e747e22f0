import Foundation
import Testing
import XCTest

@Suite(.tags(.arithmetic)) struct ArithmeticTests {
    @Test(.tags(.smoke)) func addition() { #expect(2 + 2 == 4) }
    @Test func wrongProduct() { #expect(2 * 2 == 5, "two times two") }
    @Test(.disabled("not on this platform")) func disabled() {}
    @Test func flaky() {
        let attempt = ProcessInfo.processInfo.environment["ROBOTCI_ATTEMPT"] ?? "1"
        #expect(attempt != "1", "first attempt fails on purpose")
    }
    @Test func prints() { print("hello from swift testing") }
    @Test func throwsError() throws { throw FixtureError.noConnection(host: "127.0.0.1") }
    @Test("even numbers are even", arguments: [2, 3, 4]) func parameterized(value: Int) {
        #expect(value % 2 == 0, "\(value) is odd")
    }
}

enum FixtureError: Error { case noConnection(host: String) }

/// A crash and a hang: each must end only its own test (crashed / timedOut).
@Suite struct FaultTests {
    @Test func crashes() {
        print("about to crash")
        let values: [Int] = []
        _ = values[3]
    }
    @Test func hangs() {
        print("about to hang")
        Thread.sleep(forTimeInterval: 3600)
    }
    @Test func afterFaults() { #expect(true) }
}

@Test(.tags(.smoke)) func freeFunction() { #expect(true) }

final class LegacyXCTests: XCTestCase {
    func testStillRuns() { XCTAssertTrue(true) }
    func testFailsInXCTest() { XCTAssertEqual(1, 2, "xctest failure") }
}

// Tags for `robotci --tag` (declared last: the tests above keep their line numbers).
extension Tag {
    @Tag static var smoke: Self
    @Tag static var arithmetic: Self
}
