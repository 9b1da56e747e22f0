import ArgumentParser
import Foundation
import RobotCICore
import RobotCIReport
import RobotCIRunner

/// `robotci report`: re-renders a report folder from `results.json` or a `results.jsonl`
/// journal without running anything (e.g. after the coordinator was killed).
struct Report: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Render index.html from a results.json or results.jsonl, without running tests.",
        discussion: """
            Artifacts (screenshots, robot steps, mock requests) are read relative to --output, \
            so point it at the report folder that holds attachments/. Given a journal, \
            results.json, junit.xml and timings.json are written too. Exit codes: 0 written, 2 bad input (nothing written).
            """
    )

    @Option(name: .long, help: "The run's results.json or results.jsonl journal.")
    var results: String

    @Option(name: .long, help: "Report folder to write index.html into (created if missing).")
    var output: String

    func run() async throws {
        ExitStatus.run("robotci report") { try render() }
    }

    private func render() throws -> Int32 {
        let input = URL(fileURLWithPath: results)
        let loaded = try ReportReader.load(input)
        for warning in loaded.warnings { Self.printError("warning: \(warning)") }

        let directory = URL(fileURLWithPath: output, isDirectory: true)
        do {
            let start = Date()
            if loaded.fromJournal {
                // Rebuilding after a killed run: every file the run would have written
                // (results.json, junit.xml, timings.json, index.html), each atomically.
                let previous = ReportReader.timings(in: directory) ?? Timings()
                try ReportWriter.write(loaded.result, timings: previous.updated(with: loaded.result.tests), to: directory)
            } else {
                try HTMLReport.write(loaded.result, to: directory)
            }
            let counts = loaded.result.counts
            let elapsed = Date().timeIntervalSince(start)
            print("wrote \(directory.appendingPathComponent("index.html").path) "
                  + "(\(counts.total) tests, \(counts.failing) failing, \(counts.flaky) flaky; "
                  + String(format: "%.2f s)", elapsed))
        } catch {
            throw RunnerError.report("cannot write the report into \(directory.path): \((error as NSError).localizedDescription)")
        }
        return 0
    }

    private static func printError(_ message: String) {
        FileHandle.standardError.write(Data("robotci report: \(message)\n".utf8))
    }
}
