import ArgumentParser
import Foundation
import RobotCICore
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
            let message = usageMessage(for: error)
            if code == .success {
                print(message)
                return 0
            }
            if !message.isEmpty { StandardStream.error.write(message + "\n") }
            return code == .validationFailure ? ExitStatus.usage : code.rawValue
        }
    }

    /// ArgumentParser's message for `error`, the password of any URL in it masked: a bad
    /// value is printed as given (`The value '…' is invalid for '--browsers <list>'`), and a
    /// grid's URL may carry its key.
    static func usageMessage(for error: Error) -> String {
        URLCredentials.masked(RobotCI.fullMessage(for: error))
    }
}
