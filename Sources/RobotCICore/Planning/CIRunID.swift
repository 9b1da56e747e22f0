/// The id the CI gives one run of a pipeline, shared by all its parallel jobs. Partitions of
/// one run record it, and `robotci merge` refuses inputs whose ids differ: that is how a
/// results.json left in a reused folder by an earlier run is told from this run's.
public enum CIRunID {
    public struct Detected: Equatable, Sendable {
        public var id: String
        /// The variables it came from, e.g. `GITHUB_RUN_ID+GITHUB_RUN_ATTEMPT (GitHub Actions)`.
        public var source: String

        public init(id: String, source: String) {
            self.id = id
            self.source = source
        }
    }

    /// The variables robotci reads, in order (for messages).
    public static let variables = "ROBOTCI_RUN_ID, GITHUB_RUN_ID+GITHUB_RUN_ATTEMPT, CI_PIPELINE_ID, BUILDKITE_BUILD_ID, CIRCLE_WORKFLOW_ID"

    /// `ROBOTCI_RUN_ID` (set by hand or by a template, e.g. from a Kubernetes Job's uid) first,
    /// then the CI systems' own run ids. Nil when none is set.
    public static func detect(_ env: [String: String]) -> Detected? {
        func value(_ name: String) -> String? {
            guard let v = env[name]?.trimmingCharacters(in: .whitespaces), !v.isEmpty else { return nil }
            return v
        }
        if let id = value("ROBOTCI_RUN_ID") { return Detected(id: id, source: "ROBOTCI_RUN_ID") }
        if let run = value("GITHUB_RUN_ID") {
            // A re-run is a new attempt of the same run id: its partitions are another run.
            let attempt = value("GITHUB_RUN_ATTEMPT") ?? "1"
            return Detected(id: "\(run)-\(attempt)", source: "GITHUB_RUN_ID+GITHUB_RUN_ATTEMPT (GitHub Actions)")
        }
        let systems = [("CI_PIPELINE_ID", "GitLab"), ("BUILDKITE_BUILD_ID", "Buildkite"), ("CIRCLE_WORKFLOW_ID", "CircleCI")]
        for (name, system) in systems {
            if let id = value(name) { return Detected(id: id, source: "\(name) (\(system))") }
        }
        return nil
    }
}
