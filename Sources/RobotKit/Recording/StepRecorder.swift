import Foundation
import ProcessToolkit

/// Records robot steps for `steps.json`: every RobotKit action and wait, grouped by
/// the robot method that called it.
///
/// A robot method shows up as one step: element operations carry their caller's
/// `#function` and `#filePath`/`#line`, consecutive operations from one invocation
/// of one method are merged, and the robot is named after its file (`HomeRobot.swift`
/// → `HomeRobot`). A test failure marks the open step failed, at the failure's location.
public final class StepRecorder: Sendable {
    /// One entry of `steps.json`.
    public struct Step: Codable, Sendable, Equatable {
        public enum Status: String, Codable, Sendable { case passed, failed }

        /// The robot (file) the step ran in, e.g. `HomeRobot`.
        public var robot: String
        /// The robot method, e.g. `tapCharacter(id:)`.
        public var method: String
        /// Seconds from the step's first operation to the end of its last.
        public var duration: Double
        /// Where the step ran; for a failed step, where the failure was reported (the test's line).
        public var file: String
        public var line: Int
        public var status: Status
        /// The failure message of a failed step.
        public var message: String?
    }

    /// The steps so far, and the one open now (where its operations come from).
    private struct State {
        var steps: [Step] = []
        var openStart: UInt64 = 0
        var openLine: UInt = 0
        var openFile = ""
        var failed = false
        var halted = false
    }

    private let state = Locked(State())

    public init() {}

    /// The steps recorded so far.
    public var recordedSteps: [Step] { state.withLock { $0.steps } }

    /// True once a failure was recorded.
    public var hasFailure: Bool { state.withLock { $0.failed } }

    /// True when RobotKit should stop acting: a failure happened and the test
    /// does not continue after failures (Linux XCTest keeps running the method).
    public var isHalted: Bool {
        get { state.withLock { $0.halted } }
        set { state.withLock { $0.halted = newValue } }
    }

    /// Forgets every step (a new test begins).
    public func reset() {
        state.withLock { s in
            s.steps = []
            s.failed = false
            s.halted = false
            s.openFile = ""
            s.openLine = 0
        }
    }

    /// Notes that an operation starts; continues the open step or opens a new one.
    func begin(function: String, file: String, line: UInt, robot: String? = nil) {
        let robotName = robot ?? Self.robotName(file: file)
        let method = Self.methodName(function)
        state.withLock { s in
            let now = DispatchTime.now().uptimeNanoseconds
            if let last = s.steps.last, last.robot == robotName, last.method == method, s.openFile == file,
                line > s.openLine, last.status == .passed
            {
                s.openLine = line
                return
            }
            s.steps.append(Step(robot: robotName, method: method, duration: 0, file: file, line: Int(line), status: .passed))
            s.openStart = now
            s.openFile = file
            s.openLine = line
        }
    }

    /// Notes that the operation begun last has finished.
    func end() {
        state.withLock { s in
            guard !s.steps.isEmpty else { return }
            let elapsed = DispatchTime.now().uptimeNanoseconds - s.openStart
            s.steps[s.steps.count - 1].duration = Double(elapsed) / 1e9
        }
    }

    /// Marks the open step failed (or adds one for `test` when nothing ran yet).
    public func recordFailure(message: String, file: String, line: Int, test: String) {
        state.withLock { s in
            s.failed = true
            if s.steps.isEmpty {
                s.steps.append(Step(robot: "test", method: test, duration: 0, file: file, line: line, status: .failed))
            }
            let index = s.steps.count - 1
            if s.steps[index].status == .passed {
                s.steps[index].status = .failed
                s.steps[index].file = file
                s.steps[index].line = line
                s.steps[index].message = message
            } else if s.steps[index].message == nil {
                s.steps[index].message = message
            }
            // A later step in the same method must not merge into the failed one.
            s.openLine = .max
        }
    }

    /// The steps as pretty-printed JSON.
    public func jsonData() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(recordedSteps)
    }

    static func robotName(file: String) -> String {
        let base = file.split(separator: "/").last.map(String.init) ?? file
        return base.hasSuffix(".swift") ? String(base.dropLast(6)) : base
    }

    /// `tapCharacter(id:file:line:)` → `tapCharacter(id:)`.
    static func methodName(_ function: String) -> String {
        guard let open = function.firstIndex(of: "("), function.hasSuffix(")") else { return function }
        let labels = function[function.index(after: open)..<function.index(before: function.endIndex)]
            .split(separator: ":", omittingEmptySubsequences: true)
            .filter { $0 != "file" && $0 != "line" && $0 != "function" }
        return function[..<open] + "(" + labels.map { "\($0):" }.joined() + ")"
    }
}
