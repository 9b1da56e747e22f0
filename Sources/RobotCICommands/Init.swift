import ArgumentParser
import Foundation
import RobotCIInit
import RobotCIRunner

/// `robotci init`: a team's first robot suite, config and CI workflow in one step.
struct Init: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write a UI test target (robots, a scenario, two tests), robotci.yml and a GitHub Actions workflow into a package folder.",
        discussion: """
            Without --app-url it also writes sample-app/index.html, a page that calls the mock server, \
            so `robotci run` right after init is green. An existing Package.swift gains the test target \
            when robotci init can edit it safely; otherwise the lines to add are printed. Existing files \
            are never overwritten: running init again changes nothing and names what it left alone.
            Exit codes: 0 done (also when every file was already there), 2 a bad option or a file that cannot be written.
            """
    )

    @Option(help: "The page the tests open (http://, https:// or file://). Default: a sample page written beside the tests.")
    var appURL: String?

    @Option(name: .customLong("robotci"), help: ArgumentHelp(
        "Where the package finds robotci: a local checkout (PATH, written as .package(path:)) or a git URL (.package(url:from:)).",
        discussion: "Default: \(RobotCIDependency.publishedURL) from \(Runner.version).", valueName: "PATH|URL"))
    var robotci: String?

    @Option(help: "The package folder to write into (default: the current folder).")
    var directory: String?

    func run() throws {
        try ExitStatus.run("robotci init") { try initialize() }
    }

    private func initialize() throws -> Int32 {
        let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
        let folder = directory.map { URL(fileURLWithPath: $0, relativeTo: cwd) }?.standardizedFileURL ?? cwd.standardizedFileURL
        let dependency = try RobotCIDependency.parse(robotci, version: Runner.version, packageDirectory: folder, currentDirectory: cwd)
        let report = try ProjectInitializer(options: .init(
            directory: folder, appURL: appURL, dependency: dependency, robotciVersion: Runner.version)).run()

        print("robotci init: \(folder.path)")
        for path in report.written { print("  wrote       \(path)") }
        if report.editedManifest { print("  added       \(report.target) and its robotci dependency to Package.swift") }
        for path in report.leftAlone { print("  left alone  \(path) (already there)") }
        if let reason = report.manualReason {
            print("""

                Package.swift was not changed: \(reason).
                Add these lines to it:

                \(report.manualLines)
                """)
        }
        if report.written.isEmpty && !report.editedManifest {
            print("Nothing to do: every file robotci init writes is already there.")
        }
        let runHint = directory == nil ? "robotci run" : "robotci run --package \(directory ?? ".")"
        print("""

            Next: \(runHint)   (builds the package, runs \(report.target)'s robot tests in headless Chromium,
                  writes robotci-report/index.html); needs chromium and chromium-driver (see robotci's docs/install.md).
            """)
        return 0
    }
}
