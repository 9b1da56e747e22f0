import XCTest

/// Same class and test name as in EdgesTests, with the opposite verdict.
final class SharedTests: XCTestCase {
    func testSameNameInTwoModules() {}
}
