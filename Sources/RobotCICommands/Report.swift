import ArgumentParser
import Foundation
import RobotCICore
import RobotCIQueue
import RobotCIReport
import RobotCIRunner
import StandardStreams

/// `robotci report`: re-renders a report folder from `results.json` or a `results.jsonl`
/// journal without running anything (e.g. after the coordinator was killed).
struct Report: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Render index.html from a results.json or results.jsonl, or the one report of a --queue run, without running tests.",
        discussion: """
            Artifacts (screenshots, robot steps, mock requests) are read relative to --output, \
            so point it at the report folder that holds attachments/. Given a journal, \
            results.json, junit.xml and timings.json are written too. With --queue redis://HOST:PORT/NAME, \
            the merged report of every machine of that queue run (each test once, one lane group per \
            machine; attachments stay in each machine's own report). \
            Exit codes, the run's verdict as `robotci run` and `robotci merge` give it (the report is \
            written in each case): 0 nothing failed; 1 a test failed, crashed, timed out or has no \
            result; 2 the run is incomplete (a journal of a run that never finished or was interrupted, \
            a queue run not finished or lost), or bad input (nothing written).
            """
    )

    @Option(name: .long, help: "The run's results.json or results.jsonl journal.")
    var results: String?

    @Option(name: .long, help: "A queue run, redis://HOST:PORT/NAME: write the merged report of all its machines.",
            transform: ConfigKey.queue.fromFlag)
    var queue: QueueURL?

    @Option(name: .long, help: "Report folder to write index.html into (created if missing).")
    var output: String

    func validate() throws {
        guard (results == nil) != (queue == nil) else {
            throw ValidationError("give either --results FILE (one run's results.json / results.jsonl) or --queue redis://HOST:PORT/NAME (a queue run)")
        }
    }

    func run() async throws {
        try ExitStatus.run("robotci report") { try render() }
    }

    private func render() throws -> Int32 {
        if let queue { return try writeQueueReport(queue.text) }
        let input = URL(fileURLWithPath: results ?? "")
        let loaded = try ReportReader.load(input)
        for warning in loaded.warnings { Self.printError("warning: \(warning)") }

        let directory = URL(fileURLWithPath: output, isDirectory: true)
        do {
            let start = Date()
            if loaded.fromJournal {
                // Rebuilding after a killed run: every file the run would have written
                // (results.json, junit.xml, timings.json, index.html), each atomically.
                // history.json gains the run too, as the run itself would have written it.
                try Self.writeEveryFile(of: loaded.result, to: directory)
            } else {
                // Show the folder's history, if it has one; the file itself is left as it is.
                let historyURL = directory.appendingPathComponent("history.json")
                let history = FileManager.default.fileExists(atPath: historyURL.path)
                    ? RunHistory.load(from: historyURL, moveAside: false) : (history: RunHistory(), warning: nil)
                if let w = history.warning { Self.printError("warning: \(w)") }
                try HTMLReport.write(loaded.result, history: history.warning == nil && !history.history.runs.isEmpty ? history.history : nil, to: directory)
            }
            let counts = loaded.result.counts
            let elapsed = Date().timeIntervalSince(start)
            print("wrote \(directory.appendingPathComponent("index.html").path) "
                  + "(\(counts.total) tests, \(counts.failing) failing, \(counts.flaky) flaky; "
                  + String(format: "%.2f s)", elapsed))
            print("robotci: \(loaded.result.accounting)")
        } catch {
            throw RunnerError.report("cannot write the report into \(directory.path): \((error as NSError).localizedDescription)")
        }
        return Self.verdict(loaded.result, incomplete: loaded.result.metadata.interrupted)
    }

    /// The exit code a pipeline gates on: 2 when the run is incomplete, 1 when a test's
    /// verdict fails the build (`notRun` included), else 0.
    static func verdict(_ result: RunResult, incomplete: Bool) -> Int32 {
        if incomplete { return 2 }
        return result.counts.failing > 0 ? 1 : 0
    }

    /// Every file a run writes (results.json, junit.xml, index.html), with the folder's
    /// timings.json and history.json gaining this run, as the run itself would have done.
    /// A corrupt history.json is set aside with a warning.
    private static func writeEveryFile(of result: RunResult, to directory: URL) throws {
        let previous = ReportReader.timings(in: directory) ?? Timings()
        let (history, warning) = RunHistory.load(from: directory.appendingPathComponent("history.json"))
        if let warning { printError("warning: \(warning)") }
        // As the run would have: a failure of a test that passed at this commit before says so.
        let result = RunFlakiness(before: history.ledger ?? FlakeLedger()).annotated(result)
        try ReportWriter.write(result, timings: previous.updated(with: result.tests), history: history.recording(result), to: directory)
    }

    /// `--queue`: every machine's results from Redis → one report (JUnit, results.json,
    /// timings.json, index.html).
    private func writeQueueReport(_ url: String) throws -> Int32 {
        let directory = URL(fileURLWithPath: output, isDirectory: true)
        let address = try QueueAddress(parsing: url, environment: ProcessInfo.processInfo.environment)
        let redis = try RedisQueue(address: address, machine: "report")
        let snapshot = try redis.snapshot()
        let result = snapshot.result(runName: address.name, commandLine: CommandLine.arguments)
        do {
            try Self.writeEveryFile(of: result, to: directory)
        } catch {
            throw RunnerError.report("cannot write the report into \(directory.path): \((error as? FileWriteError)?.description ?? FileWriteError.reason(error))")
        }
        let c = result.counts
        let machines = result.metadata.machines ?? []
        let state = snapshot.lost ? "lost mid-run; what the machines that came back had"
            : snapshot.finishedAt == nil ? "not finished" : "finished"
        print("wrote \(directory.path)/ from \(address) (run \(snapshot.nonce), \(state)): \(c.total) tests on \(machines.count) machines, "
              + "\(c.failing) failing, \(c.flaky) flaky, \(c.notRun) not run"
              + (result.metadata.interrupted ? " (incomplete: a machine was interrupted or tests have no result)" : ""))
        // The accounting line and what never ran: the queue's results checked against its plan.
        print("robotci report: \(result.accounting)")
        let notRun = result.tests.filter { $0.outcome == .notRun }
        if !notRun.isEmpty {
            print("robotci report: \(notRun.count) of \(result.tests.count) planned tests never ran:")
            for line in Summary.notRunListing(notRun) { print(line) }
        }
        if let refused = result.refused, !refused.isEmpty {
            Self.printError("warning: the queue holds results for \(refused.count) test\(refused.count == 1 ? "" : "s") outside its plan, refused: "
                            + refused.prefix(20).map(\.description).joined(separator: ", "))
        }
        let code = Self.verdict(result, incomplete: snapshot.lost || snapshot.finishedAt == nil)
        print("robotci report: verdict (the whole run): " + (code == 0 ? "PASSED" : code == 1 ? "FAILED" : "INCOMPLETE") + " (exit \(code))")
        return code
    }

    private static func printError(_ message: String) {
        StandardStream.error.write("robotci report: \(message)\n")
    }
}
