import Foundation
import RobotCICore
@testable import RobotCIReport
import XCTest

/// `TimingsScanner` reads what robotci writes exactly as `JSONDecoder` does, and leaves
/// everything else to `JSONDecoder`.
final class TimingsScannerTests: XCTestCase {
    private func scanned(_ text: String) -> Timings? {
        Data(text.utf8).withUnsafeBytes(TimingsScanner.timings)
    }

    func testReadsWhatRobotCIWritesAsJSONDecoderDoes() throws {
        let timings = Timings(tests: [
            "M.A/test1": 0.1, "M.A/test2": 12.345678901234567, "M.B/tëst": 3e-7, "pkg/x.py::T::t[1/2]": 1_000_000, "M.C/zero": 0,
        ])
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = try encoder.encode(timings)
        let fast = try XCTUnwrap(data.withUnsafeBytes(TimingsScanner.timings))
        XCTAssertEqual(fast, try JSONDecoder().decode(Timings.self, from: data))
        XCTAssertEqual(fast, timings)
    }

    func testSpacesAndKeyOrderAreRobotCIsShapeToo() {
        XCTAssertEqual(scanned(" { \"version\" : 1 ,\n \"tests\" : { \"a/b\" : -1.5e2 , \"c/d\":2 } } "),
                       Self.versionOne(["a/b": -150, "c/d": 2]))
        XCTAssertEqual(scanned("{\"tests\":{},\"version\":1}"), Self.versionOne([:]))
    }

    func testAnythingElseIsLeftToJSONDecoder() {
        for text in [
            "{\"tests\":{\"a\\/b\":1},\"version\":1}",  // an escape
            "{\"tests\":{\"a\":1,\"a\":2},\"version\":1}",  // a duplicate id
            "{\"tests\":{\"a\":1},\"version\":1,\"more\":0}",  // another key
            "{\"tests\":{\"a\":01},\"version\":1}", "{\"tests\":{\"a\":1.},\"version\":1}", "{\"tests\":{\"a\":1e},\"version\":1}",
            "{\"tests\":{\"a\":NaN},\"version\":1}", "{\"tests\":{\"a\":1}}", "{\"tests\":{\"a\":1},\"version\":1.5}",
            "{\"tests\":{\"a\":1},\"version\":1}x", "{\"tests\":{\"a\":1,},\"version\":1}", "", "[]",
        ] {
            XCTAssertNil(scanned(text), text)
        }
    }

    func testTheReaderStillDecodesOtherShapes() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("timings-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: url) }
        try Data("{\"tests\":{\"a\\/b\":1.5},\"version\":1}".utf8).write(to: url)
        XCTAssertEqual(try ReportReader.timingsFile(at: url), Self.versionOne(["a/b": 1.5]))
        try Data("{\"tests\":{\"a\":\"slow\"},\"version\":1}".utf8).write(to: url)
        XCTAssertThrowsError(try ReportReader.timingsFile(at: url))
    }

    /// A version 1 file reads as what it says (version 1, no other browsers); writing it
    /// again makes it the current version.
    private static func versionOne(_ tests: [String: Double]) -> Timings {
        var timings = Timings(tests: tests)
        timings.version = 1
        return timings
    }
}
