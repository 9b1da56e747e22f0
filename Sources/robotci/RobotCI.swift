import ArgumentParser
import Foundation
import RobotCIRunner

@main
struct RobotCI: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "robotci",
        abstract: "Runs robot-pattern UI test suites across worker processes and reports on them.",
        version: Runner.version,
        subcommands: [Run.self, List.self, Report.self, Merge.self, Mock.self, Config.self, Init.self]
    )

    /// ArgumentParser exits 64 on a usage error; robotci's contract is 2 for usage,
    /// config and build errors, so CI scripts need to know only one code.
    static func main() async {
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            // Help and --version exit 0 through here; a usage error prints its message and
            // exits with robotci's usage code (ArgumentParser's own would be 64).
            if exitCode(for: error) == .validationFailure {
                FileHandle.standardError.write(Data((fullMessage(for: error) + "\n").utf8))
                Foundation.exit(ExitStatus.usage)
            }
            exit(withError: error)
        }
    }
}
