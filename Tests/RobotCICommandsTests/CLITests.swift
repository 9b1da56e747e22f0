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

    /// `--name VALUE` (or `--name`) of every key with a flag parses and reaches that key, once.
    func testEveryKeysFlagReachesItsKey() throws {
        for key in ConfigKey.all {
            let arguments: [String]
            let expected: ConfigLoader.Value
            switch key.flag {
            case .none: continue
            case .toggle:
                arguments = ["--\(key.name)"]
                expected = .scalar("true")
            case .option(_, let repeated):
                arguments = ["--\(key.name)", "value-of-\(key.name)"]
                expected = repeated ? .list(["value-of-\(key.name)"]) : .scalar("value-of-\(key.name)")
            }
            let layer = try RunOptions.parse(arguments).flagLayer
            XCTAssertEqual(Array(layer.keys), [key.name], "\(arguments) sets exactly its key")
            XCTAssertEqual(layer[key.name]?.0, expected, "\(arguments)")
            XCTAssertEqual(layer[key.name]?.1, "--\(key.name)", "\(arguments) is the source errors name")
        }
    }

    /// The flag table has one row per option (but `--config`), each a key with a flag: an
    /// option without a row would be parsed and dropped without a word.
    func testTheFlagTableHasARowPerOptionEachAKeyWithAFlag() throws {
        let rows = try RunOptions.parse([]).flagValues.map(\.key)
        XCTAssertEqual(Set(rows).count, rows.count, "a key has two rows")
        XCTAssertEqual(Set(rows), Set(ConfigKey.all.filter { $0.flag != .none }.map(\.name)))
        // Reflection only here, to count the declared options.
        XCTAssertEqual(Mirror(reflecting: try RunOptions.parse([])).children.count, rows.count + 1, "an option has no row")
    }

    func testNoFlagsGivenIsAnEmptyLayer() throws {
        XCTAssertTrue(try RunOptions.parse([]).flagLayer.isEmpty)
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
            let attempt = Attempt(number: 1, outcome: outcome, duration: 0.1, start: 0, shard: 0, batch: 0)
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
