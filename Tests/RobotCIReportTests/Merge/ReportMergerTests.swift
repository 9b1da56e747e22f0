import Foundation
import RobotCICore
@testable import RobotCIReport
import XCTest

/// `robotci merge` past its checks (PartitionMergeTests): one run from many machines' results
/// (a test several machines ran, lanes, batches and times on one clock, attachments re-rooted,
/// metadata, histories), and `ReportMerger.run` on folders, which writes nothing when it refuses.
final class ReportMergerTests: XCTestCase {
    private let a = TestID("M.C/testA"), b = TestID("M.C/testB"), c = TestID("M.C/testC")
    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("robotci-merge-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    private func attempt(_ outcome: AttemptOutcome, start: Double = 1, batch: Int = 0, artifacts: [Artifact] = []) -> Attempt {
        Attempt(number: 1, outcome: outcome, duration: 0.5, start: start, placement: .init(shard: 0, batch: batch),
                evidence: .init(failures: outcome.isFailure ? [FailureMessage(message: "boom")] : [], artifacts: artifacts))
    }

    /// One machine's run: `results` per test (a planned test without one is not run, "its batch died").
    private func run(_ runID: String, startedAt: Double = 1_700_000_000, wall: Double = 10, shards: Int = 2, host: String,
                     plan: [TestID], results: [(TestID, Attempt)], batches: [Int] = [0], partition: String? = nil,
                     interrupted: Bool = false) -> RunResult {
        var assembly = RunAssembly(plan: RunPlan(tests: plan))
        for (test, attempt) in results { assembly.add(test, quarantined: false, attempt: attempt) }
        for id in batches { assembly.add(BatchRecord(id: id, shard: 0, start: 1, end: 2, tests: [], termination: .exited(0))) }
        var meta = RunMetadata(runID: runID, startedAt: startedAt, wallTime: wall, shards: shards, retries: 1, robotciVersion: "t")
        meta.gitCommit = "abc"
        meta.hostname = host
        meta.partition = partition
        meta.interrupted = interrupted
        return assembly.result(metadata: meta) { _ in "its batch died" }
    }

    private func input(_ result: RunResult, machine: String, folder: URL? = nil) -> MergeInput {
        MergeInput(path: (folder ?? URL(fileURLWithPath: "/reports/\(machine)")).appendingPathComponent("results.json"), machine: machine,
                   result: result, reportDirectory: folder, timings: nil)
    }

    private func merge(_ inputs: [MergeInput]) throws -> (result: RunResult, copies: [(from: URL, to: String)]) {
        let merged = ReportMerger.mergeRuns(inputs, check: try MergeCheck.check(inputs))
        return (merged.result, merged.copies)
    }

    // MARK: in memory

    func testATestTwoMachinesRanIsOneTestWithEveryAttemptInOrder() throws {
        let one = run("r1", host: "ci-1", plan: [a, b], results: [(a, attempt(.passed)), (b, attempt(.failed, start: 2, batch: 1))],
                      batches: [0, 1])
        let two = run("r2", startedAt: 1_700_000_010, host: "ci-2", plan: [b, c],
                      results: [(b, attempt(.passed, start: 3)), (c, attempt(.passed, start: 4))])
        let (result, _) = try merge([input(one, machine: "ci-1"), input(two, machine: "ci-2")])

        XCTAssertEqual(result.plan?.tests, [a, b, c], "the inputs' plans together")
        XCTAssertEqual(result.tests.map(\.id), [a, b, c], "b once")
        let merged = try XCTUnwrap(result.tests.first { $0.id == b })
        XCTAssertEqual(merged.outcome, .flaky, "failed on ci-1, passed on ci-2")
        XCTAssertEqual(merged.attempts.map(\.number), [1, 2], "numbered again in order")
        XCTAssertEqual(merged.attempts.map(\.machine), ["ci-1", "ci-2"])
        XCTAssertEqual(merged.attempts.map(\.start), [2, 13], "ci-2 started 10 s later: its times move onto ci-1's clock")
        XCTAssertEqual(merged.attempts.map(\.batch), [1, 2], "ci-2's batch 0 comes after ci-1's batches 0 and 1")
        XCTAssertEqual(result.batches.map(\.id), [0, 1, 2])
        XCTAssertEqual(result.batches.map(\.machine), ["ci-1", "ci-1", "ci-2"])
        XCTAssertEqual(result.batches.map(\.start), [1, 1, 11])
        XCTAssertEqual(result.accounting.description, "3 planned, 3 accounted for")
    }

    func testTheMergedMetadataSpansEveryMachine() throws {
        let one = run("ci-7", wall: 10, shards: 2, host: "ci-1", plan: [a], results: [(a, attempt(.passed))])
        let two = run("ci-8", startedAt: 1_700_000_005, wall: 20, shards: 4, host: "ci-2", plan: [b], results: [(b, attempt(.passed))],
                      interrupted: true)
        let (result, _) = try merge([input(one, machine: "ci-1"), input(two, machine: "ci-2")])
        let m = result.metadata
        XCTAssertEqual(m.runID, "ci-7+ci-8")
        XCTAssertEqual(m.startedAt, 1_700_000_000, "the earliest start")
        XCTAssertEqual(m.wallTime, 25, "until the last machine ended: 5 s later + 20 s")
        XCTAssertEqual(m.shards, 6)
        XCTAssertEqual(m.machines, ["ci-1", "ci-2"])
        XCTAssertNil(m.hostname, "many hosts: none")
        XCTAssertEqual(m.gitCommit, "abc")
        XCTAssertTrue(m.interrupted, "one input was interrupted")
        XCTAssertNil(m.partition)
    }

    func testMachinesWithTheSameLabelGetLanesOfTheirOwn() throws {
        let one = run("r", host: "ci", plan: [a], results: [(a, attempt(.passed))])
        let two = run("r", host: "ci", plan: [b], results: [(b, attempt(.passed))])
        let three = run("r", host: "ci", plan: [c], results: [(c, attempt(.passed))])
        let (result, _) = try merge([input(one, machine: "ci"), input(two, machine: "ci"), input(three, machine: "ci")])
        XCTAssertEqual(result.metadata.machines, ["ci", "ci #2", "ci #3"])
        XCTAssertEqual(result.tests.map { $0.attempts.first?.machine }, ["ci", "ci #2", "ci #3"])
        XCTAssertEqual(result.metadata.runID, "r", "one run id, not r+r+r")
    }

    func testAttachmentsAreReRootedUnderTheirMachineAndListedForCopying() throws {
        let folder = URL(fileURLWithPath: "/reports/one")
        let shot = Artifact(kind: .screenshot, path: "attachments/M.C.testA/1/screenshot.png")
        let log = Artifact(kind: .log, path: "logs/batch-0.log")
        let one = run("r", host: "h", plan: [a], results: [(a, attempt(.failed, artifacts: [shot, log]))], partition: "1/2")
        let (result, copies) = try merge([input(one, machine: "partition 1/2", folder: folder)])
        XCTAssertEqual(result.tests.first?.attempts.first?.artifacts.map(\.path),
                       ["attachments/partition_1_2/M.C.testA/1/screenshot.png", "attachments/partition_1_2/logs/batch-0.log"])
        XCTAssertEqual(copies.map(\.from.path), ["/reports/one/attachments/M.C.testA/1/screenshot.png", "/reports/one/logs/batch-0.log"])
        XCTAssertEqual(copies.map(\.to), ["attachments/partition_1_2/M.C.testA/1/screenshot.png", "attachments/partition_1_2/logs/batch-0.log"])
        XCTAssertEqual(result.tests.first?.attempts.first?.artifacts.map(\.kind), [.screenshot, .log])

        let (_, none) = try merge([input(one, machine: "junit")])
        XCTAssertTrue(none.isEmpty, "an input without a folder (a JUnit file) has nothing to copy")
    }

    func testAPlannedTestNoInputRanIsNotRunWithTheReasonItsInputGave() throws {
        let one = run("r", host: "ci-1", plan: [a, b], results: [(a, attempt(.passed))])
        let (result, _) = try merge([input(one, machine: "ci-1")])
        let gone = try XCTUnwrap(result.tests.first { $0.id == b })
        XCTAssertEqual(gone.outcome, .notRun)
        XCTAssertEqual(gone.reason, "ci-1: its batch died", "said with the machine it is about")
    }

    func testHistoriesOfOneRunsPartitionsFoldIntoOneColumn() throws {
        let one = run("ci-7", host: "h1", plan: [a], results: [(a, attempt(.passed))], partition: "1/2")
        let two = run("ci-7", host: "h2", plan: [b], results: [(b, attempt(.failed))], partition: "2/2")
        var earlier = input(one, machine: "partition 1/2")
        earlier.history = RunHistory().recording(run("ci-6", startedAt: 1_600_000_000, host: "h1", plan: [a], results: [(a, attempt(.failed))]))
        let inputs = [earlier, input(two, machine: "partition 2/2")]
        let merged = ReportMerger.mergeWithHistory(inputs, check: try MergeCheck.check(inputs))
        XCTAssertEqual(merged.history.runs.map(\.id), ["ci-6", "ci-7"], "partitions of one run id are one run")
        XCTAssertEqual(merged.history.tests[a.description]?.o, "FP")
        XCTAssertEqual(merged.history.tests[b.description]?.o, "-F")
    }

    // MARK: folders

    /// A report folder as `robotci run` leaves it, with the attachment files its attempts name.
    private func folder(_ name: String, _ result: RunResult) throws -> URL {
        let url = directory.appendingPathComponent(name)
        for artifact in result.tests.flatMap(\.attempts).flatMap(\.artifacts) {
            let file = url.appendingPathComponent(artifact.path)
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data("file of \(name)".utf8).write(to: file)
        }
        try ReportWriter.write(result, timings: Timings(), to: url)
        return url
    }

    func testMergeWritesOneReportFromTwoFoldersWithTheirAttachments() throws {
        let shot = Artifact(kind: .screenshot, path: "attachments/M.C.testA/1/screenshot.png")
        let one = try folder("one", run("ci-7", host: "ci-1", plan: [a], results: [(a, attempt(.failed, artifacts: [shot]))]))
        let two = try folder("two", run("ci-7", host: "ci-2", plan: [b], results: [(b, attempt(.passed))]))
        let out = directory.appendingPathComponent("merged")
        let merged = try ReportMerger.run(inputs: [one.path, two.path], output: out)
        XCTAssertEqual(merged.result.tests.map(\.outcome), [.failed, .passed])

        let written = try ReportReader.results(at: out.appendingPathComponent("results.json"))
        XCTAssertEqual(written.tests.map(\.id), [a, b])
        XCTAssertEqual(written.metadata.machines, ["ci-1", "ci-2"])
        let copied = try XCTUnwrap(written.tests.first?.attempts.first?.artifacts.first?.path)
        XCTAssertEqual(copied, "attachments/ci-1/M.C.testA/1/screenshot.png")
        XCTAssertEqual(try String(contentsOf: out.appendingPathComponent(copied), encoding: .utf8), "file of one")
        for file in ["junit.xml", "timings.json", "history.json", "index.html"] {
            XCTAssertTrue(FileManager.default.fileExists(atPath: out.appendingPathComponent(file).path), file)
        }
    }

    /// A test that failed on one machine and passed on another (a queue's retry): the merged
    /// report holds both traces whole, and the failing one names where it parted.
    func testMergeCopiesTraceFoldersAndNamesTheDivergenceAcrossMachines() throws {
        func traced(_ name: String, status: Int, outcome: AttemptOutcome, start: Double) throws -> URL {
            let path = "attachments/M.C.testA/1/trace/trace.json"
            let result = run("ci-9", host: name, plan: [a], results: [(a, attempt(outcome, start: start, artifacts: [Artifact(kind: .trace, path: path)]))])
            let url = directory.appendingPathComponent(name)
            let folder = url.appendingPathComponent(path).deletingLastPathComponent()
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data("<p>\(status)</p>".utf8).write(to: folder.appendingPathComponent("step-000.html"))
            let step = Trace.Step(
                index: 0, action: .init(name: "launch"), origin: .init(file: "/t.swift", line: 1), timing: (start: 0, duration: 0.1),
                evidence: .init(snapshot: "step-000.html", requests: [Trace.Request(method: "GET", path: "/me", route: "GET /me", status: status)]))
            try JSONEncoder().encode(Trace(test: a.description, attempt: 1, steps: [step])).write(to: folder.appendingPathComponent("trace.json"))
            try ReportWriter.write(result, timings: Timings(), to: url)
            return url
        }
        let one = try traced("ci-1", status: 500, outcome: .failed, start: 1)
        let two = try traced("ci-2", status: 200, outcome: .passed, start: 5)
        let out = directory.appendingPathComponent("merged")
        let merged = try ReportMerger.run(inputs: [two.path, one.path], output: out)
        XCTAssertEqual(merged.result.tests.map(\.outcome), [.flaky])
        let paths = merged.result.tests[0].attempts.compactMap { $0.artifacts.first?.path }
        XCTAssertEqual(paths, ["attachments/ci-1/M.C.testA/1/trace/trace.json", "attachments/ci-2/M.C.testA/1/trace/trace.json"])
        for p in paths {
            let folder = out.appendingPathComponent(p).deletingLastPathComponent()
            for file in ["step-000.html", "viewer.html"] {
                XCTAssertTrue(FileManager.default.fileExists(atPath: folder.appendingPathComponent(file).path), "\(p): \(file)")
            }
        }
        let failing = try TraceRetention.read(out.appendingPathComponent(paths[0]))
        XCTAssertEqual(failing.firstDivergence?.reason, "GET /me answered 500 here, 200 in attempt 2", "the merged run numbers the attempts")
        XCTAssertEqual(failing.firstDivergence?.passingTrace, "../../../../ci-2/M.C.testA/1/trace/trace.json")
    }

    private func refusal(_ inputs: [String], file: StaticString = #filePath, line: UInt = #line) -> String {
        let out = directory.appendingPathComponent("never")
        defer {
            XCTAssertFalse(FileManager.default.fileExists(atPath: out.path), "a refused merge writes nothing", file: file, line: line)
        }
        do {
            _ = try ReportMerger.run(inputs: inputs, output: out)
            XCTFail("merged \(inputs)", file: file, line: line)
        } catch let error as MergeError {
            return error.message
        } catch {
            XCTFail("\(error)", file: file, line: line)
        }
        return ""
    }

    func testMergeRefusesInputsItCannotTrustAndWritesNothing() throws {
        XCTAssertEqual(refusal([]), "no inputs: give one or more report folders or JUnit files")

        let missing = directory.appendingPathComponent("nowhere").path
        XCTAssertEqual(refusal([missing]), "\(missing): does not exist")

        let empty = directory.appendingPathComponent("empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        XCTAssertEqual(refusal([empty.path]), "\(empty.path): not a robotci report folder (no results.json, results.jsonl or junit.xml in it)")

        let escape = Artifact(kind: .log, path: "../../etc/passwd")
        var sneaky = run("r", host: "h", plan: [a], results: [(a, attempt(.failed))])
        sneaky.tests[0].attempts[0].artifacts = [escape]
        let sneakyFolder = directory.appendingPathComponent("sneaky")
        try ReportWriter.write(sneaky, timings: Timings(), to: sneakyFolder)
        let message = refusal([sneakyFolder.path])
        XCTAssertTrue(message.contains("attachment '../../etc/passwd' of M.C/testA (attempt 1) leads outside the report folder"), message)

        let good = try folder("good", run("r", host: "h", plan: [b], results: [(b, attempt(.passed))]))
        XCTAssertTrue(refusal([good.path, sneakyFolder.path]).contains("leads outside"), "one bad input refuses the whole merge")
    }

    /// Partition folders as robotci writes them (one suite, one timings.json in each) merge
    /// into one run with the suite read once; a partition whose suiteDigest is not its
    /// list's refuses the merge, and nothing is written.
    func testPartitionFoldersShareTheirSuiteAndAForgedDigestRefusesTheMerge() throws {
        let suite = (1...12).map { TestID("M.P/test\($0)") }
        let timings = Timings(tests: Dictionary(uniqueKeysWithValues: suite.map { ($0.description, 2.0) }))
        func partition(_ k: Int) throws -> URL {
            let (share, plan) = Partitioner.plan(suite: suite, index: k, count: 3, split: .even)
            let result = run("ci-4", host: "ci-\(k)", plan: share, results: share.map { ($0, attempt(.passed)) }, partition: "\(k)/3")
            var planned = result
            planned.plan = RunPlan(tests: share, partition: plan)
            let url = directory.appendingPathComponent("p\(k)")
            try ReportWriter.write(planned, timings: timings, to: url)
            return url
        }
        let folders = try (1...3).map(partition)
        let out = directory.appendingPathComponent("merged")
        let merged = try ReportMerger.run(inputs: folders.map(\.path), output: out)
        XCTAssertEqual(merged.result.tests.map(\.id), suite.sorted())
        XCTAssertEqual(Set(merged.result.tests.map(\.outcome)), [.passed])
        XCTAssertEqual(ReportReader.timings(in: out)?.tests.count, suite.count)
        // A first input with nothing to share (a JUnit file): the partitions still merge.
        let junit = directory.appendingPathComponent("other.xml")
        try Data(#"<testsuites><testsuite name="O"><testcase classname="O.T" name="testOne" time="0.5"/></testsuite></testsuites>"#.utf8)
            .write(to: junit)
        let withJUnit = try ReportMerger.run(inputs: [junit.path] + folders.map(\.path), output: directory.appendingPathComponent("merged-2"))
        XCTAssertEqual(withJUnit.result.tests.count, suite.count + 1)

        let results = folders[2].appendingPathComponent("results.json")
        let digest = RunPlan.digest(of: suite)
        let text = try String(contentsOf: results, encoding: .utf8)
        try Data(text.replacingOccurrences(of: "\"suiteDigest\":\"\(digest)\"", with: "\"suiteDigest\":\"0-12\"").utf8).write(to: results)
        for inputs in [folders.map(\.path), [junit.path] + folders.map(\.path)] {
            let message = refusal(inputs)
            XCTAssertTrue(message.hasPrefix("\(results.path): the partition's suiteDigest '0-12' is not the digest"), message)
        }
    }
}
