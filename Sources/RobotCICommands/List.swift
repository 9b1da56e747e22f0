import ArgumentParser
import Foundation
import RobotCIRunner

struct List: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print the discovered tests (after --filter, --skip and --partition), one per line."
    )

    @OptionGroup var options: RunOptions

    func run() throws {
        let env = ProcessInfo.processInfo.environment
        try ExitStatus.run {
            let config = try options.resolve(environment: env)
            let runner = Runner(config: config, commandLine: CommandLine.arguments, environment: env)
            let (_, tests, _, _) = try runner.discover()
            print(runner.redactor.redact(tests.map(\.description).joined(separator: "\n")))
            return 0
        }
    }
}
