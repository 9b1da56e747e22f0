import Foundation
import RobotCICore
import RobotCIReport

/// `--last-failed`: the tests that did not pass in the previous run, from the report
/// folder's results.json (every verdict, with the run id), else from the history's newest run
/// (`--history`, or the folder's history.json: per test one letter per run).
struct LastFailed: Sendable {
    /// The previous run's id.
    var runID: String
    /// Each test to run again, with its verdict then.
    var previous: [TestID: Outcome]
    /// Where it was read from, for the console.
    var source: String

    /// Verdicts that run again: every one that did not pass (flaky only when asked).
    static func runsAgain(_ outcome: Outcome, withFlaky: Bool) -> Bool {
        outcome.failsBuild || (withFlaky && outcome == .flaky)
    }

    /// Reads the previous run; an error (exit 2) when there is none to re-run from.
    static func load(reportDir: URL, history: URL?, withFlaky: Bool) throws -> LastFailed {
        let results = reportDir.appendingPathComponent("results.json")
        if history == nil, FileManager.default.fileExists(atPath: results.path) {
            let run: RunResult
            do { run = try ReportReader.results(at: results) } catch {
                throw ConfigError("--last-failed: cannot read the previous run: \(error)")
            }
            var previous: [TestID: Outcome] = [:]
            // A repetition (`--repeat-each`) that did not pass re-runs its test.
            for t in run.tests where runsAgain(t.outcome, withFlaky: withFlaky) {
                let id = t.id.unrepeated
                previous[id] = worse(previous[id], t.outcome)
            }
            return LastFailed(runID: run.metadata.runID, previous: previous, source: results.path)
        }
        let historyURL = history ?? reportDir.appendingPathComponent("history.json")
        let (loaded, warning) = RunHistory.load(from: historyURL, moveAside: false)
        guard warning == nil, let last = loaded.runs.indices.last else {
            throw ConfigError("--last-failed: no previous run to re-run from: neither \(results.path) nor \(historyURL.path) "
                + (warning.map { "is readable (\($0))" } ?? "holds a run") + "; run the suite once, or point --report-dir/--history at the last run's")
        }
        var previous: [TestID: Outcome] = [:]
        // Each engine's runs (`--browsers`) come back on their own engine.
        for (browser, tests) in loaded.engines {
            for (id, test) in tests {
                let letters = Array(test.o)
                guard last < letters.count, let outcome = Outcome(letter: letters[last]),
                      runsAgain(outcome, withFlaky: withFlaky) else { continue }
                previous[TestID(id, repetition: nil, browser: browser)] = outcome
            }
        }
        return LastFailed(runID: loaded.runs[last].id, previous: previous, source: historyURL.path)
    }

    /// Of two verdicts of one test's repetitions, the one to show (a failure over a flake).
    private static func worse(_ a: Outcome?, _ b: Outcome) -> Outcome {
        guard let a else { return b }
        return a.failsBuild ? a : b
    }

    /// `tests` (discovered and filtered) that run again, in their order.
    func select(_ tests: [TestID]) -> [TestID] { tests.filter { previous[$0] != nil } }

    /// Console lines: what came of each test that ran again.
    func outcomes(in result: RunResult) -> [String] {
        result.tests.compactMap { t in
            guard let before = previous[t.id.unrepeated] else { return nil }
            return "  \(before.rawValue) → \(t.outcome.rawValue)  \(t.id)"
        }
    }
}
