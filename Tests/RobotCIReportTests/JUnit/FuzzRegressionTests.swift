import Foundation
import RobotCICore
import RobotCIReport
import XCTest

/// Inputs found by fuzz/FuzzJUnitReader (libFuzzer; see fuzz/README.md).
final class FuzzRegressionTests: XCTestCase {
    /// `time="inf"` (also "nan", "1e999", "-1") was read as that Double: an infinite duration
    /// made the merged results.json unwritable (JSONEncoder refuses non-finite numbers).
    func testJUnitTimeThatIsNoDurationReadsAsZero() throws {
        for time in ["inf", "-inf", "nan", "1e999", "-1", "+infinity"] {
            let xml = #"<testsuite name="s"><testcase classname="A" name="t" time="\#(time)"/><testcase classname="A" name="u" time="2.5"/></testsuite>"#
            let records = try JUnitReader.parse(Data(xml.utf8), name: "fuzz.xml", machine: nil)
            XCTAssertEqual(records.map { $0.attempts.map(\.duration) }, [[0], [2.5]], time)
            XCTAssertEqual(records.map { $0.attempts.map(\.start) }, [[0], [0]], time)
            XCTAssertNoThrow(try JSONEncoder().encode(records), time)
        }
    }
}
