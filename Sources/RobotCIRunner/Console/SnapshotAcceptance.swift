import Foundation
import RobotCICore
import RobotCIReport

/// The one command that accepts every actual image of a run's failed snapshots: the tests
/// whose verdict is a failure and whose last failing attempt left a snapshot manifest, run
/// again with `--update-snapshots all` and a filter that selects exactly them.
enum SnapshotAcceptance {
    /// `robotci run --update-snapshots all --filter '^(A|B)$'`, or nil when no snapshot failed.
    static func command(for tests: [TestRecord]) -> String? {
        let ids = tests.filter { test in
            test.outcome.failsBuild
                && test.attempts.last(where: { $0.outcome.isFailure })?.artifacts.contains { $0.kind == .snapshot } == true
        }.map(\.id.test)
        guard !ids.isEmpty else { return nil }
        let alternatives = Array(Set(ids)).sorted().map(RunHistory.regexEscaped).joined(separator: "|")
        let pattern = "^(\(alternatives))$".replacingOccurrences(of: "'", with: "'\\''")
        return "robotci run --update-snapshots all --filter '\(pattern)'"
    }
}
