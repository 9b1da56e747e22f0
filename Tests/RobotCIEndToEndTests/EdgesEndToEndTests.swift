import Foundation
import XCTest

/// The plan is the framework's own list, and every verdict is cross-checked (issue 36), on
/// `Tests/Fixtures/Edges`: Swift Testing names a naive parse drops (raw identifiers,
/// overloads listed with their location, nested suites, extensions), a failing test followed
/// by `exit(0)`, forged passes followed by a crash (XCTest's line, Swift Testing's fd-3
/// event), a cancelled test, a display name saying "failed with", and one class and test
/// name in two modules. Each is planned once and gets its true verdict at 1 and 4 shards,
/// and the run's exit code is `swift test`'s.
final class EdgesEndToEndTests: XCTestCase {
    private let expected: [String: String] = [
        "EdgesTests.`raw identifier name Fails`()": "failed",
        "EdgesTests.`raw identifier name Passes`()": "passed",
        "EdgesTests.Overloads/overload(_:)/SwiftTestingEdges.swift:11:6": "passed",
        "EdgesTests.Overloads/overload(_:)/SwiftTestingEdges.swift:15:6": "failed",
        "EdgesTests.Outer/Inner/nestedPasses()": "passed",
        "EdgesTests.Extended/inExtensionFails()": "failed",
        "EdgesTests.Display/displayNameLooksFailedPasses()": "passed",
        "EdgesTests.Display/cancelledSkipped()": "skipped",
        "EdgesTests.SharedTests/testSameNameInTwoModules": "failed",
        "EdgesOtherTests.SharedTests/testSameNameInTwoModules": "passed",
        "EdgesExitTests.ClassTearDownExitTests/testFailsThenClassTearDownExitsZero": "failed",
        "EdgesExitTests.MidTestExitTests/testExitZeroMidTestCrashes": "crashed",
        "EdgesExitTests.ForgedPassThenCrashTests/testForgedPassThenCrashCrashes": "crashed",
        "EdgesExitTests.ForgedEventThenCrash/forgedEventThenCrashCrashes()": "crashed",
    ]

    private func verdicts(_ report: URL) throws -> [String: String] {
        let data = try Data(contentsOf: report.appendingPathComponent("results.json"))
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
        var out: [String: String] = [:]
        for t in try XCTUnwrap(object["tests"] as? [[String: Any]]) {
            let id = try XCTUnwrap(E2E.idText(t["id"]))
            XCTAssertNil(out[id], "\(id) is in results.json once")
            out[id] = try XCTUnwrap(t["outcome"] as? String)
        }
        return out
    }

    /// `swift test`'s own exit status on the fixture (already built).
    private func swiftTestStatus() throws -> Int32 {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["swift", "test", "--skip-build", "--package-path", E2E.fixture("Edges")]
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        p.waitUntilExit()
        return p.terminationStatus
    }

    func testEveryListedTestIsPlannedOnceWithItsTrueVerdict() throws {
        try E2E.buildFixture("Edges")
        let truth = try swiftTestStatus()
        XCTAssertNotEqual(truth, 0, "swift test fails on this fixture")
        let dir = E2E.temporaryDirectory("edges")
        defer { try? FileManager.default.removeItem(at: dir) }
        for shards in [4, 1] {
            let report = dir.appendingPathComponent("shards-\(shards)")
            let result = try E2E.run(["run", "--package", E2E.fixture("Edges"), "--skip-build", "--retries", "0",
                                      "--shards", String(shards), "--report-dir", report.path])
            XCTAssertEqual(result.status, truth == 0 ? 0 : 1, "\(shards) shards: swift test's exit code\n\(result.stderr.suffix(3000))")
            XCTAssertTrue(result.stderr.contains("robotci: 14 planned, 14 accounted for\n"), "\(shards) shards: \(result.stderr.suffix(2000))")
            XCTAssertEqual(try verdicts(report), expected, "\(shards) shards")
            let junit = try String(contentsOf: report.appendingPathComponent("junit.xml"), encoding: .utf8)
            XCTAssertEqual(junit.components(separatedBy: "<testcase ").count - 1, 14, "\(shards) shards: every test once in junit.xml")
        }

        // --last-failed addresses the unusual names too: exactly the tests that did not pass.
        let report = dir.appendingPathComponent("shards-1")
        let again = try E2E.run(["run", "--package", E2E.fixture("Edges"), "--skip-build", "--retries", "0", "--shards", "2",
                                 "--report-dir", report.path, "--last-failed"])
        let notPassed = expected.filter { $0.value != "passed" && $0.value != "skipped" }
        XCTAssertTrue(again.stderr.contains("robotci: \(notPassed.count) planned, \(notPassed.count) accounted for\n"), again.stderr.suffix(2000).description)
        XCTAssertEqual(try verdicts(report), notPassed, "--last-failed: the same verdicts for the same tests")
    }
}
