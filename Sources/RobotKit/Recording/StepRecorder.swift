import Foundation

/// Records robot steps for `steps.json`: every RobotKit action and wait, grouped by
/// the robot method that called it.
///
/// A robot method shows up as one step: element operations carry their caller's
/// `#function` and `#filePath`/`#line`, consecutive operations from one invocation
/// of one method are merged, and the robot is named after its file (`HomeRobot.swift`
/// → `HomeRobot`). A test failure marks the open step failed, at the failure's location.
public final class StepRecorder: @unchecked Sendable {
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

    private let lock = NSLock()
    private var steps: [Step] = []
    private var openStart: UInt64 = 0
    private var openLine: UInt = 0
    private var openFile = ""
    private var failed = false
    private var halted = false

    public init() {}

    /// The steps recorded so far.
    public var recordedSteps: [Step] { lock.withLock { steps } }

    /// True once a failure was recorded.
    public var hasFailure: Bool { lock.withLock { failed } }

    /// True when RobotKit should stop acting: a failure happened and the test
    /// does not continue after failures (Linux XCTest keeps running the method).
    public var isHalted: Bool {
        get { lock.withLock { halted } }
        set { lock.withLock { halted = newValue } }
    }

    /// Forgets every step (a new test begins).
    public func reset() {
        lock.withLock {
            steps = []
            failed = false
            halted = false
            openFile = ""
            openLine = 0
        }
    }

    /// Notes that an operation starts; continues the open step or opens a new one.
    func begin(function: String, file: String, line: UInt, robot: String? = nil) {
        let robotName = robot ?? Self.robotName(file: file)
        let method = Self.methodName(function)
        lock.withLock {
            let now = DispatchTime.now().uptimeNanoseconds
            if let last = steps.last, last.robot == robotName, last.method == method, openFile == file,
                line > openLine, last.status == .passed
            {
                openLine = line
                return
            }
            steps.append(Step(robot: robotName, method: method, duration: 0, file: file, line: Int(line), status: .passed))
            openStart = now
            openFile = file
            openLine = line
        }
    }

    /// Notes that the operation begun last has finished.
    func end() {
        lock.withLock {
            guard !steps.isEmpty else { return }
            let elapsed = DispatchTime.now().uptimeNanoseconds - openStart
            steps[steps.count - 1].duration = Double(elapsed) / 1e9
        }
    }

    /// Marks the open step failed (or adds one for `test` when nothing ran yet).
    public func recordFailure(message: String, file: String, line: Int, test: String) {
        lock.withLock {
            failed = true
            if steps.isEmpty {
                steps.append(Step(robot: "test", method: test, duration: 0, file: file, line: line, status: .failed))
            }
            let index = steps.count - 1
            if steps[index].status == .passed {
                steps[index].status = .failed
                steps[index].file = file
                steps[index].line = line
                steps[index].message = message
            } else if steps[index].message == nil {
                steps[index].message = message
            }
            // A later step in the same method must not merge into the failed one.
            openLine = .max
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
