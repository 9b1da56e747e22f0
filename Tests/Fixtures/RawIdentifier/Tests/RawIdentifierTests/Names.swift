import Foundation
import Testing

/// `FAIL` names a test that fails on every attempt; `FLAKY` one that fails on its first.
private func outcome(of name: String) -> Bool {
    let env = ProcessInfo.processInfo.environment
    if env["FAIL"] == name { return false }
    if env["FLAKY"] == name { return env["ROBOTCI_ATTEMPT"] != "1" }
    return true
}

@Suite struct Names {
    @Test func `testX(repeat 1 of 2)`() { #expect(outcome(of: "raw"), "raw identifier") }
    @Test func testX() { #expect(outcome(of: "plain"), "plain name") }
    @Test func `a test [webkit]`() { #expect(outcome(of: "bracket"), "reads like a browser suffix") }
}
