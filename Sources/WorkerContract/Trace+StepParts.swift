extension Trace.Step {
    /// What the step did: the action, what it addressed, and what the trace shows beside it.
    public struct Action: Sendable, Equatable {
        /// `launch`, `wait`, `tap`, `typeText`, `swipe`, `assert`, `terminate`, …
        public var name: String
        /// The query it addressed, empty for app-level actions.
        public var target: String
        public var arguments: [String]

        public init(name: String, target: String = "", arguments: [String] = []) {
            self.name = name
            self.target = target
            self.arguments = arguments
        }
    }

    /// Where in the test's source the step ran.
    public struct Origin: Sendable, Equatable {
        /// The robot method that called it (`HomeRobot.tapLoad()`), nil from the test itself.
        public var group: String?
        public var file: String
        public var line: Int

        public init(group: String? = nil, file: String, line: Int) {
            self.group = group
            self.file = file
            self.line = line
        }
    }

    /// How the step ended: `passed`, or `failed` with what went wrong.
    public struct Verdict: Sendable, Equatable {
        public var outcome: String
        public var error: String?

        public static let passed = Verdict(outcome: "passed")

        public static func failed(_ error: String?) -> Verdict { Verdict(outcome: "failed", error: error) }

        public init(outcome: String, error: String? = nil) {
            self.outcome = outcome
            self.error = error
        }
    }

    /// What the step left: the page after it, the mock requests and console lines during it,
    /// and a failed snapshot check's images.
    public struct Evidence: Sendable, Equatable {
        /// File names in the trace folder (nil when not taken).
        public var screenshot: String?
        public var snapshot: String?
        /// The page's visible text after the step (bounded).
        public var text: String?
        public var requests: [Trace.Request]
        public var console: [Trace.ConsoleLine]
        public var visual: Trace.Visual?

        public init(
            screenshot: String? = nil, snapshot: String? = nil, text: String? = nil, requests: [Trace.Request] = [],
            console: [Trace.ConsoleLine] = [], visual: Trace.Visual? = nil
        ) {
            self.screenshot = screenshot
            self.snapshot = snapshot
            self.text = text
            self.requests = requests
            self.console = console
            self.visual = visual
        }
    }
}
