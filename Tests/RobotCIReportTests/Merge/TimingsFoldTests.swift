import Foundation
import RobotCICore
@testable import RobotCIReport
import XCTest

final class TimingsFoldTests: XCTestCase {
    func testIdsKeepTheirNumbersAsTheTableGrows() {
        var ids = IDNumbers()
        let names = (0..<5000).map { "Suite.Class\($0 % 97)/test_\($0)_é" } + [""]
        func number(_ s: String) -> Int {
            var s = s
            return s.withUTF8 { ids.number(of: UnsafeRawBufferPointer($0)) }
        }
        let first = names.map(number)
        XCTAssertEqual(first, Array(0..<names.count))
        XCTAssertEqual(names.map(number), first, "seen again: the same numbers")
        XCTAssertEqual(ids.count, names.count)
        XCTAssertEqual(first.map(ids.string), names)
    }

    func testALaterInputWinsAndAnUnusableOneAddsNothing() {
        var fold = TimingsFold()
        XCTAssertNoThrow(try fold.add(Data("{\"tests\":{\"a/x\":1,\"a/y\":2},\"version\":1}".utf8), path: "p1/timings.json"))
        XCTAssertThrowsError(try fold.add(Data("{\"tests\":{\"a/x\":\"slow\"},\"version\":1}".utf8), path: "p2/timings.json")) {
            XCTAssertTrue("\($0)".hasPrefix("p2/timings.json: not a robotci timings.json"), "\($0)")
        }
        XCTAssertNoThrow(try fold.add(Data("{\"version\":1,\"tests\":{\"a\\/y\":3,\"b/z\":4}}".utf8), path: "p3/timings.json"))
        XCTAssertEqual(fold.timings(skipping: []), Timings(tests: ["a/x": 1, "a/y": 3, "b/z": 4]))
        XCTAssertEqual(fold.timings(skipping: ["a/x"]), Timings(tests: ["a/y": 3, "b/z": 4]))
    }

    /// The same file again is skipped (1,000 partitions carry one), but not when another came
    /// between: the later input still wins.
    func testTheSameFileAgainChangesNothingAndALaterOneStillWins() throws {
        let a = Data("{\"tests\":{\"a/x\":1,\"a/y\":2},\"version\":1}".utf8)
        let b = Data("{\"tests\":{\"a/x\":5},\"version\":1}".utf8)
        var fold = TimingsFold()
        for data in [a, a, Data(a)] { try fold.add(data, path: "p/timings.json") }
        XCTAssertEqual(fold.timings(skipping: []), Timings(tests: ["a/x": 1, "a/y": 2]))
        try fold.add(b, path: "p/timings.json")
        XCTAssertEqual(fold.timings(skipping: []), Timings(tests: ["a/x": 5, "a/y": 2]))
        try fold.add(a, path: "p/timings.json")
        XCTAssertEqual(fold.timings(skipping: []), Timings(tests: ["a/x": 1, "a/y": 2]))
        // A bad file is bad every time, each time said.
        let bad = Data("{\"tests\":{\"a/x\":\"slow\"},\"version\":1}".utf8)
        XCTAssertThrowsError(try fold.add(bad, path: "p1/timings.json"))
        XCTAssertThrowsError(try fold.add(bad, path: "p2/timings.json"))
    }
}
