import Foundation
import RobotCICore
import RobotCIRunner
@testable import RobotCICommands
import XCTest

/// robotci's argument handling and exit codes, in-process (`CLI.run` returns the code; nothing
/// calls `exit`). What needs a build, a browser or a child process stays in the end-to-end tests.
final class CLITests: XCTestCase {
    private func folder(_ label: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("robotci-cli-\(label)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        return url
    }

    /// A valid value for each option, as a person would type it.
    private static let samples: [String: String] = [
        "package": "Examples/App", "shards": "3", "retries": "1", "test-timeout": "12.5", "report-dir": "out/report",
        "history": ".cache/history.json", "adaptive-concurrency": "off", "trace": "always", "isolation": "reset",
        "browsers": "chromium,webkit", "update-snapshots": "missing", "snapshot-tolerance": "0.25", "network-isolation": "auto",
        "filter": "Login", "skip": "Slow", "tag": "smoke", "max-failures": "4", "repeat-each": "5", "partition": "2/4",
        "partition-count": "6", "partition-timings": "timings.json", "reporter": "plain", "base-port": "20000",
        "configuration": "release", "max-batch-size": "7", "queue": "redis://127.0.0.1:6379/run-1", "queue-lease-timeout": "45",
    ]

    /// `--name VALUE` (or `--name`) of every key with a flag parses, reaches that key alone,
    /// typed, and sets in the configuration what the same text in robotci.yml sets.
    func testEveryKeysFlagReachesItsKey() throws {
        for key in ConfigKey.all {
            let arguments: [String]
            let asText: ConfigLoader.Value
            switch key.flag {
            case .none: continue
            case .toggle:
                arguments = ["--\(key.name)"]
                asText = .scalar("true")
            case .option(_, let repeated):
                let sample = try XCTUnwrap(Self.samples[key.name], "no sample value for --\(key.name)")
                arguments = ["--\(key.name)", sample]
                asText = repeated ? .list([sample]) : .scalar(sample)
            }
            let flags = try RunOptions.parse(arguments).flagSettings
            XCTAssertEqual(flags.map(\.key.name), [key.name], "\(arguments) sets exactly its key")
            XCTAssertEqual(flags.first?.source, "--\(key.name)", "\(arguments) is the source errors name")
            var fromFlag = RunConfiguration(shards: 1)
            try ConfigLoader.apply([], flags: flags, to: &fromFlag)
            var fromText = RunConfiguration(shards: 1)
            try ConfigLoader.apply([[key.name: (asText, "robotci.yml")]], to: &fromText)
            XCTAssertEqual(fromFlag, fromText, "\(arguments) sets what '\(key.name)' in robotci.yml sets")
            XCTAssertNotEqual(fromFlag, RunConfiguration(shards: 1), "\(arguments) changes something")
        }
    }

    /// Every option but `--config` is the flag of a key with a flag, and every such key has
    /// one: an option whose name spells no key would be parsed and dropped without a word.
    func testEveryOptionIsAKeysFlag() throws {
        let properties = Mirror(reflecting: try RunOptions.parse([])).children.compactMap(\.label).map(RunOptions.keyName(ofProperty:))
        XCTAssertEqual(Set(properties).subtracting(["config"]), Set(ConfigKey.all.filter { $0.flag != .none }.map(\.name)))
        XCTAssertEqual(properties.count, Set(properties).count)
    }

    func testAFlagsBadValueIsTheKeysOwnError() throws {
        for (arguments, message) in [
            (["--shards", "0"], "'shards' must be an integer ≥ 1, got '0'"),
            (["--trace", "sometimes"], "'trace' must be off, on-failure or always, got 'sometimes'"),
            (["--history", ""], "'history' needs a file path"),
            (["--partition", "3/2"], "partition 3/2 is out of range"),
        ] {
            XCTAssertThrowsError(try RunOptions.parse(arguments), "\(arguments)") { error in
                let text = RunOptions.message(for: error)
                XCTAssertTrue(text.contains(message) && text.contains(arguments[0]), "\(arguments): \(text)")
            }
        }
    }

    /// A usage error prints the bad value as given: never a password in it.
    func testABadValueWithAPasswordIsPrintedMasked() throws {
        XCTAssertThrowsError(try RobotCI.parseAsRoot(["run", "--browsers", "chromium,webdrivr=https://me:grid-key-1@hub.example:4444/wd/hub"])) { error in
            let text = CLI.usageMessage(for: error)
            XCTAssertTrue(text.contains("webdrivr") && text.contains("me:***@hub.example"), text)
            XCTAssertFalse(text.contains("grid-key-1"), text)
        }
        // The queue's own check runs when the value is applied, so its message is robotci's.
        let options = try RunOptions.parse(["--queue", "rediss://:pa/ss@127.0.0.1:6380/q"])
        XCTAssertThrowsError(try RunOptions.configuration(from: [], flags: options.flagSettings)) { error in
            let text = "\(error)"
            XCTAssertTrue(text.hasPrefix("--queue: queue 'rediss://:***@127.0.0.1:6380/q'"), text)
            XCTAssertFalse(text.contains("pa/ss"), text)
        }
    }

    func testNoFlagsGivenIsNoSetting() throws {
        XCTAssertTrue(try RunOptions.parse([]).flagSettings.isEmpty)
    }

    /// What `robotci config` shows for a flag: the value as it was meant, the password masked.
    func testAFlagIsShownAsGiven() throws {
        let flags = try RunOptions.parse(["--test-timeout", "300", "--queue", "redis://u:pw@127.0.0.1:6379/q", "--trace", "off",
                                          "--filter", "A", "--filter", "B", "--package", "Examples/App"]).flagSettings
        let shown = Dictionary(uniqueKeysWithValues: flags.map { ($0.key.name, $0.shown) })
        XCTAssertEqual(shown["test-timeout"], .scalar("300"))
        XCTAssertEqual(shown["queue"], .scalar("redis://u:***@127.0.0.1:6379/q"))
        XCTAssertEqual(shown["trace"], .scalar("off"))
        XCTAssertEqual(shown["filter"], .list(["A", "B"]))
        XCTAssertEqual(shown["package"], .scalar("Examples/App"))
    }

    func testUsageErrorsAreTwoNotArgumentParsersSixtyFour() async {
        let unknownFlag = await CLI.run(["run", "--no-such-flag"])
        XCTAssertEqual(unknownFlag, 2)
        let unknownCommand = await CLI.run(["frobnicate"])
        XCTAssertEqual(unknownCommand, 2)
        let mergeWithoutOutput = await CLI.run(["merge", "a", "b"])
        XCTAssertEqual(mergeWithoutOutput, 2)
        let reportWithBoth = await CLI.run(["report", "--results", "r.json", "--queue", "redis://127.0.0.1:1/q"])
        XCTAssertEqual(reportWithBoth, 2, "report takes --results or --queue, not both")
        let badPort = await CLI.run(["mock", "--port", "70000"])
        XCTAssertEqual(badPort, 2)
    }

    func testHelpAndVersionReturnZero() async {
        let help = await CLI.run(["--help"])
        XCTAssertEqual(help, 0)
        let version = await CLI.run(["--version"])
        XCTAssertEqual(version, 0)
        let keys = await CLI.run(["config", "--keys"])
        XCTAssertEqual(keys, 0)
    }

    func testABadValueIsTwoBeforeAnythingRuns() async throws {
        let package = try folder("bad-value")
        for args in [["--shards", "zero"], ["--retries", "-1"], ["--trace", "sometimes"], ["--partition", "3/2"]] {
            let status = await CLI.run(["run", "--package", package.path, "--skip-build"] + args)
            XCTAssertEqual(status, 2, "\(args)")
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: package.path), [], "nothing was written")
    }

    func testReportOfAMissingOrForeignFileIsTwo() async throws {
        let dir = try folder("report")
        let missing = await CLI.run(["report", "--results", dir.appendingPathComponent("nope.json").path, "--output", dir.path])
        XCTAssertEqual(missing, 2)
        let foreign = dir.appendingPathComponent("results.json")
        try Data(#"{"hello": "world"}"#.utf8).write(to: foreign)
        let status = await CLI.run(["report", "--results", foreign.path, "--output", dir.appendingPathComponent("out").path])
        XCTAssertEqual(status, 2)
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.appendingPathComponent("out/index.html").path))
    }

    /// A results.json with a failing test: the report is written and the verdict is 1; with
    /// only passes, 0 (the exit code is the run's verdict, returned, not exited).
    func testReportReturnsTheRunsVerdict() async throws {
        let dir = try folder("verdict")
        func results(_ outcome: AttemptOutcome) throws -> URL {
            let attempt = Attempt(number: 1, outcome: outcome, duration: 0.1, start: 0, placement: .init(shard: 0, batch: 0))
            let metadata = RunMetadata(runID: "r", startedAt: 0, wallTime: 1, shards: 1, retries: 0, robotciVersion: "t")
            let run = RunResult(metadata: metadata, tests: [TestRecord(id: TestID("M.C/testA"), attempts: [attempt])], batches: [],
                                plan: RunPlan(tests: [TestID("M.C/testA")]))
            let url = dir.appendingPathComponent("\(outcome.rawValue).json")
            try JSONEncoder().encode(run).write(to: url)
            return url
        }
        let failed = await CLI.run(["report", "--results", try results(.failed).path, "--output", dir.appendingPathComponent("f").path])
        XCTAssertEqual(failed, 1)
        XCTAssertTrue(FileManager.default.fileExists(atPath: dir.appendingPathComponent("f/index.html").path))
        let passed = await CLI.run(["report", "--results", try results(.passed).path, "--output", dir.appendingPathComponent("p").path])
        XCTAssertEqual(passed, 0)
    }

    func testInitWritesAFreshFolderAndIsIdempotent() async throws {
        let dir = try folder("init")
        let first = await CLI.run(["init", "--directory", dir.path])
        XCTAssertEqual(first, 0)
        XCTAssertTrue(FileManager.default.fileExists(atPath: dir.appendingPathComponent("robotci.yml").path))
        let before = try FileManager.default.subpathsOfDirectory(atPath: dir.path).sorted()
        let again = await CLI.run(["init", "--directory", dir.path])
        XCTAssertEqual(again, 0)
        XCTAssertEqual(try FileManager.default.subpathsOfDirectory(atPath: dir.path).sorted(), before)
        let badURL = await CLI.run(["init", "--directory", try folder("init-bad").path, "--app-url", "javascript:alert(1)"])
        XCTAssertEqual(badURL, 2)
    }
}
