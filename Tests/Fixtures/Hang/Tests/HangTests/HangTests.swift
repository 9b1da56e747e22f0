import Foundation
import XCTest

final class HangTests: XCTestCase {
    func testUsuallyFast() {
        let env = ProcessInfo.processInfo.environment
        if let hangOn = env["HANG_ON_ATTEMPT"], hangOn == env["ROBOTCI_ATTEMPT"] {
            Thread.sleep(forTimeInterval: 600)
        }
        XCTAssertTrue(true)
    }

    func testAlsoFast() {}
}
