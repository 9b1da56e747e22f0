import ArgumentParser
import Foundation
import RobotCICore
import RobotCIReport
import RobotCIRunner
import StandardStreams

struct Merge: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Merge report folders from several machines (or JUnit files from other tools) into one report.",
        discussion: """
            Each input is a robotci report folder (results.json), a results.json, a results.jsonl \
            journal (a run cut short), or a JUnit XML file. Attachment paths that lead outside \
            their report folder are refused. \
            Writes junit.xml, results.json, timings.json, history.json (the inputs' histories merged; \
            partitions with one run id fold into one run), index.html and attachments/ into --output. \
            Partitions are checked against the plan they recorded: every test of the suite must have \
            run on exactly one of them. \
            Exit 2, nothing written: a corrupt or foreign input, or inputs that cannot be one run \
            (different run ids, e.g. a folder left from an earlier run; different suites, splits or N; \
            a partition given twice; a test in two partitions' shares). \
            Exit 1, report written: a test failed or was not run (a partition missing, a test in no \
            partition's share, an interrupted input). Exit 0 otherwise. Ends with the accounting line, \
            e.g. "40 planned, 40 accounted for".
            """
    )

    @Argument(help: "Report folders or JUnit files.")
    var inputs: [String]

    @Option(help: "Folder for the merged report.")
    var output: String

    @Option(help: "CI output: github, plain or auto.", transform: ConfigKey.reporter.fromFlag)
    var reporter: CIReporter?

    func run() throws {
        let env = ProcessInfo.processInfo.environment
        try ExitStatus.run {
            func say(_ line: String) { StandardStream.error.write("robotci: \(line)\n") }
            let merged = try ReportMerger.run(inputs: inputs, output: URL(fileURLWithPath: output)) { say("warning: \($0)") }
            let result = merged.result
            for note in merged.notes { say("merge: \(note)") }
            let c = result.counts
            say("merged \(inputs.count) inputs: \(c.total) tests, \(c.passed) passed, \(c.failing) failing, \(c.flaky) flaky, \(c.skipped) skipped → \(output)/")
            if GitHubReporter.isWanted(reporter: reporter, environment: env) { GitHubReporter.report(result, environment: env) }
            let notRun = result.tests.filter { $0.outcome == .notRun }
            if !notRun.isEmpty {
                // Name them: "the run is incomplete" is only actionable with the tests and why.
                var text = "error: \(notRun.count) planned test\(notRun.count == 1 ? "" : "s") did not run:"
                for t in notRun.prefix(20) { text += "\n  \(t.id.description): \(t.reason ?? "no result")" }
                if notRun.count > 20 { text += "\n  … and \(notRun.count - 20) more (all in \(output)/results.json)" }
                say(text)
            }
            say(result.accounting.description)
            return c.failing > 0 ? 1 : 0
        }
    }
}
