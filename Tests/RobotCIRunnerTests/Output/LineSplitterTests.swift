@testable import RobotCIRunner
import XCTest

final class LineSplitterTests: XCTestCase {
    private var splitter = LineSplitter()
    private var lines: [String] = []

    private func feed(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { buffer in splitter.feed(buffer) { lines.append(String($0)) } }
    }

    private func feed(_ s: String) { feed(Array(s.utf8)) }

    private func finish() { splitter.finish { lines.append(String($0)) } }

    func testCompleteLinesInOneChunk() {
        feed("a\nbb\n\nccc\n")
        XCTAssertEqual(lines, ["a", "bb", "", "ccc"])
        finish()
        XCTAssertEqual(lines, ["a", "bb", "", "ccc"], "nothing pending")
    }

    func testLineSplitAcrossChunks() {
        feed("Test Case 'A.b' sta")
        XCTAssertEqual(lines, [])
        feed("rted at x\nsecond ")
        XCTAssertEqual(lines, ["Test Case 'A.b' started at x"])
        feed("half")
        feed("\n")
        XCTAssertEqual(lines, ["Test Case 'A.b' started at x", "second half"])
    }

    func testEveryByteItsOwnChunk() {
        for b in Array("one\ntwo\r\nthree\n".utf8) { feed([b]) }
        XCTAssertEqual(lines, ["one", "two", "three"])
    }

    func testCRLF() {
        feed("a\r\nb\r\n")
        feed("c\r")
        feed("\n")
        XCTAssertEqual(lines, ["a", "b", "c"])
    }

    func testOnlyTheLastCarriageReturnIsDropped() {
        feed("progress\r50%\r100%\r\n")
        XCTAssertEqual(lines, ["progress\r50%\r100%"])
    }

    func testInvalidUTF8IsRepaired() {
        feed([0x61, 0xFF, 0x62, 0x0A, 0xC3])  // "a", invalid, "b", newline, truncated 2-byte sequence
        XCTAssertEqual(lines, ["a\u{FFFD}b"])
        finish()
        XCTAssertEqual(lines, ["a\u{FFFD}b", "\u{FFFD}"])
    }

    func testMultiByteCharacterSplitAcrossChunks() {
        let bytes = Array("é→😀\n".utf8)
        for b in bytes { feed([b]) }
        XCTAssertEqual(lines, ["é→😀"])
    }

    func testFinishFlushesTheTail() {
        feed("a\nno newline at end")
        XCTAssertEqual(lines, ["a"])
        finish()
        XCTAssertEqual(lines, ["a", "no newline at end"])
        finish()
        XCTAssertEqual(lines, ["a", "no newline at end"], "finish twice emits nothing more")
        feed("again\n")
        XCTAssertEqual(lines.last, "again", "usable after finish")
    }

    func testHugeLineWithoutNewlineIsEmittedInPieces() {
        splitter = LineSplitter(maxLineBytes: 4, carriedBytes: 0)
        feed("abc")
        XCTAssertEqual(lines, [])
        feed("def")
        XCTAssertEqual(lines, ["abcdef"], "emitted once pending exceeds the limit")
        feed("ghi")
        feed("\n")
        XCTAssertEqual(lines, ["abcdef", "ghi"])
    }

    func testPendingNeverExceedsLimitPlusOneChunk() {
        splitter = LineSplitter(maxLineBytes: 1024, carriedBytes: 0)
        let chunk = [UInt8](repeating: UInt8(ascii: "x"), count: 100)
        for _ in 0..<1000 { feed(chunk) }
        finish()
        XCTAssertEqual(lines.reduce(0) { $0 + $1.utf8.count }, 100_000, "nothing lost")
        XCTAssertTrue(lines.allSatisfy { $0.utf8.count <= 1024 + 100 }, "\(lines.map(\.utf8.count).max() ?? 0)")
        XCTAssertEqual(lines.count, 100_000 / 1100 + 1)
    }

    func testLineAtExactlyTheLimitIsKeptWhole() {
        splitter = LineSplitter(maxLineBytes: 4, carriedBytes: 0)
        feed("abcd")
        XCTAssertEqual(lines, [])
        feed("\n")
        XCTAssertEqual(lines, ["abcd"])
    }

    func testDefaultLimitIsOneMebibyte() {
        XCTAssertEqual(LineSplitter().maxLineBytes, 1 << 20)
    }
}

final class LineSplitterCarryTests: XCTestCase {
    /// A result line glued to the end of megabytes without a newline is never cut in two.
    func testTheEndOfAnOverlongLineIsCarriedIntoTheNextPiece() {
        var splitter = LineSplitter(maxLineBytes: 1024, carriedBytes: 256)
        var lines: [String] = []
        let marker = "Test Case 'A.testB' passed (0.1 seconds)"
        let junk = [UInt8](repeating: UInt8(ascii: "y"), count: 5000)
        let tail = Array((marker + "\n").utf8)
        // The marker arrives split over two reads, right after a read that overflows.
        let first = junk + Array(tail.prefix(10)), second = Array(tail.dropFirst(10))
        for chunk in [first, second] { chunk.withUnsafeBufferPointer { splitter.feed($0) { lines.append(String($0)) } } }
        splitter.finish { lines.append(String($0)) }
        XCTAssertTrue(lines.last?.hasSuffix(marker) == true, "\(lines.map { $0.suffix(60) })")
        XCTAssertEqual(lines.map(\.utf8.count).reduce(0, +), 5000 + marker.utf8.count)
        XCTAssertEqual(XCTestLine(Substring(lines.last ?? "")), .finished(name: "A.testB", status: .passed, seconds: 0.1))
    }
}
