import Foundation
import Testing

extension Trait where Self == IssueHandlingTrait {
    /// For a Swift Testing test that drives a ``WebApp``: at its first failure, saves the
    /// evidence of the apps it launched that are still running (screenshot, accessibility
    /// tree, page HTML, console log) and the journals of running mock servers, into
    /// `ROBOTCI_ARTIFACTS_DIR` (else a private `$TMPDIR/robotkit-evidence-TEST-XXXXXX/`), before the test
    /// goes on and can terminate the app. XCTest tests get this without a trait.
    ///
    /// ```swift
    /// @Test(.failureEvidence) func signsIn() async throws { … }
    /// @Suite(.failureEvidence) struct SignInTests { … }
    /// ```
    public static var failureEvidence: Self {
        .compactMapIssues { issue in
            if issue.isFailure, let test = TestIdentity.current {
                RobotKitProcess.current.trace.recordFailure(issue.description)
                let name = Test.current.map { "\($0.id)" } ?? test
                if !RobotKitProcess.current.evidence.hasCaptured(test) {
                    let directory = FailureEvidence.directory(for: name, fresh: true)
                    let problems = RobotKitProcess.current.evidence.captureFirstFailure(of: test, into: directory)
                    FailureEvidence.announce(name, directory, problems: problems)
                }
            }
            return issue
        }
    }
}
