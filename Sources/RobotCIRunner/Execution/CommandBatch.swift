import Foundation
import RobotCICore
import RobotCIReport

/// `driver: command` batches: the runner prints what it likes and writes JUnit at the end,
/// so results are read from `{junit}` once the process is gone, not from its output.
extension BatchExecutor {
    func runCommand(_ driver: CommandDriver, _ item: WorkItem, worker: Int, ports: PortAllocator.SlotPorts,
                    environment: [String: String], artifactsDir: URL, logPath: String, log: BatchLog,
                    batchStart: Double) -> BatchOutcome {
        let junit = layout.workDirectory.appendingPathComponent("batch-\(item.id).junit.xml")
        try? FileManager.default.removeItem(at: junit)
        defer { try? FileManager.default.removeItem(at: junit) }
        var env = environment
        env["ROBOTCI_JUNIT_PATH"] = junit.path
        let (executable, arguments) = driver.command(for: item.tests, junit: junit.path)
        log.write(Substring("robotci: \(arguments.last ?? "")"))

        func record(_ termination: String) -> BatchRecord {
            BatchRecord(id: item.id, worker: worker, start: batchStart, end: clock.now(), tests: item.tests,
                        termination: termination, mockPort: ports.mock, webDriverPort: ports.webDriver)
        }
        let child: ChildProcess
        do {
            child = try ChildProcess(executable: executable, arguments: arguments, environment: env, workingDirectory: driver.directory)
        } catch {
            log.write(Substring("robotci: \(error)"))
            log.close()
            return BatchOutcome(record: record("spawn failed"), unstarted: item.tests, noTestStarted: true)
        }

        // No per-test progress to watch. The batch may take every test's time from the last
        // runs (a test without history: a whole test timeout) plus one test timeout of slack.
        // A batch that overruns is killed and its tests run again alone, where the per-test
        // timeout then names the one that hangs.
        let budget = Self.budget(for: item.tests, history: history, testTimeout: testTimeout)
        var output = OutputBuffer()
        let (end, timedOut) = pump(child, deadline: { batchStart + budget }, handle: { line in
            log.write(line)
            output.append(line)
        })
        ChildRegistry.shared.reapStrays()
        defer { log.close() }
        let interrupted = RunInterruption.shared.isInterrupted
        let termination = interrupted ? "killed (interrupted)" : timedOut ? "killed (batch timeout \(Int(budget)) s)" : end.description
        if interrupted { return BatchOutcome(record: record(termination), unstarted: [], noTestStarted: false) }

        // Results, matched to the listed ids.
        var cases: [JUnitReader.Case] = []
        var junitProblem: String?
        if FileManager.default.fileExists(atPath: junit.path) {
            do { cases = try JUnitReader.cases(Data(contentsOf: junit), name: junit.lastPathComponent, machine: nil) } catch {
                junitProblem = "its JUnit file could not be read: \(error)"
            }
        } else {
            junitProblem = "it wrote no JUnit file to {junit}"
        }
        let (matched, unknown) = JUnitMatcher.match(cases, to: item.tests)
        for c in unknown {
            log.write(Substring("robotci: JUnit case '\(c.classname)' '\(c.name)' matches no listed test of this batch; ignored"))
        }
        let artifacts = collectBatchArtifacts(from: artifactsDir, item: item, single: item.tests.count == 1)
        var startOfCase = batchStart
        for (id, c) in matched {
            guard var attempt = c.record.attempts.first else { continue }
            attempt.number = item.attempt
            attempt.worker = worker
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
            attempt.artifacts = (attempt.outcome == .passed ? [] : artifacts) + [Artifact(kind: "log", path: logPath)]
            recorder.record(id, attempt)
        }

        // Tests the batch gave no result for.
        let answered = Set(matched.map(\.0))
        let missing = item.tests.filter { !answered.contains($0) }
        guard !missing.isEmpty else { return BatchOutcome(record: record(termination), unstarted: [], noTestStarted: false) }
        if item.tests.count > 1 {
            // Which of them crashed or hung is not known: run each alone.
            return BatchOutcome(record: record(termination), unstarted: [], noTestStarted: false, isolate: missing)
        }
        let id = missing[0]
        let why = timedOut
            ? "timed out: still running after \(Int(testTimeout)) s (--test-timeout); its process group was killed"
            : "crashed: the run command ended (\(end)) without a result for this test: \(junitProblem ?? "its JUnit file has no <testcase> matching this id (check that 'run' passes {tests} to the runner and writes {junit})")"
        let crash = CrashSummary(output: output.text)
        let failure = FailureMessage(file: crash.file, line: crash.line, message: crash.reason.map { "\(why) — \($0)" } ?? why)
        recorder.record(id, Attempt(number: item.attempt, outcome: timedOut ? .timedOut : .crashed, duration: clock.now() - batchStart,
                                    start: batchStart, worker: worker, batch: item.id, failures: [failure], output: output.text,
                                    artifacts: artifacts + [Artifact(kind: "log", path: logPath)]))
        return BatchOutcome(record: record(termination), unstarted: [], noTestStarted: false)
    }

    static func budget(for tests: [TestID], history: Timings, testTimeout: Double) -> Double {
        if tests.count == 1 { return testTimeout }
        let known = tests.compactMap { history[$0] }
        let unknown = tests.count - known.count
        return min(Double(tests.count), Double(unknown) + 1) * testTimeout + known.reduce(0, +)
    }

    /// Files the batch left in `ROBOTCI_ARTIFACTS_DIR`: a lone test's own; a batch's shared ones
    /// go under `attachments/batches/batch-N/` and are linked from its failing tests.
    private func collectBatchArtifacts(from dir: URL, item: WorkItem, single: Bool) -> [Artifact] {
        moveArtifacts(from: dir, into: single ? layout.attemptDirectory(item.tests[0], attempt: item.attempt) : "attachments/batches/batch-\(item.id)")
    }
}
