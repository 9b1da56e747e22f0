@testable import RobotCIRunner
import XCTest

final class OutputBufferTests: XCTestCase {
    private let marker = "bytes omitted (full output in the batch log)"

    func testSmallOutputIsKeptVerbatim() {
        var buffer = OutputBuffer()
        for line in ["one", "", "three"] { buffer.append(Substring(line)) }
        XCTAssertEqual(buffer.text, "one\n\nthree\n")
        XCTAssertFalse(buffer.isTruncated)
        XCTAssertEqual(buffer.omittedBytes, 0)
        XCTAssertFalse(buffer.text.contains(marker))
    }

    func testEmpty() {
        let buffer = OutputBuffer()
        XCTAssertEqual(buffer.text, "")
        XCTAssertFalse(buffer.isTruncated)
    }

    func testDefaultLimits() {
        let buffer = OutputBuffer()
        XCTAssertEqual(buffer.headLimit, 16 * 1024)
        XCTAssertEqual(buffer.tailLimit, 48 * 1024)
    }

    func testHeadAndTailKeptMiddleCounted() {
        var buffer = OutputBuffer(headLimit: 10, tailLimit: 10)
        for line in ["aaaa", "bbbb", "cccc", "dddd", "eeee"] { buffer.append(Substring(line)) }
        // Each line costs 5 bytes with its newline: two fit the head, two the tail, one is dropped.
        XCTAssertEqual(buffer.omittedBytes, 5)
        XCTAssertTrue(buffer.isTruncated)
        XCTAssertEqual(buffer.text, "aaaa\nbbbb\n… 5 bytes omitted (full output in the batch log) …\ndddd\neeee\n")
    }

    func testFullHeadAndTailWithoutOverflowIsNotTruncated() {
        var buffer = OutputBuffer(headLimit: 10, tailLimit: 10)
        for line in ["aaaa", "bbbb", "cccc", "dddd"] { buffer.append(Substring(line)) }
        XCTAssertFalse(buffer.isTruncated)
        XCTAssertEqual(buffer.text, "aaaa\nbbbb\ncccc\ndddd\n")
    }

    func testHeadStopsAtTheFirstLineThatDoesNotFit() {
        var buffer = OutputBuffer(headLimit: 10, tailLimit: 100)
        buffer.append("aaaa")
        buffer.append("a-line-too-long-for-the-head")
        buffer.append("b")  // would still fit the head, but the head is closed
        XCTAssertEqual(buffer.text, "aaaa\na-line-too-long-for-the-head\nb\n")
        XCTAssertFalse(buffer.isTruncated)
    }

    func testOmittedBytesCountUTF8AndNewlines() {
        var buffer = OutputBuffer(headLimit: 0, tailLimit: 4)
        buffer.append("é")   // 2 bytes + newline
        buffer.append("→")   // 3 bytes + newline
        buffer.append("x")
        XCTAssertEqual(buffer.omittedBytes, 3 + 4)
        XCTAssertEqual(buffer.text, "… 7 bytes omitted (full output in the batch log) …\nx\n")
    }

    func testTheLastLineIsKeptEvenWhenLargerThanTheTail() {
        var buffer = OutputBuffer(headLimit: 0, tailLimit: 4)
        buffer.append("small")
        buffer.append(Substring(String(repeating: "z", count: 50)))
        XCTAssertEqual(buffer.omittedBytes, 6)
        XCTAssertEqual(buffer.text, "… 6 bytes omitted (full output in the batch log) …\n" + String(repeating: "z", count: 50) + "\n")
    }

    func testManyLinesKeepsExactTail() {
        // Far more lines than the tail holds, to go through the tail's compaction.
        var buffer = OutputBuffer(headLimit: 100, tailLimit: 1000)
        var all = ""
        for i in 0..<20_000 {
            let line = "line \(i)"
            buffer.append(Substring(line))
            all += line + "\n"
        }
        let text = buffer.text
        XCTAssertTrue(text.hasPrefix("line 0\nline 1\n"))
        XCTAssertTrue(text.hasSuffix("line 19998\nline 19999\n"))
        XCTAssertTrue(buffer.isTruncated)
        let parts = text.components(separatedBy: "… \(buffer.omittedBytes) bytes omitted (full output in the batch log) …\n")
        XCTAssertEqual(parts.count, 2)
        XCTAssertLessThanOrEqual(parts[0].utf8.count, 100)
        XCTAssertLessThanOrEqual(parts[1].utf8.count, 1000)
        XCTAssertGreaterThan(parts[1].utf8.count, 1000 - 12, "the tail is filled")
        XCTAssertEqual(parts[0].utf8.count + buffer.omittedBytes + parts[1].utf8.count, all.utf8.count, "every byte accounted for")
        XCTAssertTrue(all.hasPrefix(parts[0]))
        XCTAssertTrue(all.hasSuffix(parts[1]))
    }
}
