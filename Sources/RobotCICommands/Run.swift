import ArgumentParser
import Foundation
import RobotCIRunner

struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Build, shard and run an XCTest suite; write JUnit, results.json and an HTML report.",
        discussion: """
            Exit codes: 0 nothing failed (flaky allowed unless --fail-on-flaky), 1 a test failed, \
            crashed or timed out, 2 usage, config or build error, 130 interrupted.
            """
    )

    @OptionGroup var options: RunOptions

    func run() throws {
        let env = ProcessInfo.processInfo.environment
        try ExitStatus.run {
            let config = try options.resolve(environment: env)
            return try Runner(config: config, commandLine: CommandLine.arguments, environment: env).run()
        }
    }
}
