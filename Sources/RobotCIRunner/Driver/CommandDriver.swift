import Foundation
import ProcessToolkit
import RobotCICore
import RobotCIReport

/// `driver: command`: any test runner, through three shell commands from `robotci.yml`.
///
/// - `build` (optional) runs once first;
/// - `list` prints test ids, one per line, up to the first empty line (pytest's
///   `--collect-only -q` prints its summary after one);
/// - `run` runs a batch: `{tests}` becomes the batch's ids, each shell-quoted, joined by
///   `test_separator`; `{junit}` the path where it must write JUnit XML.
///
/// Commands run under `/bin/sh -c` in the package folder with the worker environment.
struct CommandDriver: TestDriver {
    let directory: String
    let list: String
    let run: String
    let build: String?
    let separator: String

    init(config: RunConfiguration) {
        directory = URL(fileURLWithPath: config.package).standardizedFileURL.path
        list = config.listCommand ?? ""
        run = config.runCommand ?? ""
        build = config.buildCommand
        separator = config.testSeparator
    }

    static func discover(config: RunConfiguration, environment: [String: String],
                         say: @escaping (String) -> Void) throws -> (driver: CommandDriver, tests: [TestID]) {
        let driver = CommandDriver(config: config)
        guard FileManager.default.fileExists(atPath: driver.directory) else {
            throw ConfigError("the package folder '\(config.package)' does not exist: fix --package (or 'package' in robotci.yml)")
        }
        if !config.skipBuild, let build = driver.build {
            say("robotci: building (\(build))…")
            try driver.prepare(environment: environment, echo: say)
        }
        return (driver, try driver.listTests(environment: environment))
    }

    static let shell = "/bin/sh"

    /// Runs `build`, echoing its output; throws when it fails.
    func prepare(environment: [String: String], echo: @escaping (String) -> Void) throws {
        guard let build else { return }
        let (termination, _) = try runCaptured(Self.shell, ["-c", build], environment: environment, workingDirectory: directory, echo: echo)
        guard termination == .exited(0) else {
            throw ConfigError("the build command failed (\(termination)): \(build)\nfix it or change 'build' in robotci.yml")
        }
    }

    /// The ids `list` prints. Its stderr is kept apart (warnings are no test ids) and shown on failure.
    func listTests(environment: [String: String]) throws -> [TestID] {
        let errors = FileManager.default.temporaryDirectory.appendingPathComponent("robotci-list-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).err")
        defer { try? FileManager.default.removeItem(at: errors) }
        let script = "( \(list)\n) 2>\(Self.quote(errors.path))"
        let (termination, output) = try runCaptured(Self.shell, ["-c", script], environment: environment, workingDirectory: directory)
        guard termination == .exited(0) else {
            let stderr = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
            throw RunnerError.discoveryFailed("the list command '\(list)' (in \(directory), \(termination))", output + stderr)
        }
        return Self.parseList(output)
    }

    static func parseList(_ output: String) -> [TestID] {
        var seen = Set<String>()
        var ids: [TestID] = []
        for line in output.split(separator: "\n", omittingEmptySubsequences: false) {
            let id = line.trimmingCharacters(in: .whitespacesAndNewlines)
            if id.isEmpty { if ids.isEmpty { continue } else { break } }
            if seen.insert(id).inserted { ids.append(TestID(id)) }
        }
        return ids
    }

    /// `run` with the batch's ids and the JUnit path filled in.
    func command(for tests: [TestID], junit: String) -> (executable: String, arguments: [String]) {
        let ids = tests.map { Self.quote($0.test) }.joined(separator: separator)
        let script = run.replacingOccurrences(of: "{tests}", with: ids).replacingOccurrences(of: "{junit}", with: Self.quote(junit))
        return (Self.shell, ["-c", script])
    }

    /// POSIX shell single quoting: `it's` → `'it'\''s'`.
    static func quote(_ s: String) -> String {
        "'" + s.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }
}

/// Pairs a runner's JUnit `<testcase>`s with the ids `list` printed.
///
/// Runners name tests differently in the two places (pytest lists
/// `tests/ui/test_login.py::TestLogin::test_ok[1]` and writes classname
/// `tests.ui.test_login.TestLogin`, name `test_ok[1]`), so a case matches the id that ends
/// with its name at a separator; several such ids are told apart by how many of the
/// classname's (and file's) parts each contains.
enum JUnitMatcher {
    static func match(_ cases: [JUnitReader.Case], to tests: [TestID]) -> (matched: [(TestID, JUnitReader.Case)], unknown: [JUnitReader.Case]) {
        var taken = Set<TestID>()
        var matched: [(TestID, JUnitReader.Case)] = []
        var unknown: [JUnitReader.Case] = []
        for c in cases {
            let candidates = tests.filter { !taken.contains($0) && endsWithName($0.test, c.name) }
            let best = candidates.max { score($0, c) < score($1, c) }
            if let best {
                taken.insert(best)
                matched.append((best, c))
            } else {
                unknown.append(c)
            }
        }
        return (matched, unknown)
    }

    /// `id` is `name`, or ends with it right after a separator (`::`, `/`, `.`, space…).
    static func endsWithName(_ id: String, _ name: String) -> Bool {
        guard !name.isEmpty, id.hasSuffix(name) else { return false }
        if id.count == name.count { return true }
        let before = id[id.index(id.endIndex, offsetBy: -name.count - 1)]
        return !(before.isLetter || before.isNumber || before == "_")
    }

    private static func parts(_ s: String) -> [Substring] {
        s.split { !($0.isLetter || $0.isNumber || $0 == "_") }
    }

    /// How many of the case's classname and file parts appear in the id (ties: the shorter id).
    private static func score(_ id: TestID, _ c: JUnitReader.Case) -> Double {
        let idParts = Set(parts(String(id.test.dropLast(c.name.count))))
        let wanted = parts(c.classname) + parts(c.file ?? "")
        let hits = wanted.filter { idParts.contains($0) }.count
        return Double(hits) - Double(id.test.count) / 1_000_000
    }
}

/// The last `path:line:` in a traceback (pytest: `tests/test_a.py:12: AssertionError`).
func tracebackLocation(_ text: String) -> (file: String, line: Int)? {
    for raw in text.split(separator: "\n").reversed() {
        let line = raw.trimmingCharacters(in: .whitespaces)
        let parts = line.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, let n = Int(parts[1]), n > 0, parts[2].isEmpty || parts[2].hasPrefix(" "),
              !parts[0].isEmpty, !parts[0].contains(" ") else { continue }
        return (String(parts[0]), n)
    }
    return nil
}

extension CommandDriver {
    /// Runs one batch; results come from the JUnit file it writes, once the process is gone.
    func run(_ batch: BatchRun) -> BatchOutcome {
        let item = batch.item
        let junit = batch.layout.workDirectory.appendingPathComponent("batch-\(item.id).junit.xml")
        try? FileManager.default.removeItem(at: junit)
        defer { try? FileManager.default.removeItem(at: junit) }
        batch.environment[WorkerVariable.junitPath.name] = junit.path
        let command = command(for: item.tests, junit: junit.path)
        batch.log.write(Substring("robotci: \(command.arguments.last ?? "")"))
        guard let child = batch.spawn(command, workingDirectory: directory) else { return batch.spawnFailed() }

        // No per-test progress to watch. The batch may take every test's time from the last
        // runs (a test without history: a whole test timeout) plus one test timeout of slack.
        // A batch that overruns is killed and its tests run again alone, where the per-test
        // timeout then names the one that hangs.
        let budget = Self.budget(for: item.tests, history: batch.history, testTimeout: batch.testTimeout(for:))
        var output = OutputBuffer()
        let (end, timedOut) = batch.pump(child, deadline: { batch.start + budget }, handle: { line in
            batch.log.write(line)
            output.append(line)
        })
        let termination = BatchEnd.deciding(end, timeout: timedOut ? .batchTimeout(seconds: Int(budget)) : nil, stop: batch.stop)
        if case .stopped = termination {
            return BatchOutcome(record: batch.record(termination: termination), unstarted: [], noTestStarted: false)
        }
        return results(of: batch, ended: (end, timedOut), output: output.text, junit: junit,
                       record: batch.record(termination: termination))
    }

    /// What the batch's JUnit file, its exit status and its output say of its tests, once its
    /// process ended (and the run was not stopped).
    private func results(of batch: BatchRun, ended: (end: ChildProcess.Termination, timedOut: Bool), output: String, junit: URL,
                         record: BatchRecord) -> BatchOutcome {
        let (item, end, timedOut) = (batch.item, ended.end, ended.timedOut)
        let (cases, junitProblem) = Self.readCases(junit)
        // A lone test's files are its own; a batch's shared ones go under
        // `attachments/batches/batch-N/` and are linked from its failing tests.
        let artifacts = batch.moveArtifacts(into: item.tests.count == 1
            ? batch.attemptDirectory(of: item.tests[0]) : "attachments/batches/batch-\(item.id)")
        // The exit status is evidence too: a runner that failed (a plugin's error, a crash in
        // teardown after the file was written) exits non-zero though every case in its file
        // passed. Which test made it fail is not known in a batch, so each runs alone; alone,
        // the exit status is the test's.
        if !timedOut, end != .exited(0), !cases.isEmpty, !cases.contains(where: { $0.record.attempts.first?.outcome.isFailure == true }) {
            if item.tests.count > 1 {
                batch.log.write(Substring("robotci: the run command ended (\(end)) but its JUnit file has no failing case: every test of the batch runs again alone"))
                return BatchOutcome(record: record, unstarted: [], noTestStarted: false, isolate: item.tests)
            }
            return disagreeingExit(end, cases: cases, of: batch, output: output, artifacts: artifacts, record: record)
        }
        let answered = report(cases, of: batch, artifacts: artifacts)

        // Tests the batch gave no result for.
        let missing = item.tests.filter { !answered.contains($0) }
        guard !missing.isEmpty else { return BatchOutcome(record: record, unstarted: [], noTestStarted: false) }
        if item.tests.count > 1 {
            // Which of them crashed or hung is not known: run each alone.
            return BatchOutcome(record: record, unstarted: [], noTestStarted: false, isolate: missing)
        }
        if !timedOut, case .exited(0) = end, junitProblem == nil {
            // The runner ran to the end and wrote its JUnit, without this test: it did not
            // run (a filtered-out or renamed id), which is no pass and no crash.
            batch.notRun(missing[0], reason: "the run command exited 0 and wrote its JUnit file, but without a <testcase> for this id, also when run alone (check that 'run' passes {tests} to the runner)")
            return BatchOutcome(record: record, unstarted: [], noTestStarted: false)
        }
        let why = timedOut
            ? "timed out: still running after \(Int(batch.testTimeout(for: missing[0]))) s (\(batch.deadline(for: missing[0]).rule)); its process group was killed"
            : "crashed: the run command ended (\(end)) without a result for this test: \(junitProblem ?? "its JUnit file has no <testcase> matching this id (check that 'run' passes {tests} to the runner and writes {junit})")"
        let crash = CrashSummary(output: output)
        let failure = FailureMessage(file: crash.file, line: crash.line, message: crash.reason.map { "\(why) — \($0)" } ?? why)
        batch.report(missing[0], Attempt(
            number: item.attempt, outcome: timedOut ? .timedOut : .crashed, duration: batch.clock.now() - batch.start,
            start: batch.start, placement: .init(shard: batch.shard, batch: item.id),
            evidence: .init(failures: [failure], output: output, artifacts: artifacts + [Artifact(kind: .log, path: batch.logPath)])))
        return BatchOutcome(record: record, unstarted: [], noTestStarted: false)
    }

    /// A lone test whose JUnit case did not fail while its run command ended non-zero (or by
    /// a signal): the exit status wins, as a failure (a crash for a signal) naming it.
    private func disagreeingExit(_ end: ChildProcess.Termination, cases: [JUnitReader.Case], of batch: BatchRun, output: String,
                                 artifacts: [Artifact], record: BatchRecord) -> BatchOutcome {
        let item = batch.item
        let id = item.tests[0]
        let said = JUnitMatcher.match(cases, to: item.tests).matched.first?.1.record.attempts.first?.outcome.rawValue ?? "no case for it"
        let failure = FailureMessage(file: nil, line: nil, message: "the run command ended with \(end) though its JUnit file says \(said) "
            + "for this test (run alone): the runner reported a failure the JUnit file does not show; see the log")
        var attempt = Attempt(number: item.attempt, outcome: .failed, duration: batch.clock.now() - batch.start, start: batch.start,
                              placement: .init(shard: batch.shard, batch: item.id),
                              evidence: .init(
                                  failures: [failure],
                                  output: output,
                                  artifacts: artifacts + [Artifact(kind: .log, path: batch.logPath)]))
        if case .signaled = end { attempt.outcome = .crashed }
        batch.report(id, attempt)
        return BatchOutcome(record: record, unstarted: [], noTestStarted: false)
    }

    /// The `<testcase>`s of the batch's JUnit file, or why there are none.
    private static func readCases(_ junit: URL) -> (cases: [JUnitReader.Case], problem: String?) {
        guard RegularFile.kind(ofItemAt: junit.path) != .missing else { return ([], "it wrote no JUnit file to {junit}") }
        do {
            return (try JUnitReader.cases(junit, machine: nil), nil)
        } catch {
            return ([], "its JUnit file could not be read: \(error)")
        }
    }

    /// Reports each case matched to a listed id as that test's attempt; returns the ids answered.
    private func report(_ cases: [JUnitReader.Case], of batch: BatchRun, artifacts: [Artifact]) -> Set<TestID> {
        let item = batch.item
        let (matched, unknown) = JUnitMatcher.match(cases, to: item.tests)
        for c in unknown {
            batch.log.write(Substring("robotci: JUnit case '\(c.classname)' '\(c.name)' matches no listed test of this batch; ignored"))
        }
        var startOfCase = batch.start
        // A test cannot have taken longer than its batch ran: a larger JUnit `time` (a typo,
        // a hostile file) would otherwise go into timings.json and stretch later budgets.
        let wall = max(0, batch.clock.now() - batch.start)
        for (id, c) in matched {
            guard var attempt = c.record.attempts.first else { continue }
            attempt.duration = min(attempt.duration, wall)
            attempt.number = item.attempt
            attempt.shard = batch.shard
            attempt.batch = item.id
            attempt.start = startOfCase
            startOfCase += attempt.duration
            if let text = c.failureText, !text.isEmpty {
                if var first = attempt.failures.first, first.file == nil, let location = tracebackLocation(text) {
                    first.file = location.file
                    first.line = location.line
                    attempt.failures[0] = first
                }
                attempt.output = attempt.output.isEmpty ? text : attempt.output + "\n" + text
            }
            attempt.artifacts = (attempt.outcome == .passed ? [] : artifacts) + [Artifact(kind: .log, path: batch.logPath)]
            batch.report(id, attempt)
        }
        return Set(matched.map(\.0))
    }

    static func budget(for tests: [TestID], history: Timings, testTimeout: Double) -> Double {
        budget(for: tests, history: history, testTimeout: { _ in testTimeout })
    }

    /// Each test's time from history (a test without: its whole timeout), plus, when some test
    /// has history, the longest timeout of the batch as slack.
    static func budget(for tests: [TestID], history: Timings, testTimeout: (TestID) -> Double) -> Double {
        if tests.count == 1 { return testTimeout(tests[0]) }
        var total = 0.0
        var slack = 0.0
        var anyKnown = false
        for t in tests {
            let limit = testTimeout(t)
            slack = max(slack, limit)
            // Each remembered duration counts for at most one test timeout: a test that ran longer
            // was killed, and an inflated timings.json must not keep a hung batch alive.
            if let known = history[t] {
                anyKnown = true
                total += min(known, limit)
            } else {
                total += limit
            }
        }
        return total + (anyKnown ? slack : 0)
    }
}
