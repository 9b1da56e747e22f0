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

        // CI variables select the same share as the flag.
        let gitlab = try E2E.run(["list"] + args, env: ["CI_NODE_INDEX": "2", "CI_NODE_TOTAL": "3"])
        XCTAssertEqual(gitlab.stdout.split(separator: "\n").map(String.init), listed[1])
        XCTAssertTrue(gitlab.stderr.contains("CI_NODE_INDEX/CI_NODE_TOTAL"), gitlab.stderr)
        let circle = try E2E.run(["list"] + args, env: ["CIRCLE_NODE_INDEX": "1", "CIRCLE_NODE_TOTAL": "3"])
        XCTAssertEqual(circle.stdout.split(separator: "\n").map(String.init), listed[1])
        let k8s = try E2E.run(["list"] + args + ["--partition-count", "3"], env: ["JOB_COMPLETION_INDEX": "2"])
        XCTAssertEqual(k8s.stdout.split(separator: "\n").map(String.init), listed[2])
        let k8sMissing = try E2E.run(["list"] + args, env: ["JOB_COMPLETION_INDEX": "2"])
        XCTAssertEqual(k8sMissing.status, 2)
        XCTAssertTrue(k8sMissing.stderr.contains("--partition-count"), k8sMissing.stderr)

        var dirs: [String] = []
        for k in 1...3 {
            let dir = root.appendingPathComponent("machine\(k)").path
            dirs.append(dir)
            let r = try E2E.run(["run"] + args + ["--partition", "\(k)/3", "--report-dir", dir])
            XCTAssertTrue([0, 1].contains(r.status), r.stderr)
        }
        let single = root.appendingPathComponent("single").path
        XCTAssertEqual(try E2E.run(["run"] + args + ["--report-dir", single]).status, 1)

        let merged = root.appendingPathComponent("merged")
        let m = try E2E.run(["merge"] + dirs + ["--output", merged.path])
        XCTAssertEqual(m.status, 1, m.stderr)
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

    /// Two machines that plan their shares from different timings.json files can put a test
    /// in no share or in two; `merge` says so. With the same timings.json it says nothing.
    func testMergeWarnsWhenPartitionsWereSplitFromDifferentTimings() throws {
        let root = E2E.temporaryDirectory("partition-plans")
        let passing = ["--package", E2E.fixture("Outcomes"), "--skip-build", "--filter", "PassingTests", "--retries", "0"]
        let ids = try E2E.run(["list"] + passing).stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(ids.count, 3)
        func timings(_ seconds: [Double]) -> String {
            "{\"tests\":{" + zip(ids, seconds).map { "\"\($0)\":\($1)" }.joined(separator: ",") + "},\"version\":1}"
        }
        func runPartitions(_ first: String, _ second: String) throws -> String {
            var dirs: [String] = []
            for (k, seed) in [(1, first), (2, second)] {
                let dir = root.appendingPathComponent("\(dirs.count)-\(UUID().uuidString.prefix(6))")
                try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
                try seed.write(to: dir.appendingPathComponent("timings.json"), atomically: true, encoding: .utf8)
                let r = try E2E.run(["run"] + passing + ["--partition", "\(k)/2", "--report-dir", dir.path])
                XCTAssertEqual(r.status, 0, r.stderr)
                dirs.append(dir.path)
            }
            let m = try E2E.run(["merge"] + dirs + ["--output", root.appendingPathComponent("merged-\(UUID().uuidString.prefix(6))").path])
            XCTAssertEqual(m.status, 0, m.stderr)
            return m.stderr
        }
        let same = try runPartitions(timings([3, 2, 1]), timings([3, 2, 1]))
        XCTAssertFalse(same.contains("split the suite from different inputs"), same)
        let different = try runPartitions(timings([3, 2, 1]), timings([1, 2, 9]))
        XCTAssertTrue(different.contains("robotci: warning: the partitions split the suite from different inputs ([partition 1/2] vs [partition 2/2])"),
                      different)
        XCTAssertTrue(different.contains("Give every machine the same timings.json"), different)
    }
}
