@testable import RobotCIReport
import XCTest

/// The packed history the page unpacks (`lettersOf`, `durationsOf` in report.js; the browser
/// tests check the page shows what was packed).
final class HistoryPackingTests: XCTestCase {
    func testLettersAreRunLengthCoded() {
        XCTAssertEqual(HistoryPacking.letters(String(repeating: "P", count: 30)), "P30")
        XCTAssertEqual(HistoryPacking.letters("KPKPKK"), "KPKPK2")
        XCTAssertEqual(HistoryPacking.letters("--PPPF"), "-2P3F")
        XCTAssertEqual(HistoryPacking.letters(""), "")
        XCTAssertEqual(HistoryPacking.letters("P1é"), "P-2", "a digit would read as a count: unknown letters are `-`")
    }

    func testDurationsAreZigzagChangesInBase32() {
        // 1000: +1000 → 2000 = 1·1024 + 30·32 + 16 → "B/g"; 1010: +10 → 20 → "k"; not run → "_";
        // 990: -20 → 39 = 1·32 + 7 → "B7"; 990 again: 0 → "0".
        XCTAssertEqual(HistoryPacking.durations([1000, 1010, -1, 990, 990]), "B/gk_B70")
        XCTAssertEqual(HistoryPacking.durations([]), "")
        XCTAssertEqual(HistoryPacking.durations([0, -5]), "0_")
    }

    func testPackedHistoryIsAFractionOfTheNumbers() {
        let ms = (0..<30).map { 1800 + ($0 * 37) % 400 }
        XCTAssertLessThan(HistoryPacking.durations(ms).utf8.count, 2 * 30 + 2)
        XCTAssertGreaterThan(ms.map(String.init).joined(separator: ",").utf8.count, 4 * 30)
    }
}
