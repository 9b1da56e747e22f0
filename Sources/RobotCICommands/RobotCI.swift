import ArgumentParser
import Foundation
import RobotCIRunner
import StandardStreams

/// The root command: `robotci <subcommand>`.
struct RobotCI: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "robotci",
        abstract: "Runs robot-pattern UI test suites across worker processes and reports on them.",
        version: Runner.version,
        subcommands: [Run.self, List.self, Report.self, Merge.self, Flaky.self, Mock.self, Config.self, Init.self]
    )
}

/// robotci's command line as a function: the `robotci` executable is `exit(await CLI.run(…))`,
/// and tests drive argument handling in-process with the same call.
public enum CLI {
    /// Runs robotci with `arguments` (without the program name) and returns its exit code.
    /// ArgumentParser's usage errors are robotci's 2, not ArgumentParser's 64: CI scripts need
    /// to know only one code. Help and --version print to stdout and return 0.
    public static func run(_ arguments: [String]) async -> Int32 {
        do {
            var command = try RobotCI.parseAsRoot(arguments)
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
            return 0
        } catch let code as ExitCode {
            return code.rawValue
        } catch {
            let code = RobotCI.exitCode(for: error)
            let message = RobotCI.fullMessage(for: error)
            if code == .success {
                print(message)
                return 0
            }
            if !message.isEmpty { StandardStream.error.write(message + "\n") }
            return code == .validationFailure ? ExitStatus.usage : code.rawValue
        }
    }
}
