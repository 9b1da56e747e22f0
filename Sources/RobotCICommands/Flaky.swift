import ArgumentParser
import Foundation
import RobotCICore
import RobotCIRunner
import StandardStreams

/// `robotci flaky`: the flake ledger of the report folder's history, most flaky first.
struct Flaky: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show the flake ledger (history.json): per test its runs, flaky runs, flaky commits, last flake and quarantine.",
        discussion: """
            Reads the history robotci run would (--report-dir's history.json, or --history), and the \
            quarantine of robotci.yml. A test is flaky in a run when it was flaky within it or when \
            an earlier run at the same commit gave it another verdict. --json prints every test: \
            {"tests": [{"id", "runs", "flakyRuns", "flakyCommits", "lastFlaky", "quarantine"}]}. \
            Exit codes: 0 printed; 2 no history, an unreadable history or ledger, or a bad config.
            """
    )

    @Flag(help: "Print JSON: {\"tests\": [{\"id\", \"runs\", \"flakyRuns\", \"flakyCommits\", \"lastFlaky\", \"quarantine\"}]}, most flaky first.")
    var json = false

    @OptionGroup var options: RunOptions

    func run() throws {
        try ExitStatus.run("robotci flaky") {
            let config = try options.resolve()
            let historyURL = URL(fileURLWithPath: config.history ?? (config.reportDir as NSString).appendingPathComponent("history.json"))
            let listing = try FlakyListing(historyURL: historyURL, config: config)
            if json {
                StandardStream.output.write(String(decoding: try listing.json(), as: UTF8.self) + "\n")
            } else {
                StandardStream.output.write(listing.table + "\n")
            }
            return 0
        }
    }
}
