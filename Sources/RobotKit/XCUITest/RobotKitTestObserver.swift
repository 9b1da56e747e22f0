import Foundation
import ProcessToolkit
import StandardStreams
import XCTest

/// Watches tests for what Linux XCTest does not do itself: it stops the apps a test made
/// with `XCUIApplication()` from acting after the test's first failure (Darwin ends the
/// test there when `continueAfterFailure` is false, as XCUITest suites set it), and
/// enforces `executionTimeAllowance`. At a test's first failure it also saves the evidence
/// of the test's live apps (`FailureEvidence`), whatever the test's base class.
/// Registered with XCTest on first use (an app's launch, `XCUIApplication()`).
final class RobotKitTestObserver: NSObject, XCTestObservation, Sendable {
    private let evidence: FailureEvidence
    private let trace: TraceRecorder

    /// Made and registered by `RobotKitProcess.observer`.
    init(evidence: FailureEvidence, trace: TraceRecorder) {
        self.evidence = evidence
        self.trace = trace
    }

    /// Makes sure the observer is registered with XCTest.
    static func register() {
        _ = RobotKitProcess.current.observer
    }

    /// The name of the XCTest case running now, if the observer saw it start.
    static var runningTest: String? {
        RobotKitProcess.current.observer.state.withLock { $0.current == nil ? nil : $0.currentName }
    }

    private struct WeakApp {
        weak var app: WebApp?
    }

    /// The test running now, its apps and the allowances set for tests.
    private struct State {
        var current: ObjectIdentifier?
        var currentName = ""
        var startedAt = Date()
        /// Changes whenever a test starts or ends: an armed deadline fires only in its test.
        var generation = 0
        var apps: [WeakApp] = []
        var allowances: [ObjectIdentifier: TimeInterval] = [:]
    }

    private let state = Locked(State())

    /// Halts `app` with the running test's first failure.
    func adopt(_ app: WebApp) {
        state.withLock { $0.apps.append(WeakApp(app: app)) }
    }

    func allowance(for testCase: XCTestCase) -> TimeInterval? {
        state.withLock { $0.allowances[ObjectIdentifier(testCase)] }
    }

    /// Records the allowance and arms a deadline from the test's start.
    func setAllowance(_ seconds: TimeInterval, for testCase: XCTestCase) {
        let id = ObjectIdentifier(testCase)
        let rounded = Self.enforced(seconds)
        let (armed, deadline, name) = state.withLock { s -> (Int?, Date, String) in
            s.allowances[id] = seconds
            if s.current == nil {
                // Registered during this test (first use): its start was a moment ago.
                s.current = id
                s.currentName = testCase.name
                s.startedAt = Date()
                s.generation += 1
            }
            let running = s.current == id
            return (running ? s.generation : nil, s.startedAt.addingTimeInterval(rounded), s.currentName)
        }
        guard let armed else { return }
        let delay = max(deadline.timeIntervalSinceNow, 0)
        DispatchQueue.global().asyncAfter(deadline: .now() + delay) { [self] in
            let stillRunning = state.withLock { $0.generation == armed }
            guard stillRunning else { return }
            let message = "\(name) : error: Test exceeded execution time allowance of \(Int(rounded)) seconds"
            StandardStream.output.write("\(message)\n")
            exit(1)
        }
    }

    /// What Darwin enforces for an allowance: whole minutes, rounded up, at least one.
    static func enforced(_ allowance: TimeInterval) -> TimeInterval {
        max(60, (allowance / 60).rounded(.up) * 60)
    }

    func testCaseWillStart(_ testCase: XCTestCase) {
        evidence.reset(testCase.name)
        state.withLock { s in
            s.current = ObjectIdentifier(testCase)
            s.currentName = testCase.name
            s.startedAt = Date()
            s.generation += 1
            s.apps.removeAll()
        }
    }

    func testCase(_ testCase: XCTestCase, didFailWithDescription description: String, inFile filePath: String?, atLine lineNumber: Int) {
        // Before anything else, so the evidence shows the screen that failed.
        captureEvidence(of: testCase)
        trace.recordFailure(description)
        let stopsAtFirstFailure = (testCase as? UITestCase)?.stopsAtFirstFailure ?? true
        guard stopsAtFirstFailure else { return }
        let halted = state.withLock { $0.apps.compactMap(\.app) }
        for app in halted {
            app.recorder.isHalted = true
        }
    }

    private func captureEvidence(of testCase: XCTestCase) {
        let test = testCase.name
        guard !evidence.hasCaptured(test) else { return }
        let directory = (testCase as? UITestCase)?.artifactsDirectory
            ?? FailureEvidence.directory(for: test, fresh: true)
        let problems = evidence.captureFirstFailure(of: test, into: directory)
        if !(testCase is UITestCase) {
            FailureEvidence.announce(test, directory, problems: problems)
        } else {
            for problem in problems {
                StandardStream.error.write("RobotKit: \(problem)\n")
            }
        }
    }

    func testCaseDidFinish(_ testCase: XCTestCase) {
        trace.finish(test: testCase.name)
        state.withLock { s in
            if s.current == ObjectIdentifier(testCase) {
                s.current = nil
                s.generation += 1
            }
            s.allowances[ObjectIdentifier(testCase)] = nil
            s.apps.removeAll()
        }
    }
}
