/// Finds this machine's partition from the variables CI systems set for parallel jobs.
public enum CIPartition {
    /// A partition and where it came from, e.g. `CI_NODE_INDEX/CI_NODE_TOTAL (GitLab)`.
    public struct Detected: Equatable, Sendable {
        public var partition: Partition
        public var source: String
    }

    /// The variables `detect` reads, for messages.
    public static let variables = "CI_NODE_INDEX/CI_NODE_TOTAL, BUILDKITE_PARALLEL_JOB/_COUNT, CIRCLE_NODE_INDEX/CIRCLE_NODE_TOTAL, "
        + "TEST_SHARD_INDEX/TEST_TOTAL_SHARDS, JOB_COMPLETION_INDEX with --partition-count"

    /// Checks, in order: GitLab, Buildkite, CircleCI, Bazel, Kubernetes Indexed Job
    /// (`JOB_COMPLETION_INDEX` with `partitionCount`). Returns nil when none applies.
    public static func detect(_ env: [String: String], partitionCount: Int?) throws -> Detected? {
        let systems: [(index: String, total: String, base: Int, name: String)] = [
            ("CI_NODE_INDEX", "CI_NODE_TOTAL", 1, "GitLab"),
            ("BUILDKITE_PARALLEL_JOB", "BUILDKITE_PARALLEL_JOB_COUNT", 0, "Buildkite"),
            ("CIRCLE_NODE_INDEX", "CIRCLE_NODE_TOTAL", 0, "CircleCI"),
            ("TEST_SHARD_INDEX", "TEST_TOTAL_SHARDS", 0, "Bazel"),
        ]
        for s in systems {
            guard let rawIndex = env[s.index], let rawTotal = env[s.total] else { continue }
            guard let index = Int(rawIndex), let total = Int(rawTotal) else {
                throw ConfigError("\(s.index)=\(rawIndex) / \(s.total)=\(rawTotal) are not integers (\(s.name) parallel job); fix them or pass --partition K/N")
            }
            do {
                let p = try Partition(index: index - s.base + 1, count: total)
                return Detected(partition: p, source: "\(s.index)/\(s.total) (\(s.name), \(s.base)-based)")
            } catch let e as ConfigError {
                throw ConfigError("\(s.index)=\(rawIndex) with \(s.total)=\(rawTotal): \(e.message)")
            }
        }
        if let rawIndex = env["JOB_COMPLETION_INDEX"] {
            guard let count = partitionCount ?? env["ROBOTCI_PARTITION_COUNT"].flatMap(Int.init) else {
                throw ConfigError("JOB_COMPLETION_INDEX=\(rawIndex) is set (Kubernetes Indexed Job) but the number of partitions is unknown: pass --partition-count N (the Job's completions) or set partition-count in robotci.yml")
            }
            guard let index = Int(rawIndex) else {
                throw ConfigError("JOB_COMPLETION_INDEX=\(rawIndex) is not an integer")
            }
            let p = try Partition(index: index + 1, count: count)
            return Detected(partition: p, source: "JOB_COMPLETION_INDEX with partition-count \(count) (Kubernetes Indexed Job, 0-based)")
        }
        return nil
    }
}
