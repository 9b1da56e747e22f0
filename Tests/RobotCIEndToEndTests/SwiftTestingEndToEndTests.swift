import Foundation
import XCTest

/// A package mixing Swift Testing (`@Test`) and XCTest: both are discovered, sharded,
/// retried and reported, with Swift Testing's issues at their file:line, parameterized
/// tests reported per function with their arguments, and crashes and hangs contained.
final class SwiftTestingEndToEndTests: XCTestCase {
    nonisolated(unsafe) static var report: URL?
    nonisolated(unsafe) static var result: E2E.Result?
    nonisolated(unsafe) static var listed: E2E.Result?

    override class func setUp() {
        super.setUp()
        let dir = E2E.temporaryDirectory("swifttesting")
        report = dir
        do {
            try E2E.buildFixture("SwiftTesting")
            listed = try E2E.run(["list", "--package", E2E.fixture("SwiftTesting"), "--skip-build"])
            result = try E2E.run(["run", "--package", E2E.fixture("SwiftTesting"), "--skip-build", "--shards", "4",
                                  "--retries", "1", "--test-timeout", "5", "--report-dir", dir.path])
        } catch {
            result = E2E.Result(status: -1, stdout: "", stderr: "\(error)")
        }
    }

    private var report: URL { Self.report! }
    private var result: E2E.Result { Self.result! }

    func testListShowsBothKinds() throws {
        let listed = try XCTUnwrap(Self.listed)
        let ids = listed.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(ids.count, 13, listed.stdout)
        XCTAssertTrue(ids.contains("SwiftTestingFixtureTests.LegacyXCTests/testStillRuns"), "XCTest listed")
        XCTAssertTrue(ids.contains("SwiftTestingFixtureTests.ArithmeticTests/parameterized(value:)"), "a parameterized test is one function")
    }

    func testBothKindsGetTheirVerdicts() throws {
        XCTAssertEqual(result.status, 1, result.stderr)
        let v = try E2E.junitVerdicts(report.appendingPathComponent("junit.xml"))
        XCTAssertEqual(v.mapValues(\.verdict), [
            "SwiftTestingFixtureTests.ArithmeticTests/addition()": "passed",
            "SwiftTestingFixtureTests.ArithmeticTests/wrongProduct()": "failed",
            "SwiftTestingFixtureTests.ArithmeticTests/disabled()": "skipped",
            "SwiftTestingFixtureTests.ArithmeticTests/flaky()": "flaky",
            "SwiftTestingFixtureTests.ArithmeticTests/prints()": "passed",
            "SwiftTestingFixtureTests.ArithmeticTests/throwsError()": "failed",
            "SwiftTestingFixtureTests.ArithmeticTests/parameterized(value:)": "failed",
            "SwiftTestingFixtureTests.FaultTests/crashes()": "crashed",
            "SwiftTestingFixtureTests.FaultTests/hangs()": "timedOut",
            "SwiftTestingFixtureTests.FaultTests/afterFaults()": "passed",
            "SwiftTestingFixtureTests/freeFunction()": "passed",
            "SwiftTestingFixtureTests.LegacyXCTests/testStillRuns": "passed",
            "SwiftTestingFixtureTests.LegacyXCTests/testFailsInXCTest": "failed",
        ], result.stderr)
        let junit = try String(contentsOf: report.appendingPathComponent("junit.xml"), encoding: .utf8)
        XCTAssertTrue(junit.contains("two times two"), junit)
        XCTAssertTrue(junit.contains(#"line="7""#), junit)
        XCTAssertTrue(junit.contains(#"Caught error: .noConnection(host: &quot;127.0.0.1&quot;)"#) || junit.contains(#"Caught error: .noConnection(host: "127.0.0.1")"#), "a thrown error is the failure")
        XCTAssertTrue(junit.contains("Fatal error: Index out of range"), "the crash names its reason")
    }

    func testParameterizedCasesShowTheirArguments() throws {
        let tests = try E2E.attemptsByTest(in: report)
        let attempt = try XCTUnwrap(tests["SwiftTestingFixtureTests.ArithmeticTests/parameterized(value:)"]?.first)
        let failures = try XCTUnwrap(attempt["failures"] as? [[String: Any]])
        XCTAssertEqual(failures.count, 1, "only the odd case failed")
        XCTAssertEqual(failures.first?["message"] as? String, "with arguments (3): Expectation failed: (value % 2 → 1) == 0 — 3 is odd")
        let output = attempt["output"] as? String ?? ""
        for value in [2, 3, 4] { XCTAssertTrue(output.contains("Test case passing 1 argument value → \(value) "), output) }
    }

    func testOutputIsTheTestsOwnAndUncoloured() throws {
        let results = try String(contentsOf: report.appendingPathComponent("results.json"), encoding: .utf8)
        XCTAssertTrue(results.contains("hello from swift testing"), "a Swift Testing test keeps its own output")
        XCTAssertFalse(results.contains(#"\u001b["#), "no colour codes in stored output")
    }

    /// No XCTest at all: nothing to configure.
    func testPackageWithOnlySwiftTesting() throws {
        try E2E.buildFixture("SwiftTestingOnly")
        let dir = E2E.temporaryDirectory("swifttesting-only")
        let r = try E2E.run(["run", "--package", E2E.fixture("SwiftTestingOnly"), "--skip-build", "--shards", "2", "--report-dir", dir.path])
        XCTAssertEqual(r.status, 0, r.stderr)
        let v = try E2E.junitVerdicts(dir.appendingPathComponent("junit.xml"))
        XCTAssertEqual(v.mapValues(\.verdict), ["OnlyTests/one()": "passed", "OnlyTests/lengths(text:)": "passed"], r.stderr)
    }
}
