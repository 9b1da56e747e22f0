import ArgumentParser
import Foundation
import RobotCICore
import RobotCIReport

struct Merge: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Merge report folders from several machines (or JUnit files from other tools) into one report.",
        discussion: """
            Each input is a robotci report folder (results.json), a results.json, a results.jsonl \
            journal (a run cut short), or a JUnit XML file. Attachment paths that lead outside \
            their report folder are refused. \
            Writes junit.xml, results.json, timings.json (for the next run's --partition split), \
            history.json (the inputs' histories merged; partitions with one run id fold into one run), \
            index.html and attachments/ into --output. A corrupt or foreign input is rejected with \
            its path and reason, exit 2, and nothing is written. Exit 1 when a merged test failed.
            """
    )

    @Argument(help: "Report folders or JUnit files.")
    var inputs: [String]

    @Option(help: "Folder for the merged report.")
    var output: String

    @Option(help: "CI output: github, plain or auto.")
    var reporter: String?

    func run() throws {
        let env = ProcessInfo.processInfo.environment
        ExitStatus.run {
            let result = try ReportMerger.run(inputs: inputs, output: URL(fileURLWithPath: output)) { warning in
                FileHandle.standardError.write(Data("robotci: warning: \(warning)\n".utf8))
            }
            let c = result.counts
            FileHandle.standardError.write(Data("robotci: merged \(inputs.count) inputs: \(c.total) tests, \(c.passed) passed, \(c.failing) failing, \(c.flaky) flaky, \(c.skipped) skipped → \(output)/\n".utf8))
            if GitHubReporter.isWanted(reporter: reporter, environment: env) { GitHubReporter.report(result, environment: env) }
            return c.failing > 0 ? 1 : 0
        }
    }
}
