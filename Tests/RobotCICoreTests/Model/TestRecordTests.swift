import Foundation
import RobotCICore
import XCTest

final class TestRecordTests: XCTestCase {
    private let id = TestID("Mod.Class/testX")

    func testOutcomeIsComputedFromAttempts() {
        XCTAssertEqual(TestRecord(id: id, attempts: [attempt(.failed), attempt(.passed, number: 2)]).outcome, .flaky)
        XCTAssertEqual(TestRecord(id: id, attempts: [attempt(.failed)], quarantined: true).outcome, .quarantined)
        XCTAssertEqual(TestRecord(id: id, attempts: []).outcome, .notRun)
    }

    func testRecomputeOutcomeAfterMergingAttempts() {
        var record = TestRecord(id: id, attempts: [attempt(.failed)])
        XCTAssertEqual(record.outcome, .failed)
        record.attempts.append(attempt(.passed, number: 2))
        XCTAssertEqual(record.outcome, .failed, "outcome is stored, not derived on read")
        record.recomputeOutcome()
        XCTAssertEqual(record.outcome, .flaky)
        record.quarantined = true
        record.attempts.append(attempt(.crashed, number: 3))
        record.recomputeOutcome()
        XCTAssertEqual(record.outcome, .quarantined)
    }

    // MARK: location

    func testLocationIsNilWithoutLocatedFailures() {
        XCTAssertNil(TestRecord(id: id, attempts: []).location)
        XCTAssertNil(TestRecord(id: id, attempts: [attempt(.passed)]).location)
        let unlocated = [FailureMessage(message: "timed out"), FailureMessage(file: "/a.swift", message: "no line"),
                         FailureMessage(line: 3, message: "no file")]
        XCTAssertNil(TestRecord(id: id, attempts: [attempt(.timedOut, failures: unlocated)]).location)
    }

    func testLocationSkipsFailuresWithoutFileAndLine() {
        let failures = [FailureMessage(message: "crashed"), FailureMessage(file: "/w/T.swift", line: 12, message: "a"),
                        FailureMessage(file: "/w/T.swift", line: 20, message: "b")]
        let loc = TestRecord(id: id, attempts: [attempt(.failed, failures: failures)]).location
        XCTAssertEqual(loc?.file, "/w/T.swift")
        XCTAssertEqual(loc?.line, 12)
    }

    func testLocationPrefersTheLatestAttemptWithOne() {
        let first = attempt(.failed, number: 1, failures: [FailureMessage(file: "/w/A.swift", line: 1, message: "a")])
        let second = attempt(.failed, number: 2, failures: [FailureMessage(file: "/w/B.swift", line: 2, message: "b")])
        let third = attempt(.crashed, number: 3, failures: [FailureMessage(message: "crashed: signal 4")])
        let loc = TestRecord(id: id, attempts: [first, second, third]).location
        XCTAssertEqual(loc?.file, "/w/B.swift")
        XCTAssertEqual(loc?.line, 2)
    }

    func testLocationOfAFlakyTestIsItsFailure() {
        let failed = attempt(.failed, failures: [FailureMessage(file: "/w/F.swift", line: 7, message: "x")])
        let loc = TestRecord(id: id, attempts: [failed, attempt(.passed, number: 2)]).location
        XCTAssertEqual(loc?.file, "/w/F.swift")
        XCTAssertEqual(loc?.line, 7)
    }

    // MARK: representativeDuration

    func testRepresentativeDurationIsTheLastPassingAttempt() {
        let r = TestRecord(id: id, attempts: [
            attempt(.passed, number: 1, duration: 2), attempt(.failed, number: 2, duration: 9),
            attempt(.passed, number: 3, duration: 3), attempt(.timedOut, number: 4, duration: 300),
        ])
        XCTAssertEqual(r.representativeDuration, 3)
    }

    func testRepresentativeDurationWithoutPassIsTheLastAttempt() {
        let r = TestRecord(id: id, attempts: [attempt(.failed, duration: 4), attempt(.timedOut, number: 2, duration: 30)])
        XCTAssertEqual(r.representativeDuration, 30)
        XCTAssertEqual(TestRecord(id: id, attempts: [attempt(.skipped, duration: 0.25)]).representativeDuration, 0.25)
    }

    func testRepresentativeDurationWithoutAttemptsIsZero() {
        XCTAssertEqual(TestRecord(id: id, attempts: []).representativeDuration, 0)
    }
}

final class RunResultTests: XCTestCase {
    private func batch(_ id: Int, shard: Int, machine: String? = nil, _ start: Double, _ end: Double) -> BatchRecord {
        var record = BatchRecord(id: id, shard: shard, start: start, end: end, tests: [], termination: "exit 0")
        record.machine = machine
        return record
    }

    func testSerialTimeSumsEveryAttempt() {
        let result = RunResult(metadata: metadata(wallTime: 10), tests: [
            TestRecord(id: TestID("M.A/t1"), attempts: [attempt(.failed, duration: 1.5), attempt(.passed, number: 2, duration: 2)]),
            TestRecord(id: TestID("M.A/t2"), attempts: [attempt(.passed, duration: 0.25)]),
            TestRecord(id: TestID("M.A/t3"), attempts: []),
        ], batches: [])
        XCTAssertEqual(result.serialTime, 3.75)
        XCTAssertEqual(RunResult(metadata: metadata(), tests: [], batches: []).serialTime, 0)
    }

    func testCountsUseTheVerdicts() {
        let result = RunResult(metadata: metadata(), tests: [
            TestRecord(id: TestID("M.A/t1"), attempts: [attempt(.failed), attempt(.passed, number: 2)]),
            TestRecord(id: TestID("M.A/t2"), attempts: [attempt(.failed)]),
        ], batches: [])
        XCTAssertEqual(result.counts.total, 2)
        XCTAssertEqual(result.counts.flaky, 1)
        XCTAssertEqual(result.counts.failed, 1)
    }

    func testShardEfficiencyIsBusyOverSlotsTimesWall() {
        let result = RunResult(metadata: metadata(wallTime: 10), tests: [],
                               batches: [batch(0, shard: 0, 0, 6), batch(1, shard: 0, 6, 10), batch(2, shard: 1, 0, 5)])
        XCTAssertEqual(result.shardEfficiency, 15.0 / 20.0, accuracy: 1e-12)
    }

    func testShardEfficiencyCountsSlotsPerMachine() {
        let result = RunResult(metadata: metadata(wallTime: 10), tests: [], batches: [
            batch(0, shard: 0, machine: "a", 0, 10), batch(1, shard: 0, machine: "b", 0, 5),
            batch(2, shard: 1, machine: "b", 0, 5),
        ])
        XCTAssertEqual(result.shardEfficiency, 20.0 / 30.0, accuracy: 1e-12)
    }

    func testShardEfficiencyEdgeCases() {
        XCTAssertEqual(RunResult(metadata: metadata(wallTime: 0), tests: [], batches: [batch(0, shard: 0, 0, 5)]).shardEfficiency, 0)
        XCTAssertEqual(RunResult(metadata: metadata(wallTime: 10), tests: [], batches: []).shardEfficiency, 0)
        // Overlapping records on one shard (clock skew, merged inputs) never exceed 1.
        let overlapping = RunResult(metadata: metadata(wallTime: 10), tests: [],
                                    batches: [batch(0, shard: 0, 0, 10), batch(1, shard: 0, 0, 10)])
        XCTAssertEqual(overlapping.shardEfficiency, 1)
        // A batch whose end precedes its start counts as no busy time.
        let backwards = RunResult(metadata: metadata(wallTime: 10), tests: [],
                                  batches: [batch(0, shard: 0, 5, 2), batch(1, shard: 0, 0, 5)])
        XCTAssertEqual(backwards.shardEfficiency, 0.5)
    }

    func testCodableRoundTripKeepsFormatMarker() throws {
        let result = RunResult(metadata: metadata(wallTime: 3), tests: [
            TestRecord(id: TestID("M.A/t1"), attempts: [attempt(.failed, failures: [FailureMessage(file: "/f.swift", line: 2, message: "m")])], quarantined: true),
        ], batches: [batch(0, shard: 1, 0, 3)])
        let data = try JSONEncoder().encode(result)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
        XCTAssertEqual(object["format"] as? String, "robotci-results-v3")
        XCTAssertEqual(try JSONDecoder().decode(RunResult.self, from: data), result)
    }
}

final class TestIDTests: XCTestCase {
    func testPartsOfAnXCTestID() {
        let id = TestID("MyModule.LoginTests/testLogin")
        XCTAssertEqual(id.className, "MyModule.LoginTests")
        XCTAssertEqual(id.name, "testLogin")
        XCTAssertEqual(id.outputName, "LoginTests.testLogin")
        XCTAssertEqual(id.description, "MyModule.LoginTests/testLogin")
        XCTAssertEqual(id.description, "MyModule.LoginTests/testLogin")
    }

    func testPytestNodeIDSplitsAtTheLastDoubleColonBeforeParameters() {
        let id = TestID("tests/ui/test_login.py::TestLogin::test_ok[a::b/c]")
        XCTAssertEqual(id.className, "tests/ui/test_login.py::TestLogin")
        XCTAssertEqual(id.name, "test_ok[a::b/c]")
        let plain = TestID("test_x.py::test_y")
        XCTAssertEqual(plain.className, "test_x.py")
        XCTAssertEqual(plain.name, "test_y")
    }

    /// What robotci writes to JUnit (className, name) reads back as the same id.
    func testJUnitNamesReadBackAsTheIDThatWroteThem() {
        for raw in ["Mod.Class/testA", "tests/ui/test_a.py::TestX::test_y[1/2]", "tests/test_a.py::test_b", "Mod.freeFunction()",
                    "Standalone", "crate::module::test_x", "a::b/c", "a/b::c", "x/f.py::b", "Mod.S/p(value:)"] {
            let id = TestID(raw)
            let read = TestID(junitClassname: id.className, name: id.name)
            XCTAssertEqual(read.className, id.className, raw)
            XCTAssertEqual(read.name, id.name, raw)
            let again = TestID(junitClassname: read.className, name: read.name)
            XCTAssertEqual(again, read, "stable: \(raw)")
        }
        XCTAssertEqual(TestID(junitClassname: "tests/ui/test_a.py::TestX", name: "test_y").description, "tests/ui/test_a.py::TestX::test_y")
        XCTAssertEqual(TestID(junitClassname: "tests/ui/test_a.py", name: "test_y").description, "tests/ui/test_a.py::test_y")
        XCTAssertEqual(TestID(junitClassname: "Mod.Class", name: "testA").description, "Mod.Class/testA")
        XCTAssertEqual(TestID(junitClassname: "a::b", name: "c").description, "a::b::c", "the fuzzer's case: stable, not a/b/c")
        // Neither form splits back: the id is what the slash form splits into, and stays so.
        let odd = TestID(junitClassname: "a", name: "b::c")
        XCTAssertEqual(TestID(junitClassname: odd.className, name: odd.name), odd)
        // The fuzzer's case (CI, 2026-11-26): a stray backtick in a classname once quoted the
        // `/` after it, and the id doubled itself on each read.
        let stray = TestID(junitClassname: "App.Ca`racterFlowUITests", name: "testBack")
        XCTAssertEqual(stray.description, "App.Ca`racterFlowUITests/testBack")
        XCTAssertEqual(stray.className, "App.Ca`racterFlowUITests")
        XCTAssertEqual(stray.name, "testBack")
        XCTAssertEqual(TestID("Mod.S/`a/b` x`y").name, "`a/b` x`y", "a pair quotes; the odd one out is literal")
    }

    func testIDWithoutModule() {
        let id = TestID("LoginTests/testLogin")
        XCTAssertEqual(id.className, "LoginTests")
        XCTAssertEqual(id.name, "testLogin")
        XCTAssertEqual(id.outputName, "LoginTests.testLogin")
    }

    func testIDWithoutSlashIsBothClassAndName() {
        let id = TestID("Standalone")
        XCTAssertEqual(id.className, "Standalone")
        XCTAssertEqual(id.name, "Standalone")
        XCTAssertEqual(id.outputName, "Standalone.Standalone")
    }

    func testLastSlashAndLastDotSplit() {
        let id = TestID("Mod.Outer.Inner/testA")
        XCTAssertEqual(id.className, "Mod.Outer.Inner")
        XCTAssertEqual(id.outputName, "Inner.testA")
        let slashes = TestID("a/b/testC")
        XCTAssertEqual(slashes.className, "a/b")
        XCTAssertEqual(slashes.name, "testC")
    }

    func testOrderingAndHashingUseTheRawValue() {
        XCTAssertLessThan(TestID("M.A/testB"), TestID("M.B/testA"))
        XCTAssertEqual([TestID("b"), TestID("a"), TestID("c")].sorted(), [TestID("a"), TestID("b"), TestID("c")])
        XCTAssertEqual(Set([TestID("x"), TestID("x")]).count, 1)
    }

    func testEncodesAsStructure() throws {
        let data = try JSONEncoder().encode([TestID("M.A/t")])
        XCTAssertEqual(String(decoding: data, as: UTF8.self), #"[{"test":"M.A\/t"}]"#)
        XCTAssertEqual(try JSONDecoder().decode([TestID].self, from: data), [TestID("M.A/t")])
        XCTAssertThrowsError(try JSONDecoder().decode([TestID].self, from: Data("[1]".utf8)))
    }
}

/// Swift Testing's listed names that are more than `Module.Suite/test()`: raw identifiers
/// (Swift 6.2), overloads listed with their source location, nested suites.
final class SwiftTestingIDTests: XCTestCase {
    func testRawIdentifierFreeFunction() {
        let id = TestID("Mod.`shows the error banner`()")
        XCTAssertEqual(id.className, "Mod")
        XCTAssertEqual(id.name, "`shows the error banner`()")
        let odd = TestID("Mod.`a.b/c::d (e)`()")
        XCTAssertEqual(odd.className, "Mod")
        XCTAssertEqual(odd.name, "`a.b/c::d (e)`()")
    }

    func testRawIdentifierInASuite() {
        let id = TestID("Mod.Suite/`a/b. c`()")
        XCTAssertEqual(id.className, "Mod.Suite")
        XCTAssertEqual(id.name, "`a/b. c`()")
    }

    func testOverloadKeepsItsLocationInTheName() {
        let id = TestID("Mod.Overloads/check(_:)/Checks.swift:11:6")
        XCTAssertEqual(id.className, "Mod.Overloads")
        XCTAssertEqual(id.name, "check(_:)/Checks.swift:11:6")
        let free = TestID("Mod.check(_:)/Checks.swift:3:2")
        XCTAssertEqual(free.className, "Mod")
        XCTAssertEqual(free.name, "check(_:)/Checks.swift:3:2")
    }

    func testNestedSuite() {
        let id = TestID("Mod.Outer/Inner/nested()")
        XCTAssertEqual(id.className, "Mod.Outer/Inner")
        XCTAssertEqual(id.name, "nested()")
    }

    func testEveryFormReadsBackFromJUnit() {
        for raw in ["Mod.`shows the error banner`()", "Mod.Suite/`a/b. c`()", "Mod.Overloads/check(_:)/Checks.swift:11:6",
                    "Mod.check(_:)/Checks.swift:3:2", "Mod.Outer/Inner/nested()", "Mod.`a::b`()"] {
            let id = TestID(raw)
            let read = TestID(junitClassname: id.className, name: id.name)
            XCTAssertEqual(read.className, id.className, raw)
            XCTAssertEqual(read.name, id.name, raw)
        }
    }
}
