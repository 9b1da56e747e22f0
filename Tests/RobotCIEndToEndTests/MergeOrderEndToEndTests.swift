import Foundation
import XCTest

/// `robotci merge` orders a test's attempts by when they ran, never by the order the inputs
/// were named: the same two folders in either order give the same verdicts.
final class MergeOrderEndToEndTests: XCTestCase {
    override class func setUp() {
        super.setUp()
        try? E2E.buildFixture("Queue")
    }

    func testMergeOfTheSameFoldersInBothOrdersGivesTheSameVerdicts() throws {
        let root = E2E.temporaryDirectory("mergeorder")
        let args = ["run", "--package", E2E.fixture("Queue"), "--skip-build", "--filter", "SlowTests/test0[12]$",
                    "--retries", "0", "--shards", "1"]
        // First a run in which both tests fail, then one in which they pass.
        let failing = root.appendingPathComponent("failing")
        let f = try E2E.run(args + ["--report-dir", failing.path], env: ["QUEUE_FAIL_ALL": "1", "QUEUE_SLEEP": "0.01"])
        XCTAssertEqual(f.status, 1, f.stderr)
        let passing = root.appendingPathComponent("passing")
        let p = try E2E.run(args + ["--report-dir", passing.path], env: ["QUEUE_SLEEP": "0.01"])
        XCTAssertEqual(p.status, 0, p.stderr)

        var verdicts: [[String: String]] = []
        for (name, inputs) in [("forward", [failing, passing]), ("backward", [passing, failing])] {
            let out = root.appendingPathComponent("merged-\(name)")
            let m = try E2E.run(["merge"] + inputs.map(\.path) + ["--output", out.path])
            XCTAssertEqual(m.status, 0, "failed, then passed: flaky, which passes (\(name))\n\(m.stderr)")
            verdicts.append(try E2E.junitVerdicts(out.appendingPathComponent("junit.xml")).mapValues(\.verdict))
            let attempts = try E2E.attemptsByTest(in: out)
            for (id, list) in attempts {
                XCTAssertEqual(list.map { $0["outcome"] as? String }, ["failed", "passed"], "\(id) (\(name)): attempts in the order they ran")
            }
        }
        XCTAssertEqual(verdicts[0], verdicts[1], "the argument order decides nothing")
        XCTAssertEqual(Set(verdicts[0].values), ["flaky"], "\(verdicts[0])")
        XCTAssertEqual(verdicts[0].count, 2)
    }
}
