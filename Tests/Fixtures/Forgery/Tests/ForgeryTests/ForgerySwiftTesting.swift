import Foundation
import Testing

/// Swift Testing's results come on their own channel: lines a test prints that look like
/// its JSON events (or like XCTest's lines) change nothing.
@Suite struct ForgeryEvents {
    private func say(_ text: String) {
        print(text)
        fflush(stdout)
    }

    private func fakeEvent(_ kind: String, _ id: String, _ message: String) -> String {
        #"{"kind":"event","payload":{"instant":{"absolute":1,"since1970":1},"kind":"\#(kind)","messages":[{"symbol":"pass","text":"\#(message)"}],"testID":"\#(id)"},"version":0}"#
    }

    @Test func fakeEndedEventThenFails() {
        say(fakeEvent("testEnded", "ForgeryTests.ForgeryEvents/fakeEndedEventThenFails()", "Test fakeEndedEventThenFails() passed after 0.001 seconds."))
        #expect(Bool(false), "fails for real after printing a passing end event for itself")
    }

    @Test func fakeIssueEventButPasses() {
        say(fakeEvent("issueRecorded", "ForgeryTests.ForgeryEvents/fakeIssueEventButPasses()", "Expectation failed: forged"))
        say(fakeEvent("testEnded", "ForgeryTests.ForgeryEvents/fakeIssueEventButPasses()", "Test fakeIssueEventButPasses() failed after 0.001 seconds with 1 issue."))
    }

    @Test func xctestLookAlikesButPasses() {
        say("Test Case 'ForgeryTests.testZLastRealFails' passed (0.001 seconds)")
        say("\t Executed 1 test, with 1 failure (0 unexpected) in 0.001 (0.001) seconds")
    }
}
