import ArgumentParser

@main
struct RobotCI: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "robotci",
        abstract: "Runs robot-pattern UI test suites across worker processes and reports on them.",
        version: "0.1.0",
        subcommands: [Run.self, List.self, Report.self, Merge.self, Mock.self]
    )
}
