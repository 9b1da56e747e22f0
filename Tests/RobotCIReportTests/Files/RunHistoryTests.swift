import Foundation
import RobotCICore
@testable import RobotCIReport
import XCTest

final class RunHistoryTests: XCTestCase {
    private static func id(_ text: String) -> TestID {
        guard let r = text.range(of: " (repeat "), let k = Int(text[r.upperBound...].prefix { $0.isNumber }) else { return TestID(text) }
        let n = Int(text.dropLast().split(separator: " ").last ?? "") ?? k
        return TestID(String(text[..<r.lowerBound]), repetition: .init(index: k, count: n))
    }

    /// A run with `outcomes` by id (` (repeat k of n)` at the end: a repetition, written here as
    /// text for brevity; the files hold it as data).
    private func run(_ id: String, at time: Double, _ outcomes: [String: [AttemptOutcome]], commit: String? = nil) -> RunResult {
        let tests = outcomes.keys.sorted().map { name in
            TestRecord(id: Self.id(name), attempts: outcomes[name]!.enumerated().map { n, o in
                Attempt(number: n + 1, outcome: o, duration: 0.5 + Double(n), start: 0, placement: .init(shard: 0, batch: 0))
            })
        }
        var meta = RunMetadata(runID: id, startedAt: time, wallTime: 1, shards: 1, retries: 2, robotciVersion: "t")
        meta.gitCommit = commit
        return RunResult(metadata: meta, tests: tests, batches: [])
    }

    func testFiveRunsOfATestThatFlakesEveryOtherRunSuggestQuarantine() {
        var h = RunHistory()
        for k in 0..<5 {
            let wobbly: [AttemptOutcome] = k % 2 == 0 ? [.failed, .passed] : [.passed]
            h = h.recording(run("r\(k)", at: Double(1000 + k), ["A/wobbly": wobbly, "A/steady": [.passed]], commit: "c\(k)"))
        }
        XCTAssertEqual(h.runs.map(\.id), ["r0", "r1", "r2", "r3", "r4"])
        XCTAssertEqual(h.runs.last?.commit, "c4")
        XCTAssertEqual(h.tests["A/wobbly"]?.o, "KPKPK")
        XCTAssertEqual(h.tests["A/wobbly"]?.a, [2, 1, 2, 1, 2])
        XCTAssertEqual(h.tests["A/steady"]?.o, "PPPPP")
        let s = h.quarantineSuggestions()
        XCTAssertEqual(s.map(\.id), ["A/wobbly"])
        XCTAssertEqual(s.first?.flaky, 3)
        XCTAssertEqual(s.first?.runs, 5)
        // Four runs are too few to judge.
        var four = RunHistory()
        for k in 0..<4 { four = four.recording(run("r\(k)", at: Double(k + 1), ["A/wobbly": [.failed, .passed]])) }
        XCTAssertTrue(four.quarantineSuggestions().isEmpty)
        // Already quarantined tests are not suggested again.
        XCTAssertTrue(h.quarantineSuggestions(excluding: { $0 == "A/wobbly" }).isEmpty)
        XCTAssertEqual(RunHistory.quarantineYAML(["A.B/test[1]"]), "quarantine:\n  - '^A\\.B/test\\[1\\]$'\n")
    }

    /// `--repeat-each` burn-ins are no runs of the suite: a test flaking in 3 of 5 repetitions
    /// must not get a 60 % flake rate, and a run of repetitions only adds no column.
    /// A run records how many batches it held at once (time-weighted mean, rounded) on how many
    /// shards; the next run on as many shards starts its adaptive concurrency there.
    func testARunRecordsTheConcurrencyItHeldForTheNextOnAsManyShards() throws {
        func concurrent(_ id: String, at time: Double, shards: Int, _ series: [(Double, Int)], interrupted: Bool = false) -> RunResult {
            var r = run(id, at: time, ["M.C/a": [.passed]])
            r.metadata.shards = shards
            r.metadata.interrupted = interrupted
            r.metadata.concurrency = series.map { ConcurrencySample(time: $0.0, running: $0.1) }
            return r
        }
        var history = RunHistory()
        history = history.recording(concurrent("r1", at: 1, shards: 8, [(0, 2), (0.4, 8), (6, 0)]))
        XCTAssertEqual(history.heldConcurrency(shards: 8), 8, "2 for 0.4 s, then 8 for 5.6 s: 7.6, rounded")
        XCTAssertNil(history.heldConcurrency(shards: 4), "nothing learnt on 4 shards")
        history = history.recording(concurrent("r2", at: 2, shards: 4, [(0, 2), (4, 0)]))
        XCTAssertEqual(history.heldConcurrency(shards: 4), 2)
        XCTAssertEqual(history.heldConcurrency(shards: 8), 8, "the newest run on 8 shards")
        history = history.recording(concurrent("r3", at: 3, shards: 8, [(0, 1), (1, 0)], interrupted: true))
        XCTAssertEqual(history.heldConcurrency(shards: 8), 8, "an interrupted run teaches nothing")
        var governed = concurrent("r4", at: 4, shards: 8, [(0, 8), (1, 4), (6, 0)])
        governed.metadata.nextConcurrency = 2
        XCTAssertEqual(history.recording(governed).heldConcurrency(shards: 8), 2, "where the governor says the next run starts")

        let old = Data(#"{"format":"robotci-history-v1","runs":[{"id":"x","startedAt":1}],"tests":{}}"#.utf8)
        let decoded = try JSONDecoder().decode(RunHistory.self, from: old)
        XCTAssertNil(decoded.heldConcurrency(shards: 8), "a history from before reads as no knowledge")
        let again = try JSONDecoder().decode(RunHistory.self, from: history.encoded())
        XCTAssertEqual(again.heldConcurrency(shards: 8), 8)
    }

    /// Each run records how many tests it ran, so the batches of a big run are not cut after
    /// a small filtered one, which held few batches for want of work.
    func testTheHeldConcurrencyOfARunAsBigAsTheNext() throws {
        func concurrent(_ id: String, at time: Double, tests: Int, held: Int) -> RunResult {
            let outcomes: [String: [AttemptOutcome]] = Dictionary(uniqueKeysWithValues: (0..<tests).map { ("M.C/t\($0)", [.passed]) })
            var r = run(id, at: time, outcomes)
            r.metadata.shards = 8
            r.metadata.concurrency = [ConcurrencySample(time: 0, running: held), ConcurrencySample(time: 1, running: 0)]
            return r
        }
        var history = RunHistory().recording(concurrent("full", at: 1, tests: 40, held: 3))
        history = history.recording(concurrent("filtered", at: 2, tests: 2, held: 2))
        XCTAssertEqual(history.heldConcurrency(shards: 8), 2, "the governor starts where the newest run held")
        XCTAssertEqual(history.heldConcurrency(shards: 8, atLeastTests: 20), 3, "the cut: the newest run of at least 20")
        XCTAssertNil(history.heldConcurrency(shards: 8, atLeastTests: 41))
        let before = RunHistory(runs: [.init(id: "x", startedAt: 1, commit: nil, concurrency: .init(shards: 8, held: 3))])
        XCTAssertNil(before.heldConcurrency(shards: 8, atLeastTests: 1), "a run without its count is not known to be as big")
        let again = try JSONDecoder().decode(RunHistory.self, from: history.encoded())
        XCTAssertEqual(again.heldConcurrency(shards: 8, atLeastTests: 40), 3)
    }

    func testRepetitionsStayOutOfTheHistory() {
        var h = RunHistory()
        for k in 0..<5 { h = h.recording(run("r\(k)", at: Double(k + 1), ["A/wobbly": [.passed]])) }
        let wobbly = TestID("A/wobbly")
        var burnIn: [String: [AttemptOutcome]] = [:]
        for k in 1...5 { burnIn[wobbly.repetition(k, of: 5).description] = k % 2 == 1 ? [.failed, .passed] : [.passed] }
        let after = h.recording(run("burn-in", at: 10, burnIn))
        XCTAssertEqual(after.runs, h.runs, "a run of repetitions only leaves the runs as they were")
        XCTAssertEqual(after.tests, h.tests)
        // The flake ledger keeps it: a burn-in is runs of its test at that commit.
        XCTAssertEqual(after.ledger?.standing(of: wobbly).flakyRuns, 1)
        XCTAssertTrue(after.quarantineSuggestions().isEmpty)
        burnIn["A/other"] = [.passed]
        let mixed = h.recording(run("mixed", at: 11, burnIn))
        XCTAssertEqual(mixed.runs.last?.id, "mixed")
        XCTAssertEqual(Set(mixed.tests.keys), ["A/wobbly", "A/other"], "the repetitions get no rows")
        XCTAssertEqual(mixed.tests["A/wobbly"]?.o, "PPPPP-")
    }

    func testKeepsTheNewestThirtyRuns() {
        var h = RunHistory()
        for k in 0..<35 { h = h.recording(run("r\(k)", at: Double(k + 1), ["A/t\(k % 3)": [.passed]])) }
        XCTAssertEqual(h.runs.count, 30)
        XCTAssertEqual(h.runs.first?.id, "r5")
        XCTAssertEqual(h.runs.last?.id, "r34")
        for t in h.tests.values { XCTAssertEqual(t.o.count, 30); XCTAssertEqual(t.d.count, 30); XCTAssertEqual(t.a.count, 30) }
        XCTAssertEqual(h.tests["A/t0"]?.o.filter { $0 == "P" }.count, 10)
    }

    func testPartitionsOfOneRunFoldAndDistinctRunsStay() {
        let older = RunHistory().recording(run("r1", at: 10, ["A/x": [.passed], "B/y": [.failed]]))
        let p1 = older.recording(run("r2", at: 20, ["A/x": [.failed, .passed]]))
        let p2 = older.recording(run("r2", at: 21, ["B/y": [.passed]]))
        let merged = p1.merged(with: p2)
        XCTAssertEqual(merged.runs.map(\.id), ["r1", "r2"])
        XCTAssertEqual(merged.tests["A/x"]?.o, "PK")
        XCTAssertEqual(merged.tests["B/y"]?.o, "FP")
        XCTAssertEqual(merged.column(of: "r2+r2"), 1)
        let other = RunHistory().recording(run("r3", at: 5, ["C/z": [.passed]]))
        let all = merged.merged(with: other)
        XCTAssertEqual(all.runs.map(\.id), ["r3", "r1", "r2"], "runs in start order")
        XCTAssertEqual(all.tests["C/z"]?.o, "P--")
        XCTAssertEqual(all.tests["A/x"]?.d, [-1, 500, 1500])
    }

    /// Merge folds every input's history in one pass; it must come out as folding them pair
    /// by pair did: partitions of one run in one column, later values winning, newest 30 runs.
    func testMergingManyAtOnceIsMergingPairByPair() {
        var earlier = RunHistory()
        for k in 0..<29 { earlier = earlier.recording(run("r\(k)", at: Double(100 + k), ["A/t\(k % 4)": [.passed], "B/u": k % 3 == 0 ? [.failed, .passed] : [.passed]])) }
        var inputs: [RunHistory] = []
        for p in 0..<7 {
            let own = p % 2 == 0 ? earlier : RunHistory()
            inputs.append(own.recording(run("ci-9", at: Double(200 + p), ["P/t\(p)": p == 3 ? [.failed] : [.passed], "B/u": [.passed]], commit: p == 5 ? "c5" : nil)))
        }
        inputs.append(RunHistory().recording(run("old", at: 50, ["A/t1": [.failed]])))
        let pairwise = inputs.reduce(RunHistory()) { $0.merged(with: $1) }
        XCTAssertEqual(RunHistory.merged(inputs), pairwise)
        XCTAssertEqual(RunHistory.merged([RunHistory()] + inputs), pairwise)
        XCTAssertEqual(pairwise.runs.count, 30)
        XCTAssertEqual(pairwise.runs.last?.id, "ci-9")
        XCTAssertEqual(pairwise.runs.last?.commit, "c5")
        XCTAssertEqual(pairwise.tests["P/t3"]?.o.last, "F")
    }

    func testACorruptHistoryIsKeptAsideAndAFreshOneStarts() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("robotci-history-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("history.json")
        XCTAssertEqual(RunHistory.load(from: url).history, RunHistory())
        XCTAssertNil(RunHistory.load(from: url).warning, "no file: no warning")
        try Data("{\"format\":\"robotci-history-v1\",\"runs\":[".utf8).write(to: url)
        let (h, warning) = RunHistory.load(from: url)
        XCTAssertEqual(h, RunHistory())
        let w = try XCTUnwrap(warning)
        XCTAssertTrue(w.contains("starting a fresh history"), w)
        XCTAssertFalse(FileManager.default.fileExists(atPath: url.path))
        let aside = try FileManager.default.contentsOfDirectory(atPath: dir.path)
        XCTAssertEqual(aside.count, 1)
        XCTAssertTrue(aside[0].hasPrefix("history.json.corrupt-"), aside[0])
        // Outcomes that do not line up with the run table are refused too.
        try Data(#"{"format":"robotci-history-v1","runs":[{"id":"a","startedAt":1}],"tests":{"A/x":{"o":"PP","d":[1],"a":[1]}}}"#.utf8).write(to: url)
        XCTAssertTrue(RunHistory.load(from: url).warning?.contains("A/x") == true)
    }

    func testTheWriterCarriesTheHistoryIntoTheFolderOrElsewhere() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("robotci-history-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = run("r1", at: 1, ["A/x": [.passed]])
        let h = RunHistory().recording(r)
        try ReportWriter.write(r, timings: Timings(), history: h, to: dir.appendingPathComponent("report"))
        XCTAssertEqual(RunHistory.load(from: dir.appendingPathComponent("report/history.json")).history, h)
        let elsewhere = dir.appendingPathComponent("cache/h.json")
        try ReportWriter.write(r, timings: Timings(), history: h, historyURL: elsewhere, to: dir.appendingPathComponent("report2"))
        XCTAssertEqual(RunHistory.load(from: elsewhere).history, h)
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.appendingPathComponent("report2/history.json").path))
    }

    /// Each engine's runs of a test are kept apart (`--browsers`): flaky on WebKit only is
    /// flaky there, and the file keeps them through a write and a read, and through a merge.
    func testEachBrowserHasItsOwnColumnOfATest() throws {
        func matrix(_ id: String, at time: Double, chromium: [AttemptOutcome], webkit: [AttemptOutcome]) -> RunResult {
            var result = run(id, at: time, ["A/t": chromium])
            let attempts = webkit.enumerated().map { n, o in Attempt(number: n + 1, outcome: o, duration: 2, start: 0,
                                                                     placement: .init(shard: 0, batch: 0)) }
            result.tests.append(TestRecord(id: TestID("A/t", repetition: nil, browser: "webkit"), attempts: attempts))
            return result
        }
        var h = RunHistory()
        h = h.recording(matrix("r1", at: 1000, chromium: [.passed], webkit: [.failed, .passed]))
        h = h.recording(matrix("r2", at: 1001, chromium: [.passed], webkit: [.failed, .failed, .failed]))
        h = h.recording(run("r3", at: 1002, ["A/t": [.passed]]))
        XCTAssertEqual(h.tests["A/t"]?.o, "PPP")
        XCTAssertEqual(h.browsers?["webkit"]?["A/t"]?.o, "KF-")
        XCTAssertEqual(h.test(TestID("A/t", repetition: nil, browser: "webkit"))?.a, [2, 3, 0])
        XCTAssertEqual(h.passingDurations(browser: "webkit")["A/t"], [2])
        XCTAssertEqual(h.browserPassingDurations().keys.sorted(), ["webkit"])

        let read = try JSONDecoder().decode(RunHistory.self, from: h.encoded())
        XCTAssertEqual(read, h)
        let other = RunHistory().recording(matrix("r4", at: 1003, chromium: [.failed], webkit: [.passed]))
        let merged = RunHistory.merged([h, other])
        XCTAssertEqual(merged.tests["A/t"]?.o, "PPPF")
        XCTAssertEqual(merged.browsers?["webkit"]?["A/t"]?.o, "KF-P")
        XCTAssertNil(RunHistory().recording(run("r5", at: 1, ["A/t": [.passed]])).browsers, "a run of the default engine writes no browsers")
    }
}
