import Foundation
import RobotCICore

/// What a run keeps of its attempts' step traces (`--trace`), and where a failing attempt
/// parted from a passing one (`firstDivergence`, written into the failing attempt's
/// `trace.json`).
///
/// `on-failure` keeps every attempt's trace of a test that did not simply pass: one with a
/// failing attempt, a retry (in queue mode the failure may have been on another machine), or,
/// under `--repeat-each`, a repetition that failed; everything else is deleted. A trace that
/// cannot be read stays linked as it is: the report says so where it would show it.
public enum TraceRetention {
    /// `result` with the traces `mode` does not keep deleted from `directory` and unlinked,
    /// and divergences written into the failing attempts' traces.
    public static func apply(_ mode: TraceMode, to result: RunResult, in directory: URL) -> RunResult {
        var result = result
        if mode == .onFailure {
            let wanted = Set(result.tests.filter(needsTrace).map(\.id.unrepeated))
            for t in result.tests.indices where !wanted.contains(result.tests[t].id.unrepeated) {
                for a in result.tests[t].attempts.indices {
                    let attempt = result.tests[t].attempts[a]
                    for artifact in attempt.artifacts where artifact.kind == .trace {
                        if let url = ReportPaths.resolve(artifact.path, in: directory) {
                            try? FileManager.default.removeItem(at: url.deletingLastPathComponent())
                        }
                    }
                    result.tests[t].attempts[a].artifacts.removeAll { $0.kind == .trace }
                }
            }
        }
        markDivergences(in: result, directory: directory)
        return result
    }

    /// For each test (repetitions of one test together) with a passing and a failing attempt,
    /// both traced: the failing attempts' `firstDivergence` against the first passing one.
    public static func markDivergences(in result: RunResult, directory: URL) {
        var attemptsByTest: [TestID: [(label: Int, attempt: Attempt)]] = [:]
        for test in result.tests {
            // A repetition's attempts are numbered within it; across repetitions, the
            // repetition is the number people see (`repeat 3 of 5`).
            let label = { (a: Attempt) in test.id.repetition.map { $0.index } ?? a.number }
            attemptsByTest[test.id.unrepeated, default: []] += test.attempts.map { (label($0), $0) }
        }
        for (_, attempts) in attemptsByTest {
            guard let passing = attempts.first(where: { $0.attempt.outcome == .passed && traceURL($0.attempt, directory) != nil }),
                  let passingURL = traceURL(passing.attempt, directory),
                  let passingTrace = try? read(passingURL) else { continue }
            for failing in attempts where failing.attempt.outcome.isFailure {
                guard let url = traceURL(failing.attempt, directory), var trace = try? read(url) else { continue }
                trace.firstDivergence = TraceDivergence.first(failing: trace, passing: passingTrace, passingAttempt: passing.label)
                trace.firstDivergence?.passingTrace = relativePath(from: url.deletingLastPathComponent(), to: passingURL)
                try? write(trace, to: url)
            }
        }
    }

    /// Whether a test's traces are kept under `on-failure`.
    static func needsTrace(_ test: TestRecord) -> Bool {
        test.attempts.contains { $0.outcome.isFailure || $0.number > 1 }
    }

    static func traceURL(_ attempt: Attempt, _ directory: URL) -> URL? {
        attempt.artifacts.first { $0.kind == .trace }.flatMap { ReportPaths.resolve($0.path, in: directory) }
    }

    /// Largest `trace.json` read (a step is about 1 KB; 16 MiB is far past any real test).
    static let maxTraceBytes = 16 << 20

    /// A trace file, bounded and checked: a regular file, a format this robotci knows.
    public static func read(_ url: URL) throws -> Trace {
        let data = try RegularFile.read(url.path, limit: maxTraceBytes, what: "trace")
        let trace = try JSONDecoder().decode(Trace.self, from: data)
        guard trace.format == Trace.currentFormat else {
            throw RegularFileError("\(url.path) is trace format '\(trace.format)', not \(Trace.currentFormat): written by another robotci version")
        }
        return trace
    }

    static func write(_ trace: Trace, to url: URL) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        try AtomicFile.write(encoder.encode(trace), to: url)
    }

    /// `../../attempt-2/trace/trace.json` from one trace folder to another trace file.
    static func relativePath(from folder: URL, to file: URL) -> String {
        let from = folder.standardizedFileURL.pathComponents, to = file.standardizedFileURL.pathComponents
        let common = zip(from, to).prefix { $0 == $1 }.count
        return (Array(repeating: "..", count: from.count - common) + to[common...]).joined(separator: "/")
    }
}
