import RobotCICore
@testable import RobotCIQueue
import XCTest

/// The queue's plan: small chunks of the longest-first order, one batch group and one
/// repetition each, that a lease merges into batches sized for the live machines.
final class QueueChunksTests: XCTestCase {
    private func planned(_ name: String, _ seconds: Double, known: Bool = true) -> PlannedTest {
        PlannedTest(id: TestID(name), expected: seconds, known: known)
    }

    func testKnownTestsCloseAChunkAtATenthOfASecondOrEightTests() {
        let tests = [planned("M.C/a", 0.3), planned("M.C/b", 0.04), planned("M.C/c", 0.04), planned("M.C/d", 0.04), planned("M.C/e", 0.01)]
            + (0..<9).map { planned("M.C/f\($0)", 0.001) }
        let chunks = QueueChunks.cut(tests) { _ in 0 }
        XCTAssertEqual(chunks.map(\.tests.count), [1, 3, 8, 2])
        XCTAssertEqual(chunks.map(\.expected), [300, 120, 17, 2], "a chunk's expected milliseconds are its tests' sum")
        XCTAssertEqual(Set(chunks.map(\.group)), ["0.0"])
        XCTAssertEqual(Set(chunks.map(\.attempt)), [1])
    }

    func testAGuessIsAChunkOfItsOwn() {
        let tests = (0..<20).map { planned("M.C/t\($0)", 1, known: false) }
        let chunks = QueueChunks.cut(tests) { _ in 0 }
        XCTAssertEqual(chunks.map(\.tests.count), Array(repeating: 1, count: 20), "a guess says nothing of a test's length")
        XCTAssertEqual(chunks.flatMap(\.tests), tests.map(\.id), "the order is kept")
    }

    func testGroupsAndRepetitionsNeverShareAChunk() {
        let ids = [TestID("M.C/a"), TestID("M.S/b()"), TestID("M.C/c")]
        let tests = (ids + [TestID("M.C/a").repetition(2, of: 2)]).map { PlannedTest(id: $0, expected: 0.01, known: true) }
        let chunks = QueueChunks.cut(tests) { $0.description.hasPrefix("M.S") ? 1 : 0 }
        XCTAssertEqual(chunks.map { $0.tests.map(\.description) }.sorted { $0[0] < $1[0] },
                       [["M.C/a", "M.C/c"], ["M.C/a (repeat 2 of 2)"], ["M.S/b()"]])
        XCTAssertEqual(Set(chunks.compactMap(\.group)).count, 3)
        XCTAssertEqual(chunks.flatMap(\.tests).count, 4, "every test in exactly one chunk")
    }

    func testMaxBatchSizeOneMakesAChunkATest() {
        let tests = (0..<3).map { planned("M.C/t\($0)", 0.01) }
        XCTAssertEqual(QueueChunks.cut(tests, maximumTests: 1) { _ in 0 }.map(\.tests.count), [1, 1, 1])
    }

    func testBrowsersNeverShareAChunk() {
        let tests = [TestID("M.C/a"), TestID("M.C/a", repetition: nil, browser: "webkit"), TestID("M.C/b"), TestID("M.C/b", repetition: nil, browser: "webkit")]
        let chunks = QueueChunks.cut(tests.map { PlannedTest(id: $0, expected: 0.01, known: true) }) { _ in 0 }
        XCTAssertEqual(chunks.map { $0.tests.map(\.description) }.sorted { $0[0] < $1[0] }, [["M.C/a", "M.C/b"], ["M.C/a [webkit]", "M.C/b [webkit]"]])
        XCTAssertEqual(Set(chunks.compactMap(\.group)).count, 2, "a lease merges chunks of one group only")
    }
}
