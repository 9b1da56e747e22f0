import Foundation
import XCTest

/// A package mixing Swift Testing (`@Test`) and XCTest: both are discovered, sharded,
/// retried and reported, with Swift Testing's issues at their file:line.
final class SwiftTestingEndToEndTests: XCTestCase {
    func testSwiftTestingAndXCTestRunTogether() throws {
        try E2E.buildFixture("SwiftTesting")
        let listed = try E2E.run(["list", "--package", E2E.fixture("SwiftTesting"), "--skip-build"])
        XCTAssertEqual(listed.stdout.split(separator: "\n").count, 7, listed.stdout)
        let dir = E2E.temporaryDirectory("swifttesting")
        let r = try E2E.run(["run", "--package", E2E.fixture("SwiftTesting"), "--skip-build", "--shards", "2",
                             "--report-dir", dir.path])
        XCTAssertEqual(r.status, 1, r.stderr)
        let v = try E2E.junitVerdicts(dir.appendingPathComponent("junit.xml"))
        XCTAssertEqual(v.mapValues(\.verdict), [
            "SwiftTestingFixtureTests.ArithmeticTests/addition()": "passed",
            "SwiftTestingFixtureTests.ArithmeticTests/wrongProduct()": "failed",
            "SwiftTestingFixtureTests.ArithmeticTests/disabled()": "skipped",
            "SwiftTestingFixtureTests.ArithmeticTests/flaky()": "flaky",
            "SwiftTestingFixtureTests.ArithmeticTests/prints()": "passed",
            "SwiftTestingFixtureTests/freeFunction()": "passed",
            "SwiftTestingFixtureTests.LegacyXCTests/testStillRuns": "passed",
        ])
        let junit = try String(contentsOf: dir.appendingPathComponent("junit.xml"), encoding: .utf8)
        XCTAssertTrue(junit.contains("two times two"), junit)
        XCTAssertTrue(junit.contains(#"line="7""#), junit)
        let results = try String(contentsOf: dir.appendingPathComponent("results.json"), encoding: .utf8)
        XCTAssertTrue(results.contains("hello from swift testing"), "a Swift Testing test keeps its own output")
        XCTAssertFalse(results.contains(#"\u001b["#), "no colour codes in stored output")
    }
}
