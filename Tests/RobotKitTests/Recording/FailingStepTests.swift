import Foundation
@testable import RobotKit
import Testing
import WorkerContract

/// Which step a failure reported after the fact lands on.
@Suite struct FailingStepTests {
    static func step(_ i: Int, _ name: String, _ arguments: [String] = []) -> Trace.Step {
        Trace.Step(index: i, action: .init(name: name, target: "StaticText \"x\"", arguments: arguments),
                   origin: .init(file: "/t/R.swift", line: 10 + i), timing: (start: Double(i), duration: 0.1))
    }

    @Test func aWaitThatRanOutBeforeReadsForTheMessageIsTheFailingStep() {
        let steps = [Self.step(0, "launch"), Self.step(1, "wait for label == \"a\" of", ["expected \"a\"", "timed out after 5.00 s"]),
                     Self.step(2, "read label of"), Self.step(3, "read value of")]
        #expect(TraceRecorder.timedOutWait(before: 3, in: steps) == 1)
    }

    @Test func aWaitThatHeldOrAnActionBetweenLeavesTheLastStep() {
        let held = [Self.step(0, "wait for label == \"a\" of", ["after 0.10 s"]), Self.step(1, "read label of")]
        #expect(TraceRecorder.timedOutWait(before: 1, in: held) == nil)
        let acted = [Self.step(0, "wait for label == \"a\" of", ["timed out after 5.00 s"]), Self.step(1, "tap"), Self.step(2, "read label of")]
        #expect(TraceRecorder.timedOutWait(before: 2, in: acted) == nil)
    }
}
