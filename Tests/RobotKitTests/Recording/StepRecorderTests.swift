import Foundation
@testable import RobotKit
import XCTest

final class StepRecorderTests: XCTestCase {
    func testMethodAndRobotNames() {
        XCTAssertEqual(StepRecorder.methodName("tapCharacter(id:file:line:)"), "tapCharacter(id:)")
        XCTAssertEqual(StepRecorder.methodName("verifyIsVisible(file:line:)"), "verifyIsVisible()")
        XCTAssertEqual(StepRecorder.methodName("testA()"), "testA()")
        XCTAssertEqual(StepRecorder.robotName(file: "/x/Robots/HomeRobot.swift"), "HomeRobot")
    }

    func testOperationsOfOneInvocationMergeIntoOneStep() {
        let recorder = StepRecorder()
        recorder.begin(function: "tap(file:line:)", file: "/r/HomeRobot.swift", line: 10)
        recorder.end()
        recorder.begin(function: "tap(file:line:)", file: "/r/HomeRobot.swift", line: 11)
        recorder.end()
        // Same method again from its top: a second invocation.
        recorder.begin(function: "tap(file:line:)", file: "/r/HomeRobot.swift", line: 10)
        recorder.end()
        recorder.begin(function: "verify(file:line:)", file: "/r/HomeRobot.swift", line: 20)
        recorder.end()
        XCTAssertEqual(recorder.recordedSteps.map(\.method), ["tap()", "tap()", "verify()"])
    }

    func testFailureMarksTheOpenStepAtTheFailureLocation() throws {
        let recorder = StepRecorder()
        recorder.begin(function: "verify(file:line:)", file: "/r/HomeRobot.swift", line: 20)
        recorder.recordFailure(message: "XCTAssertTrue failed", file: "/t/FlowTests.swift", line: 42, test: "testFlow()")
        recorder.end()
        let step = try XCTUnwrap(recorder.recordedSteps.first)
        XCTAssertEqual(step.status, .failed)
        XCTAssertEqual(step.file, "/t/FlowTests.swift")
        XCTAssertEqual(step.line, 42)
        XCTAssertEqual(step.message, "XCTAssertTrue failed")

        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: recorder.jsonData()) as? [[String: Any]])
        XCTAssertEqual(Set(json[0].keys), ["robot", "method", "duration", "file", "line", "status", "message"])

        let empty = StepRecorder()
        empty.recordFailure(message: "boom", file: "/t/A.swift", line: 3, test: "testA")
        XCTAssertEqual(empty.recordedSteps.map(\.robot), ["test"])
    }
}
