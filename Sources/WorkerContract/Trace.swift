import Foundation

/// An attempt's step trace, `trace/trace.json` (docs/trace-format.md): RobotKit writes it
/// while the test runs, robotci keeps it by `--trace`, adds `firstDivergence`, and the
/// report shows it. One model for all three, so the file cannot drift between them.
public struct Trace: Codable, Sendable, Equatable {
    /// The one format this model reads and writes.
    public static let currentFormat = "robotci-trace-v1"

    public var format: String
    /// The test id and its 1-based attempt.
    public var test: String
    public var attempt: Int
    public var steps: [Step]
    /// Where this (failing) attempt first parts from a passing one; written by robotci.
    public var firstDivergence: Divergence?

    public init(test: String, attempt: Int, steps: [Step] = [], firstDivergence: Divergence? = nil) {
        self.format = Self.currentFormat
        self.test = test
        self.attempt = attempt
        self.steps = steps
        self.firstDivergence = firstDivergence
    }

    /// One UI action and what the page and the mock server did during it.
    public struct Step: Codable, Sendable, Equatable {
        public var index: Int
        /// `launch`, `wait`, `tap`, `typeText`, `swipe`, `assert`, `terminate`, …
        public var name: String
        /// What the action addressed (the query), empty for app-level actions.
        public var target: String
        public var arguments: [String]
        /// The robot method that called it (`HomeRobot.tapLoad()`), nil from the test itself.
        public var group: String?
        public var file: String
        public var line: Int
        /// Seconds since the trace began, and the step's length.
        public var start: Double
        public var duration: Double
        /// `passed` or `failed`.
        public var outcome: String
        public var error: String?
        /// File names in the trace folder (nil when not taken).
        public var screenshot: String?
        public var snapshot: String?
        /// The page's visible text after the step (bounded).
        public var text: String?
        public var requests: [Request]
        public var console: [ConsoleLine]
        /// A failed snapshot check's images (`verifySnapshot`), nil for every other step.
        public var visual: Visual?

        /// A step from its parts: each group is one question the trace answers about it. `timing`:
        /// seconds since the trace began, and the step's length.
        public init(
            index: Int, action: Action, origin: Origin, timing: (start: Double, duration: Double), verdict: Verdict = .passed,
            evidence: Evidence = Evidence()
        ) {
            self.index = index
            name = action.name
            target = action.target
            arguments = action.arguments
            group = origin.group
            file = origin.file
            line = origin.line
            start = timing.start
            duration = timing.duration
            outcome = verdict.outcome
            error = verdict.error
            screenshot = evidence.screenshot
            snapshot = evidence.snapshot
            text = evidence.text
            requests = evidence.requests
            console = evidence.console
            visual = evidence.visual
        }
    }

    /// A failed snapshot check: its name, baseline and the three images, files in the trace folder.
    public struct Visual: Codable, Sendable, Equatable {
        /// The name the test gave the snapshot.
        public var name: String
        /// The baseline's path on the machine that ran the test.
        public var baseline: String
        /// `missing`, `mismatch` or `size`.
        public var kind: String
        /// Pixels beyond the tolerance, and all pixels compared (nil without a baseline).
        public var differingPixels: Int?
        public var totalPixels: Int?
        /// The baseline, the capture and the diff (red: differs, yellow: anti-aliasing), when there.
        public var expected: String?
        public var actual: String?
        public var diff: String?
        /// The command that accepts the actual image.
        public var command: String

        /// `pixels`: those beyond the tolerance, of all compared (nil without a baseline).
        public init(
            name: String, baseline: String, kind: String, command: String, pixels: (differing: Int, total: Int)? = nil,
            images: Images = Images()
        ) {
            self.name = name
            self.baseline = baseline
            self.kind = kind
            self.command = command
            differingPixels = pixels?.differing
            totalPixels = pixels?.total
            expected = images.expected
            actual = images.actual
            diff = images.diff
        }

        /// The baseline, the capture and the diff: file names in the trace folder, when written.
        public struct Images: Sendable, Equatable {
            public var expected: String?
            public var actual: String?
            public var diff: String?

            public init(expected: String? = nil, actual: String? = nil, diff: String? = nil) {
                self.expected = expected
                self.actual = actual
                self.diff = diff
            }
        }
    }

    /// A mock-server request answered during a step.
    public struct Request: Codable, Sendable, Equatable {
        public var method: String
        public var path: String
        /// The matched route (`GET /character/:id`), nil when none matched.
        public var route: String?
        public var status: Int

        public init(method: String, path: String, route: String?, status: Int) {
            self.method = method
            self.path = path
            self.route = route
            self.status = status
        }
    }

    /// A browser console line logged during a step.
    public struct ConsoleLine: Codable, Sendable, Equatable {
        public var level: String
        public var message: String

        public init(level: String, message: String) {
            self.level = level
            self.message = message
        }
    }

    /// The first step where a failing attempt parts from a passing one.
    public struct Divergence: Codable, Sendable, Equatable {
        /// The step index in this (failing) attempt.
        public var step: Int
        public var passingAttempt: Int
        /// The corresponding step index in the passing attempt.
        public var passingStep: Int
        /// What differed, e.g. `GET /greeting answered 500 here, 200 in attempt 2`.
        public var reason: String
        /// The passing attempt's `trace.json`, relative to this trace's folder (the viewer
        /// shows the two side by side).
        public var passingTrace: String?

        public init(step: Int, passingAttempt: Int, passingStep: Int, reason: String, passingTrace: String? = nil) {
            self.step = step
            self.passingAttempt = passingAttempt
            self.passingStep = passingStep
            self.reason = reason
            self.passingTrace = passingTrace
        }
    }
}

extension ArtifactFile {
    /// The folder of an attempt's trace, inside its artifacts folder.
    public static let traceFolder = "trace"
    /// The trace's index file, in `traceFolder`.
    public static let traceJSON = "trace.json"
}

/// `--trace` / `ROBOTCI_TRACE`: whether RobotKit records traces, and which robotci keeps.
public enum TraceMode: String, CaseIterable, Sendable, Codable {
    /// Record nothing.
    case off
    /// Record every attempt; keep every attempt of a test that failed or was flaky (default).
    case onFailure = "on-failure"
    /// Record and keep every attempt.
    case always
}
