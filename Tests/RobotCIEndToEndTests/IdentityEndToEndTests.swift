import Foundation
import XCTest

/// A test literally named like robotci's text form of a repetition (`testX(repeat 1 of 2)`,
/// `test_y (repeat 1 of 2)`, Tests/Fixtures/Identity) is that test on every path: it runs,
/// retries, merges and re-runs with `--last-failed` as itself, because results.json, the
/// journal and the queue store an id as `{test, repetition, browser}`, never as text. And a
/// report folder the previous robotci wrote (ids as text, format v2) still merges.
final class IdentityEndToEndTests: XCTestCase {
    private let fixture = E2E.fixture("Identity")
    private let testX = "suite.Names::testX(repeat 1 of 2)"
    private let testY = "suite.Names::test_y (repeat 1 of 2)"

    private func tests(in report: URL) throws -> [E2E.StoredTest] { try E2E.storedTests(in: report) }

    private func run(_ args: [String], env: [String: String] = [:]) throws -> E2E.Result {
        try E2E.run(["run", "--package", fixture] + args, env: env)
    }

    func testANameLikeARepetitionRunsRetriesAndReRunsAsItself() throws {
        let root = E2E.temporaryDirectory("identity-run")
        let state = root.appendingPathComponent("state")
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
        let report = root.appendingPathComponent("report")
        // testX fails on both attempts; test_y fails once (a file flips it), then passes.
        let first = try run(["--report-dir", report.path], env: ["FAIL": "testX(repeat 1 of 2)", "FLAKY": "test_y (repeat 1 of 2)", "STATE": state.path])
        XCTAssertEqual(first.status, 1, first.stderr)
        let ran = try tests(in: report)
        XCTAssertEqual(ran.count, 6, "six tests, no repetitions: \(ran.map(\.id))")
        XCTAssertTrue(ran.allSatisfy { $0.id["repetition"] == nil }, "\(ran.map(\.id))")
        let x = try XCTUnwrap(ran.first { $0.id["test"] as? String == testX }, "\(ran.map(\.id))")
        XCTAssertEqual(x.outcome, "failed")
        XCTAssertEqual(x.attempts, 2, "retried as itself")
        let y = try XCTUnwrap(ran.first { $0.id["test"] as? String == testY }, "\(ran.map(\.id))")
        XCTAssertEqual(y.outcome, "flaky")
        XCTAssertEqual(y.attempts, 2)
        let junit = try E2E.junitVerdicts(report.appendingPathComponent("junit.xml")).mapValues(\.verdict)
        XCTAssertEqual(junit["suite.Names/testX(repeat 1 of 2)"] ?? junit[testX], "failed", "\(junit)")

        // --last-failed re-runs exactly that test, by its own name, and it now passes.
        let again = try run(["--report-dir", report.path, "--last-failed"])
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertTrue(again.stderr.contains("failed → passed  \(testX)") || again.stdout.contains("failed → passed  \(testX)"), again.stderr)
        let rerun = try tests(in: report)
        XCTAssertEqual(rerun.map { $0.id["test"] as? String }, [testX])
        XCTAssertNil(rerun.first?.id["repetition"])
        XCTAssertEqual(rerun.first?.outcome, "passed")
    }

    /// `--repeat-each 2`: the repetition is data beside the name, never mixed into it.
    func testRepeatEachKeepsTheNameAndTheRepetitionApart() throws {
        let report = E2E.temporaryDirectory("identity-repeat")
        let r = try run(["--report-dir", report.path, "--repeat-each", "2"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let ran = try tests(in: report)
        XCTAssertEqual(ran.count, 12)
        let reps = ran.filter { $0.id["test"] as? String == testX }.compactMap { ($0.id["repetition"] as? [String: Any])?["index"] as? Int }
        XCTAssertEqual(reps.sorted(), [1, 2], "\(ran.map(\.id))")
    }

    /// Two partitions merged: every test once, by its own name.
    func testPartitionsMergeAsThemselves() throws {
        let (m, merged) = try E2E.mergedPartitions(under: E2E.temporaryDirectory("identity-merge")) { k, dir in
            try run(["--partition", "\(k)/2", "--report-dir", dir.path], env: ["ROBOTCI_RUN_ID": "identity-merge", "FAIL": "test_y (repeat 1 of 2)"])
        }
        XCTAssertEqual(m.status, 1, "test_y failed\n\(m.stdout)\(m.stderr)")
        let ran = try tests(in: merged)
        XCTAssertEqual(Set(ran.compactMap { $0.id["test"] as? String }).count, 6, "\(ran.map(\.id))")
        XCTAssertEqual(ran.count, 6)
        XCTAssertTrue(ran.allSatisfy { $0.id["repetition"] == nil })
        XCTAssertEqual(ran.first { $0.id["test"] as? String == testY }?.outcome, "failed")
    }

    /// The previous robotci's partition 1/2 (format v2, Tests/Fixtures/Identity/README.md)
    /// merges with this robotci's partition 2/2 of the same run: plain and `--repeat-each 2`.
    func testAPreviousVersionFolderMergesWithANewOne() throws {
        for (folder, extra, count) in [("plain", [String](), 6), ("repeat", ["--repeat-each", "2"], 12)] {
            let root = E2E.temporaryDirectory("identity-previous-\(folder)")
            let new = root.appendingPathComponent("p2")
            let r = try run(["--partition", "2/2", "--report-dir", new.path] + extra, env: ["ROBOTCI_RUN_ID": "identity-\(folder)", "FAIL": "test_b"])
            XCTAssertTrue([0, 1].contains(r.status), r.stderr)
            let merged = root.appendingPathComponent("merged")
            let old = E2E.fixture("Identity/previous-version/\(folder)")
            let m = try E2E.run(["merge", old, new.path, "--output", merged.path])
            XCTAssertEqual(m.status, 1, "\(folder): test_b failed in the old partition\n\(m.stdout)\(m.stderr)")
            let ran = try tests(in: merged)
            XCTAssertEqual(ran.count, count, "\(folder): \(ran.map(\.id))")
            XCTAssertEqual(Set(ran.compactMap { $0.id["test"] as? String }).count, 6, "\(folder): \(ran.map(\.id))")
            XCTAssertEqual(ran.filter { $0.id["repetition"] != nil }.count, folder == "repeat" ? 12 : 0, "\(folder): \(ran.map(\.id))")
            XCTAssertTrue(ran.filter { $0.id["test"] as? String == "suite.Names::test_b" }.allSatisfy { $0.outcome == "failed" }, folder)
        }
    }
}
