import XCTest

/// Same class and test name as in EdgesOtherTests, with the opposite verdict.
final class SharedTests: XCTestCase {
    func testSameNameInTwoModules() {
        XCTFail("EdgesTests.SharedTests fails; EdgesOtherTests.SharedTests passes")
    }
}
