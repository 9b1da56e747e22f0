/// What one run of one test ended as.
public enum AttemptOutcome: String, Codable, Sendable, CaseIterable {
    case passed, failed, skipped, timedOut, crashed

    /// Whether this attempt counts against the test (and asks for a retry).
    public var isFailure: Bool { self == .failed || self == .timedOut || self == .crashed }
}

/// A test's verdict over all its attempts.
public enum Outcome: String, Codable, Sendable, CaseIterable {
    /// Every attempt passed (normally there is only one).
    case passed
    /// Failed on every attempt.
    case failed
    /// Failed, then passed on a retry.
    case flaky
    case skipped
    /// The last attempt ran past `--test-timeout` and was killed.
    case timedOut
    /// The last attempt's process died (signal or abnormal exit) mid-test.
    case crashed
    /// Listed as quarantined in config: run and reported, never fails the build.
    case quarantined
    /// Planned, but no attempt of it has a result (its batch died before it, the queue lost
    /// it, the run stopped early, no partition ran it). `TestRecord.reason` says why.
    case notRun

    /// One letter per verdict, for compact per-run strips (history.json, the report's data):
    /// P passed, F failed, K flaky, S skipped, T timed out, C crashed, Q quarantined, N not run.
    public var letter: Character {
        switch self {
        case .passed: "P"
        case .failed: "F"
        case .flaky: "K"
        case .skipped: "S"
        case .timedOut: "T"
        case .crashed: "C"
        case .quarantined: "Q"
        case .notRun: "N"
        }
    }

    /// The verdict a letter stands for; nil for any other character (history's `-`: did not run).
    public init?(letter: Character) {
        guard let outcome = Self.allCases.first(where: { $0.letter == letter }) else { return nil }
        self = outcome
    }

    /// Whether this verdict makes the run exit 1. A test that did not run is never a pass,
    /// quarantined or not: the run did not do what it was asked.
    public var failsBuild: Bool { self == .failed || self == .timedOut || self == .crashed || self == .notRun }

    /// The verdict for a sequence of attempts (in order). No attempt at all is `notRun`:
    /// the absence of a failure is never a pass.
    public static func verdict(for attempts: [AttemptOutcome], quarantined: Bool = false) -> Outcome {
        guard let last = attempts.last else { return .notRun }
        let verdict: Outcome
        if last == .passed {
            verdict = attempts.contains(where: \.isFailure) ? .flaky : .passed
        } else if last == .skipped, let failure = attempts.last(where: \.isFailure) {
            // Failed, then skipped itself on a retry: the failure stands.
            verdict = failure == .crashed ? .crashed : failure == .timedOut ? .timedOut : .failed
        } else {
            switch last {
            case .skipped: verdict = .skipped
            case .timedOut: verdict = .timedOut
            case .crashed: verdict = .crashed
            default: verdict = .failed
            }
        }
        if quarantined && verdict.failsBuild { return .quarantined }
        return verdict
    }
}
