import Foundation
import XCTest

/// `--partition K/N` on three "machines", CI variable detection, and `robotci merge`.
final class PartitionMergeEndToEndTests: XCTestCase {
    /// Everything but the slow hang, so three partitions plus a full run stay quick.
    private let args = ["--package", E2E.fixture("Outcomes"), "--skip-build", "--skip", "Hang", "--retries", "1", "--shards", "2"]

    override class func setUp() {
        super.setUp()
        try? E2E.buildFixture("Outcomes")
    }

    /// Issue 36: GitLab sets CI_NODE_INDEX/CI_NODE_TOTAL for `parallel: matrix` jobs too, which
    /// each must run everything. Only `--partition auto` reads them; a partitioned run says so.
    func testCIVariablesAloneShardNothingAndAutoRunsTheShare() throws {
        let root = E2E.temporaryDirectory("civars")
        let all = try E2E.run(["list"] + args).stdout.split(separator: "\n").map(String.init)
        let share = try E2E.run(["list"] + args + ["--partition", "1/2"]).stdout.split(separator: "\n").map(String.init)
        XCTAssertLessThan(share.count, all.count)
        let ci = ["CI_NODE_INDEX": "1", "CI_NODE_TOTAL": "2"]

        let whole = root.appendingPathComponent("whole")
        let w = try E2E.run(["run"] + args + ["--report-dir", whole.path], env: ci)
        XCTAssertEqual(w.status, 1, w.stderr)
        XCTAssertEqual(try E2E.junitVerdicts(whole.appendingPathComponent("junit.xml")).count, all.count, "the whole suite ran\n\(w.stderr)")
        XCTAssertTrue(w.stderr.contains("without --partition auto robotci runs every test"), w.stderr)
        XCTAssertFalse(try String(contentsOf: whole.appendingPathComponent("junit.xml"), encoding: .utf8).contains("robotci.partition"))

        let part = root.appendingPathComponent("share")
        let p = try E2E.run(["run"] + args + ["--partition", "auto", "--report-dir", part.path], env: ci)
        XCTAssertTrue([0, 1].contains(p.status), p.stderr)
        XCTAssertEqual(try E2E.junitVerdicts(part.appendingPathComponent("junit.xml")).count, share.count, "this job's share ran\n\(p.stderr)")
        let last = p.stderr.split(separator: "\n").last.map(String.init) ?? ""
        XCTAssertTrue(last.contains("(partition 1/2: this machine's share of \(all.count) tests"), "the last line says so: \(last)")
        let junit = try String(contentsOf: part.appendingPathComponent("junit.xml"), encoding: .utf8)
        XCTAssertTrue(junit.contains(#"<property name="robotci.partition" value="1/2"/>"#), junit.prefix(600).description)
        XCTAssertTrue(junit.contains(#"<property name="robotci.partition.suite" value="\#(all.count)"/>"#), junit.prefix(600).description)
        let results = try JSONSerialization.jsonObject(with: Data(contentsOf: part.appendingPathComponent("results.json"))) as? [String: Any]
        XCTAssertEqual((results?["metadata"] as? [String: Any])?["partition"] as? String, "1/2", "the report's summary shows the partition")

        // auto with no CI variable: a clear exit 2, nothing run.
        let none = try E2E.run(["run"] + args + ["--partition", "auto", "--report-dir", root.appendingPathComponent("none").path])
        XCTAssertEqual(none.status, 2, none.stderr)
        XCTAssertTrue(none.stderr.contains("--partition auto: none of the CI's parallel-job variables is set"), none.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: root.appendingPathComponent("none/junit.xml").path))
        print("PARTITION | CI_NODE_INDEX=1 CI_NODE_TOTAL=2 | without auto: \(all.count) tests | --partition auto: \(share.count) tests")
    }

    func testThreePartitionsMergedEqualOneRun() throws {
        let root = E2E.temporaryDirectory("partitions")
        var listed: [[String]] = []
        for k in 1...3 {
            let r = try E2E.run(["list"] + args + ["--partition", "\(k)/3"])
            XCTAssertEqual(r.status, 0, r.stderr)
            listed.append(r.stdout.split(separator: "\n").map(String.init))
        }
        let all = try E2E.run(["list"] + args).stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(listed.flatMap { $0 }.sorted(), all.sorted(), "every test in exactly one partition")

        // With --partition auto, CI variables select the same share as the flag.
        let auto = args + ["--partition", "auto"]
        let gitlab = try E2E.run(["list"] + auto, env: ["CI_NODE_INDEX": "2", "CI_NODE_TOTAL": "3"])
        XCTAssertEqual(gitlab.stdout.split(separator: "\n").map(String.init), listed[1])
        XCTAssertTrue(gitlab.stderr.contains("CI_NODE_INDEX/CI_NODE_TOTAL"), gitlab.stderr)
        let circle = try E2E.run(["list"] + auto, env: ["CIRCLE_NODE_INDEX": "1", "CIRCLE_NODE_TOTAL": "3"])
        XCTAssertEqual(circle.stdout.split(separator: "\n").map(String.init), listed[1])
        let k8s = try E2E.run(["list"] + auto + ["--partition-count", "3"], env: ["JOB_COMPLETION_INDEX": "2"])
        XCTAssertEqual(k8s.stdout.split(separator: "\n").map(String.init), listed[2])
        let k8sMissing = try E2E.run(["list"] + auto, env: ["JOB_COMPLETION_INDEX": "2"])
        XCTAssertEqual(k8sMissing.status, 2)
        XCTAssertTrue(k8sMissing.stderr.contains("--partition-count"), k8sMissing.stderr)
        // Without it they shard nothing.
        let plain = try E2E.run(["list"] + args, env: ["CI_NODE_INDEX": "2", "CI_NODE_TOTAL": "3"])
        XCTAssertEqual(plain.stdout.split(separator: "\n").map(String.init), all, plain.stderr)

        var dirs: [String] = []
        for k in 1...3 {
            let dir = root.appendingPathComponent("machine\(k)").path
            dirs.append(dir)
            let r = try E2E.run(["run"] + args + ["--partition", "\(k)/3", "--report-dir", dir], env: ["ROBOTCI_RUN_ID": "three-partitions"])
            XCTAssertTrue([0, 1].contains(r.status), r.stderr)
        }
        let single = root.appendingPathComponent("single").path
        XCTAssertEqual(try E2E.run(["run"] + args + ["--report-dir", single]).status, 1)

        let merged = root.appendingPathComponent("merged")
        let m = try E2E.run(["merge"] + dirs + ["--output", merged.path])
        XCTAssertEqual(m.status, 1, m.stderr)
        XCTAssertTrue(m.stderr.contains("robotci: \(all.count) planned, \(all.count) accounted for\n"), m.stderr)
        let mergedVerdicts = try E2E.junitVerdicts(merged.appendingPathComponent("junit.xml"))
        let singleVerdicts = try E2E.junitVerdicts(URL(fileURLWithPath: single).appendingPathComponent("junit.xml"))
        XCTAssertEqual(mergedVerdicts.count, all.count, "every test exactly once")
        XCTAssertEqual(mergedVerdicts.mapValues(\.verdict), singleVerdicts.mapValues(\.verdict))
        for file in ["results.json", "timings.json", "index.html"] {
            XCTAssertTrue(FileManager.default.fileExists(atPath: merged.appendingPathComponent(file).path), file)
        }
        let results = try JSONSerialization.jsonObject(with: Data(contentsOf: merged.appendingPathComponent("results.json"))) as? [String: Any]
        let machines = (results?["metadata"] as? [String: Any])?["machines"] as? [String]
        XCTAssertEqual(machines, ["partition 1/3", "partition 2/3", "partition 3/3"])
    }

    func testMergeTakesForeignJUnitAndReportsDuplicatesOnce() throws {
        let root = E2E.temporaryDirectory("junitmerge")
        let a = root.appendingPathComponent("a.xml"), b = root.appendingPathComponent("b.xml")
        try """
            <?xml version="1.0"?>
            <testsuite name="py"><testcase classname="py.mod" name="test_one" time="0.5"/>
            <testcase classname="py.mod" name="test_two" time="0.1"><failure message="boom">trace</failure></testcase></testsuite>
            """.write(to: a, atomically: true, encoding: .utf8)
        try """
            <testsuites><testsuite name="py"><testcase classname="py.mod" name="test_two" time="0.2"/></testsuite></testsuites>
            """.write(to: b, atomically: true, encoding: .utf8)
        let out = root.appendingPathComponent("out")
        let r = try E2E.run(["merge", a.path, b.path, "--output", out.path])
        XCTAssertEqual(r.status, 0, r.stderr)
        let v = try E2E.junitVerdicts(out.appendingPathComponent("junit.xml"))
        XCTAssertEqual(v.count, 2)
        XCTAssertEqual(v["py.mod/test_two"]?.verdict, "flaky", "failed on one input, passed on the other: one test, both attempts")
    }

    func testCorruptInputIsRejectedAndNothingIsWritten() throws {
        let root = E2E.temporaryDirectory("corrupt")
        let good = root.appendingPathComponent("good.xml")
        try "<testsuite name=\"x\"><testcase classname=\"a\" name=\"b\"/></testsuite>".write(to: good, atomically: true, encoding: .utf8)
        let bad = root.appendingPathComponent("machine2")
        try FileManager.default.createDirectory(at: bad, withIntermediateDirectories: true)
        try "<testsuites><testsuite><testcase name=\"x\">".write(to: bad.appendingPathComponent("junit.xml"), atomically: true, encoding: .utf8)
        let out = root.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        try "keep me".write(to: out.appendingPathComponent("existing.txt"), atomically: true, encoding: .utf8)
        let r = try E2E.run(["merge", good.path, bad.path, "--output", out.path])
        XCTAssertEqual(r.status, 2)
        XCTAssertTrue(r.stderr.contains(bad.appendingPathComponent("junit.xml").path), r.stderr)
        XCTAssertTrue(r.stderr.contains("not well-formed"), r.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: out.path), ["existing.txt"])

        let foreign = root.appendingPathComponent("foreign.xml")
        try "<html><body/></html>".write(to: foreign, atomically: true, encoding: .utf8)
        let f = try E2E.run(["merge", foreign.path, "--output", out.path])
        XCTAssertEqual(f.status, 2)
        XCTAssertTrue(f.stderr.contains("not JUnit XML"), f.stderr)
        let json = root.appendingPathComponent("results.json")
        try "{\"format\": \"something-else\"}".write(to: json, atomically: true, encoding: .utf8)
        let j = try E2E.run(["merge", json.path, "--output", out.path])
        XCTAssertEqual(j.status, 2)
        XCTAssertTrue(j.stderr.contains("not a robotci results file"), j.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: out.path), ["existing.txt"])
    }

    func testGitHubReporterAnnotatesAndWritesSummary() throws {
        let dir = E2E.temporaryDirectory("github")
        let summary = dir.appendingPathComponent("summary.md")
        let r = try E2E.run(["run", "--package", E2E.fixture("Outcomes"), "--skip-build", "--filter", "Failing|Flaky",
                             "--report-dir", dir.appendingPathComponent("r").path],
                            env: ["GITHUB_ACTIONS": "true", "GITHUB_STEP_SUMMARY": summary.path])
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stdout.contains("::error file=") && r.stdout.contains(",line=12,title=failed%3A OutcomesTests.FailingTests/testWrongSum::"), r.stdout)
        XCTAssertTrue(r.stdout.contains("::warning file="), r.stdout)
        let md = try String(contentsOf: summary, encoding: .utf8)
        XCTAssertTrue(md.contains("| `OutcomesTests.FailingTests/testWrongSum` | failed | 3 |"), md)
    }

    // MARK: - Issue 25: per-machine folders, missing and stale partitions

    /// The 40-test command-driver suite (no build): `run.sh` logs every test it runs.
    private let suite = ["--package", E2E.fixture("Partitions"), "--config", E2E.fixture("Partitions") + "/robotci.yml"]

    /// Runs partition k/n of the suite into `dir` as machine `machine`, logging into `log`.
    @discardableResult
    private func partition(_ k: Int, of n: Int, dir: URL, runID: String, log: URL, extra: [String] = [],
                           file: StaticString = #filePath, line: UInt = #line) throws -> E2E.Result {
        let r = try E2E.run(["run"] + suite + ["--partition", "\(k)/\(n)", "--report-dir", dir.path] + extra,
                            env: ["ROBOTCI_RUN_ID": runID, "RAN_LOG": log.path, "MACHINE": "m\(k)", "RUN_LABEL": runID])
        XCTAssertEqual(r.status, 0, r.stderr, file: file, line: line)
        return r
    }

    /// How often each test ran in `run`, by the suite's own log.
    private func ranCounts(_ log: URL, run: String) throws -> [String: Int] {
        let lines = try String(contentsOf: log, encoding: .utf8).split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
        return Dictionary(lines.filter { $0.count == 3 && $0[1] == run }.map { ($0[2], 1) }, uniquingKeysWith: +)
    }

    /// The issue's scenario: `--partition 1/2` and `2/2`, each machine with its own report
    /// folder whose timings.json disagrees with the other's (per-machine caches), three runs in a
    /// row. Every test runs exactly once per run, by the suite's own log, and merge says so.
    func testPerMachineFoldersOverThreeRunsRunEveryTestExactlyOnce() throws {
        let root = E2E.temporaryDirectory("per-machine")
        let log = root.appendingPathComponent("ran.log")
        let ids = try E2E.run(["list"] + suite).stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(ids.count, 40)
        let machines = [root.appendingPathComponent("m1"), root.appendingPathComponent("m2")]
        for (i, dir) in machines.enumerated() {
            // Each machine's cache says something else: opposite skews over the suite.
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            let seconds = ids.enumerated().map { "\"\($1)\":\(i == 0 ? Double($0 + 1) : Double(40 - $0))" }
            try ("{\"tests\":{" + seconds.joined(separator: ",") + "},\"version\":1}")
                .write(to: dir.appendingPathComponent("timings.json"), atomically: true, encoding: .utf8)
        }
        var rows: [String] = []
        for run in 1...3 {
            let runID = "pipeline-\(run)"
            // Run 3 balances by time from the last merged report's timings.json, given to both.
            let shared = run == 3 ? ["--partition-timings", root.appendingPathComponent("merged-2/timings.json").path] : []
            let first = try partition(1, of: 2, dir: machines[0], runID: runID, log: log, extra: shared)
            try partition(2, of: 2, dir: machines[1], runID: runID, log: log, extra: shared)
            XCTAssertTrue(first.stderr.contains(run == 3 ? "robotci: partition 1/2: " : "robotci: partition 1/2: 20 of 40 tests, an even split"), first.stderr)
            let counts = try ranCounts(log, run: runID)
            XCTAssertEqual(Set(counts.keys), Set(ids), "run \(run): every test ran")
            XCTAssertEqual(Set(counts.values), [1], "run \(run): no test ran twice")
            let merged = root.appendingPathComponent("merged-\(run)")
            let m = try E2E.run(["merge"] + machines.map(\.path) + ["--output", merged.path])
            XCTAssertEqual(m.status, 0, m.stderr)
            XCTAssertTrue(m.stderr.hasSuffix("robotci: 40 planned, 40 accounted for\n"), m.stderr)
            rows.append("run \(run): \(counts.count) tests, each once; merge exit \(m.status)")
        }
        print("PARTITIONS | per-machine folders | " + rows.joined(separator: "; "))
    }

    /// A partition whose share was tampered with (3 tests dropped from its plan and results),
    /// a partition missing, and partitions split from different --partition-timings files.
    func testMergeFailsNamingTestsNoPartitionRanAndMissingPartitions() throws {
        let root = E2E.temporaryDirectory("missing")
        let log = root.appendingPathComponent("ran.log")
        let m1 = root.appendingPathComponent("m1"), m2 = root.appendingPathComponent("m2")
        try partition(1, of: 2, dir: m1, runID: "r", log: log)
        try partition(2, of: 2, dir: m2, runID: "r", log: log)

        // Tampered share: partition 2 "forgets" three of its tests.
        let resultsURL = m2.appendingPathComponent("results.json")
        var results = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: resultsURL)) as? [String: Any])
        var plan = try XCTUnwrap(results["plan"] as? [String: Any])
        let share = try XCTUnwrap(plan["tests"] as? [[String: Any]])
        let dropped = E2E.idTexts(Array(share.prefix(3)))
        plan["tests"] = Array(share.dropFirst(3))
        results["plan"] = plan
        results["tests"] = (results["tests"] as? [[String: Any]])?.filter { !dropped.contains(E2E.idText($0["id"]) ?? "") }
        try JSONSerialization.data(withJSONObject: results).write(to: resultsURL)
        let tampered = try E2E.run(["merge", m1.path, m2.path, "--output", root.appendingPathComponent("out-tampered").path])
        XCTAssertEqual(tampered.status, 1, tampered.stderr)
        for id in dropped { XCTAssertTrue(tampered.stderr.contains("  \(id): no partition ran it ("), tampered.stderr) }
        XCTAssertTrue(tampered.stderr.contains("robotci: 40 planned, 40 accounted for (37 with a result, 3 not run)"), tampered.stderr)
        let junit = try E2E.junitVerdicts(root.appendingPathComponent("out-tampered/junit.xml"))
        XCTAssertEqual(junit.count, 40, "the not-run tests are in the merged report")

        // A missing partition: its whole share is named, exit 1.
        let missing = try E2E.run(["merge", m1.path, "--output", root.appendingPathComponent("out-missing").path])
        XCTAssertEqual(missing.status, 1, missing.stderr)
        XCTAssertTrue(missing.stderr.contains("robotci: merge: partition 2/2 is missing: no input for it; 20 tests are reported not run"), missing.stderr)
        XCTAssertTrue(missing.stderr.contains("robotci: error: 20 planned tests did not run:"), missing.stderr)
        XCTAssertTrue(missing.stderr.contains("partition 2/2 is missing (no input for it was merged)"), missing.stderr)
        XCTAssertTrue(missing.stderr.hasSuffix("robotci: 40 planned, 40 accounted for (20 with a result, 20 not run)\n"), missing.stderr)

        // Uneven shares: the two machines were given different timings files.
        let ids = try E2E.run(["list"] + suite).stdout.split(separator: "\n").map(String.init)
        var files: [String] = []
        for skew in [1.0, -1.0] {
            let url = root.appendingPathComponent("timings\(files.count).json")
            let seconds = ids.enumerated().map { "\"\($1)\":\(20 + skew * Double($0 % 9))" }
            try ("{\"tests\":{" + seconds.joined(separator: ",") + "},\"version\":1}").write(to: url, atomically: true, encoding: .utf8)
            files.append(url.path)
        }
        let u1 = root.appendingPathComponent("u1"), u2 = root.appendingPathComponent("u2")
        try partition(1, of: 2, dir: u1, runID: "u", log: log, extra: ["--partition-timings", files[0]])
        try partition(2, of: 2, dir: u2, runID: "u", log: log, extra: ["--partition-timings", files[1]])
        let out = root.appendingPathComponent("out-uneven")
        let uneven = try E2E.run(["merge", u1.path, u2.path, "--output", out.path])
        XCTAssertEqual(uneven.status, 2, uneven.stderr)
        XCTAssertTrue(uneven.stderr.contains("split the suite differently") && uneven.stderr.contains(files[0]) && uneven.stderr.contains(files[1]),
                      uneven.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: out.path), "nothing written")
        let counts = try ranCounts(log, run: "u")
        XCTAssertNotEqual(Set(counts.keys), Set(ids), "the differently split machines did leave tests unrun (so merge had to refuse)")

        // A partition run with no run id at all warns that merge will need one.
        let noID = try E2E.run(["run"] + suite + ["--partition", "1/2", "--report-dir", root.appendingPathComponent("noid").path],
                               env: ["ROBOTCI_RUN_ID": "", "GITHUB_RUN_ID": "", "CI_PIPELINE_ID": "", "BUILDKITE_BUILD_ID": "",
                                     "CIRCLE_WORKFLOW_ID": "", "RAN_LOG": log.path])
        XCTAssertEqual(noID.status, 0, noID.stderr)
        XCTAssertTrue(noID.stderr.contains("robotci: warning: this partition has no run id from the CI"), noID.stderr)
    }

    /// A reused folder keeps the previous run's results.json. Merge refuses it (exit 2, the
    /// output folder untouched), and takes a later run's journal over an older results.json.
    func testStaleFolderFromAnEarlierRunIsRefused() throws {
        let root = E2E.temporaryDirectory("stale")
        let log = root.appendingPathComponent("ran.log")
        let m1 = root.appendingPathComponent("m1"), m2 = root.appendingPathComponent("m2")
        try partition(1, of: 2, dir: m1, runID: "run-1", log: log)
        try partition(2, of: 2, dir: m2, runID: "run-1", log: log)
        // Run 2: machine 2 never got to run (its pod failed to start); its folder is run 1's.
        try partition(1, of: 2, dir: m1, runID: "run-2", log: log)
        let out = root.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        try "keep".write(to: out.appendingPathComponent("earlier.txt"), atomically: true, encoding: .utf8)
        let r = try E2E.run(["merge", m1.path, m2.path, "--output", out.path])
        XCTAssertEqual(r.status, 2, r.stderr)
        XCTAssertTrue(r.stderr.contains("the partitions are not from one run"), r.stderr)
        XCTAssertTrue(r.stderr.contains("partition 1/2 (\(m1.path)/results.json): run id 'run-2' (from ROBOTCI_RUN_ID)"), r.stderr)
        XCTAssertTrue(r.stderr.contains("partition 2/2 (\(m2.path)/results.json): run id 'run-1' (from ROBOTCI_RUN_ID)"), r.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: out.path), ["earlier.txt"], "nothing written")

        // Machine 2 starts run 2 and is killed early: its results.json is still run 1's, its
        // journal run 2's. Merge uses the journal: an interrupted partition, exit 1.
        let older = try Data(contentsOf: m2.appendingPathComponent("results.json"))
        try partition(2, of: 2, dir: m2, runID: "run-2", log: log)
        try older.write(to: m2.appendingPathComponent("results.json"))
        let journal = try String(contentsOf: m2.appendingPathComponent("results.jsonl"), encoding: .utf8)
        try (journal.split(separator: "\n").prefix(6).joined(separator: "\n") + "\n")
            .write(to: m2.appendingPathComponent("results.jsonl"), atomically: true, encoding: .utf8)
        let cut = try E2E.run(["merge", m1.path, m2.path, "--output", root.appendingPathComponent("out-cut").path])
        XCTAssertEqual(cut.status, 1, cut.stderr)
        XCTAssertTrue(cut.stderr.contains("\(m2.path)/results.json is from an earlier run (run id 'run-1'"), cut.stderr)
        XCTAssertTrue(cut.stderr.contains("partition 2/2 (\(m2.path)/results.jsonl) was interrupted before it finished: 16 of its 20 tests"), cut.stderr)
        XCTAssertTrue(cut.stderr.contains("robotci: 40 planned, 40 accounted for (24 with a result, 16 not run)"), cut.stderr)
    }
}
