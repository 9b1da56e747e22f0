import Foundation
@testable import RobotCICore
import Testing

@Suite struct TraceDivergenceTests {
    static func step(_ i: Int, _ name: String, _ target: String = "", outcome: String = "passed", text: String? = nil,
                     requests: [Trace.Request] = [], error: String? = nil) -> Trace.Step {
        Trace.Step(index: i, action: .init(name: name, target: target), origin: .init(file: "/t/Robot.swift", line: 10 + i),
                   timing: (start: Double(i), duration: 0.1), verdict: .init(outcome: outcome, error: error),
                   evidence: .init(text: text, requests: requests))
    }
    static func get(_ path: String, _ status: Int) -> Trace.Request { Trace.Request(method: "GET", path: path, route: "GET \(path)", status: status) }

    /// The flaky greeting: /me answered 500 in the failing attempt, 200 in the passing one;
    /// the page then says different things and the last assertion fails.
    static let failing = Trace(test: "M.C/test", attempt: 1, steps: [
        step(0, "launch", text: "Loading"),
        step(1, "waitForExistence", "staticTexts[\"greeting\"]", text: "Hello, stranger", requests: [get("/config", 200), get("/me", 500)]),
        step(2, "label", "staticTexts[\"greeting\"]", outcome: "failed", text: "Hello, stranger", error: "XCTAssertEqual failed"),
    ])
    static let passing = Trace(test: "M.C/test", attempt: 2, steps: [
        step(0, "launch", text: "Loading"),
        step(1, "waitForExistence", "staticTexts[\"greeting\"]", text: "Hello, Alice", requests: [get("/config", 200), get("/me", 200)]),
        step(2, "label", "staticTexts[\"greeting\"]", text: "Hello, Alice"),
    ])

    @Test func namesTheStepWhereTheMockAnsweredDifferently() throws {
        let d = try #require(TraceDivergence.first(failing: Self.failing, passing: Self.passing, passingAttempt: 2))
        #expect(d.step == 1)
        #expect(d.passingStep == 1)
        #expect(d.passingAttempt == 2)
        #expect(d.reason == "GET /me answered 500 here, 200 in attempt 2")
    }

    /// A launch whose page is seen by the next step already shows the greeting, while /me is
    /// recorded with that next step: the different answer is still named as the cause.
    @Test func anAnswerThatLandedBeforeTheDeferredLookIsTheCauseOfTheStepsText() throws {
        var failing = Self.failing, passing = Self.passing
        failing.steps[0].text = "Hello, stranger"
        passing.steps[0].text = "Hello, Alice"
        let d = try #require(TraceDivergence.first(failing: failing, passing: passing, passingAttempt: 2))
        #expect(d.step == 1)
        #expect(d.reason == "GET /me answered 500 here, 200 in attempt 2")
    }

    @Test func aRequestRecordedOneStepLaterIsTimingNotADifference() throws {
        var late = Self.passing
        late.steps[1].requests = [Self.get("/config", 200)]
        late.steps[2].requests = [Self.get("/me", 500)]
        late.steps[1].text = "Hello, stranger"
        late.steps[2].text = "Hello, stranger"
        late.steps[2].outcome = "failed"
        late.steps[2].error = "XCTAssertEqual failed"
        var early = late
        early.steps[1].requests = [Self.get("/config", 200), Self.get("/me", 500)]
        early.steps[2].requests = []
        #expect(TraceDivergence.first(failing: early, passing: late, passingAttempt: 2) == nil, "same answers, one step apart")
        // A different answer a step later still counts, at the failing attempt's step.
        let d = try #require(TraceDivergence.first(failing: early, passing: Self.passing, passingAttempt: 2))
        #expect(d.step == 1 && d.reason.contains("500 here, 200"))
    }

    @Test func theSequenceTheTextAndTheOutcomeEachPart() throws {
        var other = Self.passing
        other.steps[1].name = "tap"
        let seq = try #require(TraceDivergence.first(failing: Self.failing, passing: other, passingAttempt: 3))
        #expect(seq.step == 1 && seq.reason.hasPrefix("this step is waitForExistence"), "\(seq.reason)")

        var sameRequests = Self.failing
        sameRequests.steps[1].requests = Self.passing.steps[1].requests
        let text = try #require(TraceDivergence.first(failing: sameRequests, passing: Self.passing, passingAttempt: 2))
        #expect(text.step == 1 && text.reason == "the page shows “Hello, stranger” here, “Hello, Alice” in attempt 2")

        var onlyOutcome = Self.passing
        onlyOutcome.steps[2].outcome = "failed"
        onlyOutcome.steps[2].error = "boom"
        let outcome = try #require(TraceDivergence.first(failing: onlyOutcome, passing: Self.passing, passingAttempt: 2))
        #expect(outcome.step == 2 && outcome.reason.contains("failed here: boom"))
    }

    @Test func anAttemptThatStoppedEarlyOrWentFurther() throws {
        var short = Self.passing
        short.steps.removeLast()
        let stopped = try #require(TraceDivergence.first(failing: short, passing: Self.passing, passingAttempt: 2))
        #expect(stopped.step == 1 && stopped.passingStep == 2 && stopped.reason.contains("ended after"))
        let further = try #require(TraceDivergence.first(failing: Self.passing, passing: short, passingAttempt: 1))
        #expect(further.step == 2 && further.reason.contains("had ended after"))
        #expect(TraceDivergence.first(failing: Trace(test: "t", attempt: 1), passing: Trace(test: "t", attempt: 2), passingAttempt: 2) == nil)
    }

    @Test func aRequestOnlyOneSideMade() throws {
        var extra = Self.failing
        extra.steps[0].requests = [Self.get("/ads", 200)]
        let asked = try #require(TraceDivergence.first(failing: extra, passing: Self.passing, passingAttempt: 2))
        #expect(asked.step == 0 && asked.reason == "GET /ads was asked here (answered 200); attempt 2 did not ask it")
        let notAsked = try #require(TraceDivergence.first(failing: Self.passing, passing: extra, passingAttempt: 1))
        #expect(notAsked.step == 0 && notAsked.reason.hasPrefix("GET /ads was not asked here"))
    }

    @Test func aLaunchOnAnotherShardIsTheSameStep() {
        #expect(TraceDivergence.comparable("file:///a/signin.html?API_BASE_URL=http://%5B::1%5D:48485")
                == TraceDivergence.comparable("file:///a/signin.html?API_BASE_URL=http://%5B::1%5D:40451"))
        #expect(TraceDivergence.comparable("http://127.0.0.1:8080/x?t=1") == "http://127.0.0.1:*/x?t=1")
        #expect(TraceDivergence.comparable("buttons[\"12:30\"]") != TraceDivergence.comparable("buttons[\"12:45\"]"))
        var a = Self.passing, b = Self.passing
        a.steps[0].name = "launch"; a.steps[0].target = "file:///s.html?API=http://[::1]:40000"
        b.steps[0].target = "file:///s.html?API=http://[::1]:40001"
        #expect(TraceDivergence.first(failing: a, passing: b, passingAttempt: 2) == nil)
    }
}
