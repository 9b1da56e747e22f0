import Foundation
import XCTest

/// Watches tests for what Linux XCTest does not do itself: it stops the apps a test made
/// with `XCUIApplication()` from acting after the test's first failure (Darwin ends the
/// test there when `continueAfterFailure` is false, as XCUITest suites set it), and
/// enforces `executionTimeAllowance`. At a test's first failure it also saves the evidence
/// of the test's live apps (`FailureEvidence`), whatever the test's base class.
/// Registered with XCTest on first use (an app's launch, `XCUIApplication()`).
final class RobotKitTestObserver: NSObject, XCTestObservation, @unchecked Sendable {
    static let shared: RobotKitTestObserver = {
        let observer = RobotKitTestObserver()
        XCTestObservationCenter.shared.addTestObserver(observer)
        return observer
    }()

    /// Makes sure the observer is registered with XCTest.
    static func register() {
        _ = shared
    }

    /// The name of the XCTest case running now, if the observer saw it start.
    static var runningTest: String? {
        shared.lock.withLock { shared.current == nil ? nil : shared.currentName }
    }

    private struct WeakApp {
        weak var app: WebApp?
    }

    private let lock = NSLock()
    private var current: ObjectIdentifier?
    private var currentName = ""
    private var startedAt = Date()
    private var generation = 0
    private var apps: [WeakApp] = []
    private var allowances: [ObjectIdentifier: TimeInterval] = [:]

    /// Halts `app` with the running test's first failure.
    func adopt(_ app: WebApp) {
        lock.withLock { apps.append(WeakApp(app: app)) }
    }

    func allowance(for testCase: XCTestCase) -> TimeInterval? {
        lock.withLock { allowances[ObjectIdentifier(testCase)] }
    }

    /// Records the allowance and arms a deadline from the test's start.
    func setAllowance(_ seconds: TimeInterval, for testCase: XCTestCase) {
        let id = ObjectIdentifier(testCase)
        let rounded = Self.enforced(seconds)
        let (armed, deadline, name) = lock.withLock { () -> (Int?, Date, String) in
            allowances[id] = seconds
            if current == nil {
                // Registered during this test (first use): its start was a moment ago.
                current = id
                currentName = testCase.name
                startedAt = Date()
                generation += 1
            }
            let running = current == id
            return (running ? generation : nil, startedAt.addingTimeInterval(rounded), currentName)
        }
        guard let armed else { return }
        let delay = max(deadline.timeIntervalSinceNow, 0)
        DispatchQueue.global().asyncAfter(deadline: .now() + delay) { [self] in
            let stillRunning = lock.withLock { generation == armed }
            guard stillRunning else { return }
            let message = "\(name) : error: Test exceeded execution time allowance of \(Int(rounded)) seconds"
            FileHandle.standardOutput.write(Data("\(message)\n".utf8))
            exit(1)
        }
    }

    /// What Darwin enforces for an allowance: whole minutes, rounded up, at least one.
    static func enforced(_ allowance: TimeInterval) -> TimeInterval {
        max(60, (allowance / 60).rounded(.up) * 60)
    }

    func testCaseWillStart(_ testCase: XCTestCase) {
        FailureEvidence.shared.reset(testCase.name)
        lock.withLock {
            current = ObjectIdentifier(testCase)
            currentName = testCase.name
            startedAt = Date()
            generation += 1
            apps.removeAll()
        }
    }

    func testCase(_ testCase: XCTestCase, didFailWithDescription description: String, inFile filePath: String?, atLine lineNumber: Int) {
        // Before anything else, so the evidence shows the screen that failed.
        captureEvidence(of: testCase)
        let stopsAtFirstFailure = (testCase as? UITestCase)?.stopsAtFirstFailure ?? true
        guard stopsAtFirstFailure else { return }
        let halted = lock.withLock { apps.compactMap(\.app) }
        for app in halted {
            app.recorder.isHalted = true
        }
    }

    private func captureEvidence(of testCase: XCTestCase) {
        let test = testCase.name
        guard !FailureEvidence.shared.hasCaptured(test) else { return }
        let directory = (testCase as? UITestCase)?.artifactsDirectory
            ?? FailureEvidence.directory(for: test, fresh: true)
        let problems = FailureEvidence.shared.captureFirstFailure(of: test, into: directory)
        if !(testCase is UITestCase) {
            FailureEvidence.announce(test, directory, problems: problems)
        } else {
            for problem in problems {
                FileHandle.standardError.write(Data("RobotKit: \(problem)\n".utf8))
            }
        }
    }

    func testCaseDidFinish(_ testCase: XCTestCase) {
        lock.withLock {
            if current == ObjectIdentifier(testCase) {
                current = nil
                generation += 1
            }
            allowances[ObjectIdentifier(testCase)] = nil
            apps.removeAll()
        }
    }
}
