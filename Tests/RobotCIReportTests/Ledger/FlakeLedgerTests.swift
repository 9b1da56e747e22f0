import Foundation
import RobotCICore
@testable import RobotCIReport
import XCTest

final class FlakeLedgerTests: XCTestCase {
    /// A run with `outcomes` per test (attempts in order), at `commit`.
    private func run(_ id: String, at time: Double, commit: String?, _ outcomes: [TestID: [AttemptOutcome]]) -> RunResult {
        let tests = outcomes.keys.sorted().map { test in
            TestRecord(id: test, attempts: outcomes[test]!.enumerated().map { n, o in
                Attempt(number: n + 1, outcome: o, duration: 0.1, start: 0, placement: .init(shard: 0, batch: 0))
            })
        }
        var meta = RunMetadata(runID: id, startedAt: time, wallTime: 1, shards: 1, retries: 0, robotciVersion: "t")
        meta.gitCommit = commit
        return RunResult(metadata: meta, tests: tests, batches: [])
    }

    private let alternating = TestID("M.C/testAlternating"), failing = TestID("M.C/testFails"), passing = TestID("M.C/testPasses")

    /// The issue's case: two runs at one commit, no retries; only the test whose verdicts
    /// differ is flaky there, and its second run's failure finds the first run's pass.
    func testDifferentVerdictsAtOneCommitMakeATestFlakyThere() {
        var l = FlakeLedger()
        l = l.recording(run("r1", at: 100, commit: "abc", [alternating: [.passed], failing: [.failed], passing: [.passed]]))
        XCTAssertEqual(l.passingRun(of: alternating, at: "abc")?.id, "r1")
        XCTAssertNil(l.passingRun(of: failing, at: "abc"))
        XCTAssertNil(l.passingRun(of: alternating, at: "other"))
        XCTAssertNil(l.passingRun(of: alternating, at: "abc", excluding: "r1"), "a run is not its own evidence")
        l = l.recording(run("r2", at: 200, commit: "abc", [alternating: [.failed], failing: [.failed], passing: [.passed]]))
        let a = l.standing(of: alternating)
        XCTAssertEqual(a.runs, 2)
        XCTAssertEqual(a.flakyRuns, 1)
        XCTAssertEqual(a.flakyCommits, ["abc"])
        XCTAssertEqual(a.lastFlaky, 200)
        XCTAssertEqual(a.flakyRunIDs, ["r2"])
        XCTAssertEqual(l.standing(of: failing).flakyRuns, 0)
        XCTAssertEqual(l.standing(of: passing).flakyRuns, 0)
        XCTAssertEqual(l.standing(of: passing).cleanStreak, 2)
        XCTAssertEqual(l.flakyTests(inRun: "r2"), [alternating])
        XCTAssertEqual(l.standings().first?.id, alternating)
        // A run of an edited tree is no run of its commit: it compares with nothing.
        var dirty = run("r3", at: 300, commit: "abc", [passing: [.failed]])
        dirty.metadata.gitTreeDirty = true
        XCTAssertEqual(l.recording(dirty).standing(of: passing).flakyRuns, 0)
        XCTAssertEqual(l.recording(run("r3", at: 300, commit: "abc", [passing: [.failed]])).standing(of: passing).flakyRuns, 1)
        // A pass after a failure at the same commit is the same flake; at another commit it is
        // a fix, not a flake.
        let fixed = FlakeLedger()
            .recording(run("a", at: 1, commit: "c1", [failing: [.failed]]))
            .recording(run("b", at: 2, commit: "c2", [failing: [.passed]]))
        XCTAssertEqual(fixed.standing(of: failing).flakyRuns, 0)
        XCTAssertEqual(fixed.standing(of: failing).cleanStreak, 1)
        // No commit known: only flakes within a run count.
        let blind = FlakeLedger()
            .recording(run("a", at: 1, commit: nil, [failing: [.passed]]))
            .recording(run("b", at: 2, commit: nil, [failing: [.failed]]))
            .recording(run("c", at: 3, commit: nil, [failing: [.failed, .passed]]))
        XCTAssertEqual(blind.standing(of: failing).flakyRuns, 1)
        XCTAssertEqual(blind.standing(of: failing).flakyCommits, [])
    }

    /// Repetitions are runs of their test at that commit; another engine is another test; a
    /// quarantined verdict is kept as what it was.
    func testRepetitionsFoldIntoTheirTestAndBrowsersStayApart() {
        let rep1 = TestID("M.C/t", repetition: .init(index: 1, count: 2)), rep2 = TestID("M.C/t", repetition: .init(index: 2, count: 2))
        let webkit = TestID("M.C/t", repetition: nil, browser: "webkit")
        let l = FlakeLedger().recording(run("r", at: 1, commit: "c", [rep1: [.passed], rep2: [.failed], webkit: [.failed]]))
        XCTAssertEqual(l.standing(of: TestID("M.C/t")).flakyRuns, 1)
        XCTAssertEqual(l.standing(of: rep2).runs, 1)
        XCTAssertEqual(l.standing(of: webkit).flakyRuns, 0)
        XCTAssertEqual(l.tests.count, 2)
        var quarantined = run("q", at: 2, commit: "c", [webkit: [.passed]]).tests[0]
        quarantined = TestRecord(id: webkit, attempts: [Attempt(number: 1, outcome: .failed, duration: 0, start: 0,
                                                                placement: .init(shard: 0, batch: 0))],
                                 quarantined: true)
        XCTAssertEqual(quarantined.outcome, .quarantined)
        XCTAssertEqual(FlakeLedger.Verdicts(quarantined), .failed)
    }

    /// Recording a run twice, or merging two folders that both hold it (partitions carried
    /// from one cache), counts it once; folders that never shared a history add up.
    func testMergingCountsEveryRunOnce() {
        var base = FlakeLedger()
        for k in 0..<60 {
            base = base.recording(run("b\(k)", at: Double(k), commit: "c\(k / 2)", [alternating: [k % 2 == 0 ? .passed : .failed]]))
        }
        XCTAssertEqual(base.recording(run("b59", at: 59, commit: "c29", [alternating: [.failed]])), base)
        let one = base.recording(run("R", at: 100, commit: "x", [alternating: [.failed, .passed]]))
        let two = base.recording(run("R", at: 101, commit: "x", [passing: [.passed]]))
        let merged = FlakeLedger.merged([one, two])
        XCTAssertEqual(merged.standing(of: alternating).runs, 61)
        XCTAssertEqual(merged.standing(of: alternating).flakyRuns, 31)
        XCTAssertEqual(merged.standing(of: passing).runs, 1)
        XCTAssertEqual(merged.runs.count, FlakeLedger.window)
        XCTAssertEqual(merged, FlakeLedger.merged([merged, one, two]))
        // Two machines of a queue run: a pass on one and a failure on the other is a flake.
        let m1 = FlakeLedger().recording(run("Q", at: 1, commit: "q", [failing: [.passed]]))
        let m2 = FlakeLedger().recording(run("Q", at: 1, commit: "q", [failing: [.failed]]))
        XCTAssertEqual(FlakeLedger.merged([m1, m2]).standing(of: failing).flakyRuns, 1)
        // Disjoint folders: their runs add up.
        let d1 = FlakeLedger().recording(run("d1", at: 1, commit: "a", [failing: [.failed]]))
        let d2 = FlakeLedger().recording(run("d2", at: 2, commit: "a", [failing: [.passed]]))
        XCTAssertEqual(FlakeLedger.merged([d1, d2]).standing(of: failing).runs, 2)
        XCTAssertEqual(FlakeLedger.merged([d1, d2]).standing(of: failing).flakyRuns, 1)
    }

    /// What leaves the window is folded into the past without changing any number: a ledger of
    /// 200 runs with a window of 50 says what one with a window of 1,000 says.
    func testRunsLeavingTheWindowKeepTheirCounts() {
        var rng = SplitMix(seed: 52)
        var small = FlakeLedger(), large = FlakeLedger()
        let ids = (0..<6).map { TestID("M.C/t\($0)") }
        for k in 0..<200 {
            var outcomes: [TestID: [AttemptOutcome]] = [:]
            for (i, id) in ids.enumerated() where rng.next() % 7 != 0 {
                let roll = rng.next() % 20
                outcomes[id] = roll < UInt64(i) ? [.failed, .passed] : roll < UInt64(2 * i) ? [.failed] : [.passed]
            }
            // Three runs per commit, sometimes a run of an older commit again.
            let commit = rng.next() % 10 == 0 ? "c\(max(0, k / 3 - 1))" : "c\(k / 3)"
            let r = run("r\(k)", at: Double(1000 + k), commit: commit, outcomes)
            small = small.recording(r)
            large = large.recording(r, window: 1000)
        }
        XCTAssertEqual(small.runs.count, FlakeLedger.window)
        for id in ids {
            let s = small.standing(of: id), l = large.standing(of: id)
            XCTAssertEqual(s.runs, l.runs, "\(id)")
            XCTAssertEqual(s.flakyRuns, l.flakyRuns, "\(id)")
            XCTAssertEqual(s.flakyCommits, l.flakyCommits, "\(id)")
            XCTAssertEqual(s.lastFlaky, l.lastFlaky, "\(id)")
            XCTAssertEqual(s.cleanStreak, l.cleanStreak, "\(id)")
        }
        XCTAssertGreaterThan(large.standing(of: ids[5]).flakyRuns, 20)
        XCTAssertEqual(large.standing(of: ids[0]).flakyRuns, large.standing(of: ids[0]).flakyRunIDs.count)
    }

    /// The ledger travels in history.json and comes back the same; a bad one is dropped with
    /// a warning naming the file and the key, and the runs' history survives it.
    func testTheLedgerRoundTripsAndABadOneFailsSafe() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("ledger-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let webkit = TestID("M.C/q\"uote", repetition: nil, browser: "webkit")
        var h = RunHistory()
        for k in 0..<55 {
            h = h.recording(run("r\(k)", at: Double(k + 1), commit: "c\(k / 2)", [alternating: [k % 3 == 0 ? .failed : .passed], webkit: [.failed, .passed]]))
        }
        let url = dir.appendingPathComponent("history.json")
        try h.encoded().write(to: url)
        let (loaded, warning) = RunHistory.load(from: url)
        XCTAssertNil(warning)
        XCTAssertEqual(loaded.ledger, h.ledger)
        XCTAssertEqual(loaded, h)
        XCTAssertEqual(loaded.ledger?.standing(of: webkit).flakyRuns, 55)
        // JSONEncoder writes what `encoded()` does.
        let viaEncoder = try JSONDecoder().decode(RunHistory.self, from: JSONEncoder().encode(h))
        XCTAssertEqual(viaEncoder.ledger, h.ledger)

        var text = try String(contentsOf: url, encoding: .utf8)
        text = text.replacingOccurrences(of: "\"c\":\"", with: "\"c\":\"9", options: [], range: text.range(of: "\"c\":\""))
        try text.write(to: url, atomically: true, encoding: .utf8)
        let (bad, badWarning) = RunHistory.load(from: url)
        XCTAssertNil(bad.ledger)
        XCTAssertEqual(bad.runs, h.runs)
        XCTAssertEqual(bad.tests, h.tests)
        let w = try XCTUnwrap(badWarning)
        XCTAssertTrue(w.contains(url.path + ": key 'ledger' is unreadable"), w)
        XCTAssertTrue(w.contains("has a cell '9'"), w)
        XCTAssertTrue(w.contains("delete the key 'ledger'"), w)
        let copies = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasPrefix("history.json.ledger-corrupt-") }
        XCTAssertEqual(copies.count, 1)

        for (broken, says) in [
            ("\"ledger\":{\"format\":\"robotci-ledger-v9\",\"runs\":[],\"tests\":[]}", "format 'robotci-ledger-v9'"),
            ("\"ledger\":[1]", "not a flake ledger"),
            ("\"ledger\":{\"format\":\"robotci-ledger-v1\",\"runs\":[],\"tests\":[{\"c\":\"1\",\"id\":{\"test\":\"x\"}}]}", "1 cells for 0 runs"),
            ("\"ledger\":{\"format\":\"robotci-ledger-v1\",\"runs\":[],\"tests\":[{\"c\":\"\",\"id\":{\"test\":\"x\"},\"p\":{\"runs\":1,\"flakyRuns\":2}}]}", "impossible counts"),
            ("\"ledger\":{\"format\":\"robotci-ledger-v1\",\"runs\":[],\"tests\":[{\"c\":\"\",\"id\":{\"test\":\"x\"},\"p\":{\"runs\":9,\"flakyRuns\":1,\"flakyCommits\":[\"a\",\"b\"]}}]}", "impossible counts"),
        ] {
            let json = "{\"format\":\"robotci-history-v1\",\(broken),\"runs\":[],\"tests\":{}}"
            try json.write(to: url, atomically: true, encoding: .utf8)
            let (h2, w2) = RunHistory.load(from: url, moveAside: false)
            XCTAssertNil(h2.ledger)
            XCTAssertTrue(w2?.contains(says) == true, w2 ?? "no warning")
        }
    }

    /// 10,000 tests × 200 runs, each test flaky at a new commit every third run (the worst
    /// case for the capped lists): the ledger stops growing once the window is full.
    func testTenThousandTestsOverTwoHundredRunsStayBounded() throws {
        let ids = (0..<10_000).map { TestID("BigModule.SomeUITests/testScenario\($0)") }
        var l = FlakeLedger()
        var sizeAt: [Int: Int] = [:]
        for k in 0..<200 {
            let commit = String(repeating: String(format: "%08x", k), count: 5)
            var single = FlakeLedger(runs: [.init(id: "run-\(k)", commit: commit, startedAt: Double(1_700_000_000 + k * 600))])
            for (i, id) in ids.enumerated() {
                single.tests[id] = .init(cells: [(i + k) % 3 == 0 ? .flakyInRun : (i + k) % 3 == 1 ? .passed : .failed])
            }
            l = FlakeLedger.merged([l, single])
            if k == 99 || k == 199 { sizeAt[k + 1] = l.encodedBytes().count }
        }
        let s = l.standing(of: ids[7])
        XCTAssertEqual(s.runs, 200)
        XCTAssertEqual(s.flakyCommits.count, FlakeLedger.commitCap)
        XCTAssertGreaterThanOrEqual(s.flakyRuns, 66)
        let at100 = try XCTUnwrap(sizeAt[100]), at200 = try XCTUnwrap(sizeAt[200])
        // Per test: its id, 50 cells and a past of 5 commits of 40 characters: under 480 bytes.
        XCTAssertLessThan(at200, 10_000 * 480 + 50 * 200, "\(at200) bytes")
        XCTAssertLessThanOrEqual(at200, at100 + at100 / 100, "grew from \(at100) to \(at200) bytes")
        print("ledger of 10,000 tests after 100 runs: \(at100) bytes; after 200 runs: \(at200) bytes")
    }
}
