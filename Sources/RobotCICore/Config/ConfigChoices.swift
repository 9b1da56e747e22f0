/// `reporter`: what robotci writes for the CI beside its console lines.
public enum CIReporter: String, CaseIterable, Sendable {
    /// GitHub Actions annotations and a job summary.
    case github
    /// The console lines only.
    case plain
    /// `github` under GitHub Actions (`GITHUB_ACTIONS=true`), else `plain`.
    case auto
}

/// `configuration`: what `swift build -c` builds the tests in.
public enum BuildConfiguration: String, CaseIterable, Sendable {
    case debug
    case release
}

/// `partition`: a share given as `K/N`, or `auto` (K and N from the CI's parallel-job variables).
public enum PartitionRequest: Sendable, Equatable {
    case share(Partition)
    case fromCI
}
