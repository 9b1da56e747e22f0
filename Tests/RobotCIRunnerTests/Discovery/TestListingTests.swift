@testable import RobotCIRunner
import RobotCICore
import XCTest

/// The plan is what the framework lists: every name, however unusual, or a refusal naming
/// the line (output captured from Swift 6.3's `--list-tests` on Tests/Fixtures/Edges).
final class TestListingTests: XCTestCase {
    private let records = #"""
        {"kind":"test","payload":{"id":"E.`raw identifier name Fails`()\/S.swift:4:2","kind":"function","name":"`raw identifier name Fails`()"},"version":0}
        {"kind":"test","payload":{"id":"E.Overloads","kind":"suite","name":"Overloads","_tags":[".slow"]},"version":0}
        {"kind":"test","payload":{"id":"E.Overloads\/check(_:)\/S.swift:11:6","kind":"function","name":"check(_:)"},"version":0}
        {"kind":"test","payload":{"id":"E.Overloads\/check(_:)\/S.swift:15:6","kind":"function","name":"check(_:)","_tags":[".fast"]},"version":0}
        {"kind":"test","payload":{"id":"E.Outer\/Inner\/nested()\/S.swift:23:10","kind":"function","name":"nested()"},"version":0}
        """#
    private let listing = """
        E.Overloads/check(_:)/S.swift:11:6
        E.Overloads/check(_:)/S.swift:15:6
        E.Outer/Inner/nested()
        E.`raw identifier name Fails`()

        """

    func testRawIdentifiersOverloadsAndNestedSuitesAreAllPlanned() throws {
        let found = try TestListing.swiftTesting(listing: listing, records: records)
        // In the listing's order (stable), not the records' (which varies from run to run).
        XCTAssertEqual(found.tests, [TestID("E.Overloads/check(_:)/S.swift:11:6"), TestID("E.Overloads/check(_:)/S.swift:15:6"),
                                     TestID("E.Outer/Inner/nested()"), TestID("E.`raw identifier name Fails`()")])
        XCTAssertEqual(found.tags[TestID("E.Overloads/check(_:)/S.swift:15:6")], ["slow", "fast"])
        XCTAssertEqual(found.tags[TestID("E.Overloads/check(_:)/S.swift:11:6")], ["slow"])
    }

    func testAListedLineWithoutARecordIsRefusedByName() {
        XCTAssertThrowsError(try TestListing.swiftTesting(listing: listing + "E.ghost()\n", records: records)) { error in
            XCTAssertTrue("\(error)".contains("'E.ghost()'"), "\(error)")
        }
    }

    func testARecordWithoutAListedLineIsRefusedByName() {
        let short = listing.replacingOccurrences(of: "E.Outer/Inner/nested()\n", with: "")
        XCTAssertThrowsError(try TestListing.swiftTesting(listing: short, records: records)) { error in
            XCTAssertTrue("\(error)".contains("E.Outer/Inner/nested()"), "\(error)")
        }
    }

    func testXCTestListingIsCheckedAgainstItsOwnCount() throws {
        let ok = "Listing 2 tests in x.xctest:\n\nM.A/testA\nM.B/testB\n"
        XCTAssertEqual(try TestListing.xctest(ok), [TestID("M.A/testA"), TestID("M.B/testB")])
        XCTAssertThrowsError(try TestListing.xctest("Listing 3 tests in x.xctest:\n\nM.A/testA\nM.B/testB\n")) { error in
            XCTAssertTrue("\(error)".contains("announces 3 tests but names 2"), "\(error)")
        }
        XCTAssertThrowsError(try TestListing.xctest("Listing 1 tests in x.xctest:\n\nloading fixtures…\nM.A/testA\n")) { error in
            XCTAssertTrue("\(error)".contains("'loading fixtures…'"), "\(error)")
        }
    }
}
