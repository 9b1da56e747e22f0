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
        ExitStatus.run {
            let config = try options.resolve(environment: env)
            let (_, tests, _, _) = try Runner(config: config, commandLine: CommandLine.arguments, environment: env).discover()
            print(tests.map(\.rawValue).joined(separator: "\n"))
            return 0
        }
    }
}
