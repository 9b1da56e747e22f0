import Foundation
import RobotCICore

/// `history.json`: the last runs (30 by default) of every test, carried from run to run
/// like `timings.json`, so the report can say whether a test is getting worse and how
/// often it flakes.
///
/// Compact on purpose: one shared run table, and per test one letter per run (aligned with
/// the run table, `-` when the test did not run), its duration (ms, -1 when absent) and
/// attempts per run.
public struct RunHistory: Codable, Sendable, Equatable {
    public static let formatName = "robotci-history-v1"
    public static let defaultLimit = 30

    public struct Run: Codable, Sendable, Equatable {
        public var id: String
        /// Seconds since 1970.
        public var startedAt: Double
        public var commit: String?
        /// How many batches the run held at once (its time-weighted mean, rounded), on how
        /// many shards: where the next run on as many shards starts its adaptive concurrency.
        public var concurrency: HeldConcurrency?

        public init(id: String, startedAt: Double, commit: String?, concurrency: HeldConcurrency? = nil) {
            self.id = id
            self.startedAt = startedAt
            self.commit = commit
            self.concurrency = concurrency
        }
    }

    public struct HeldConcurrency: Codable, Sendable, Equatable {
        public var shards: Int
        public var held: Int
        /// How many tests the run ran (absent in histories written before it was kept): a
        /// run of three filtered tests holds few batches for want of work, not of CPU.
        public var tests: Int?

        public init(shards: Int, held: Int, tests: Int? = nil) {
            self.shards = shards
            self.held = held
            self.tests = tests
        }
    }

    /// What the newest run on `shards` shards held, if one recorded it; with `atLeastTests`,
    /// the newest that ran at least that many tests (a run as big as the one to plan).
    public func heldConcurrency(shards: Int, atLeastTests: Int = 0) -> Int? {
        runs.last { run in
            guard let held = run.concurrency, held.shards == shards else { return false }
            return atLeastTests == 0 || (held.tests ?? 0) >= atLeastTests
        }?.concurrency?.held
    }

    public struct Test: Codable, Sendable, Equatable {
        /// One letter per run: `Outcome.letter`, or `-` (`notInRun`) when the test did not run.
        public var o: String
        /// Milliseconds per run (-1: not run).
        public var d: [Int]
        /// Attempts per run (0: not run).
        public var a: [Int]

        public init(o: String, d: [Int], a: [Int]) {
            self.o = o
            self.d = d
            self.a = a
        }
    }

    public var format = RunHistory.formatName
    /// Oldest first.
    public var runs: [Run]
    /// The default engine's runs of each test, by the test's own id.
    public var tests: [String: Test]
    /// Every other engine's (`--browsers`), by browser, then the test's own id; nil: none ran.
    /// Kept apart so a test flaky on WebKit only is flaky there, not on Chromium.
    public var browsers: [String: [String: Test]]?
    /// The flake ledger (`FlakeLedger`): every test's flaky runs and commits, beyond `runs`.
    public var ledger: FlakeLedger?

    public init(runs: [Run] = [], tests: [String: Test] = [:], browsers: [String: [String: Test]]? = nil) {
        self.runs = runs
        self.tests = tests
        self.browsers = browsers
    }

    /// The runs of `id`'s test on `id`'s browser (its repetition aside).
    public func test(_ id: TestID) -> Test? {
        guard let browser = id.browser else { return tests[id.test] }
        return browsers?[browser]?[id.test]
    }

    /// Each engine's tests: the default's under nil.
    public var engines: [(browser: String?, tests: [String: Test])] {
        [(nil, tests)] + (browsers ?? [:]).sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }

    /// A test's letter in a run it did not run in (the others are `Outcome.letter`).
    public static let notInRun: Character = "-"

    /// This history with `result` as a run: a run with the same id (another partition of
    /// the same CI run) is folded into its column; otherwise a new column. Keeps the
    /// newest `limit` runs.
    /// Repetitions (`--repeat-each`, `--until-failure`) are no run of the suite: they are left
    /// out (a burn-in of one flaky test must not set its flake rate), and a run of nothing else
    /// adds no column.
    public func recording(_ result: RunResult, limit: Int = RunHistory.defaultLimit) -> RunHistory {
        let m = result.metadata
        let tests = result.tests.filter { $0.id.repetition == nil }
        // The ledger keeps every engine and repetition (a burn-in is runs of its test).
        let ledger = (self.ledger ?? FlakeLedger()).recording(result)
        guard !tests.isEmpty || result.tests.isEmpty else {
            var same = self
            same.ledger = ledger
            return same
        }
        // A run cut short says little of what the suite can hold.
        let held = m.concurrency.flatMap { series -> HeldConcurrency? in
            guard !m.interrupted, m.stop == nil, series.mean > 0 else { return nil }
            return HeldConcurrency(shards: m.shards, held: m.nextConcurrency ?? max(1, Int(series.mean.rounded())), tests: tests.count)
        }
        var single = RunHistory(runs: [Run(id: m.runID, startedAt: m.startedAt, commit: m.gitCommit, concurrency: held)])
        for t in tests {
            let entry = Test(o: String(t.outcome.letter), d: [Int((t.representativeDuration * 1000).rounded())], a: [t.attempts.count])
            if let browser = t.id.browser {
                single.browsers = single.browsers ?? [:]
                single.browsers?[browser, default: [:]][t.id.test] = entry
            } else {
                single.tests[t.id.test] = entry
            }
        }
        var out = merged(with: single, limit: limit)
        out.ledger = ledger
        return out
    }

    /// Both histories in one: runs with the same id become one column (a test's later
    /// value wins), distinct runs are kept in start order, the newest `limit` stay.
    public func merged(with other: RunHistory, limit: Int = RunHistory.defaultLimit) -> RunHistory {
        Self.merged([self, other], limit: limit)
    }

    /// All of `histories` in one, as `merged(with:)` joins two (runs with the same id are one
    /// column, a later history's value wins, the newest `limit` runs stay), in one pass over
    /// each: merging 1,000 partitions' histories pair by pair rebuilt every test seen so far
    /// at each step.
    public static func merged(_ histories: [RunHistory], limit: Int = RunHistory.defaultLimit) -> RunHistory {
        let sorted = RunColumns.joined(histories.lazy.flatMap(\.runs)) { run, other in
            if run.concurrency == nil { run.concurrency = other.concurrency }
        }
        let kept = Array(sorted.suffix(max(1, limit)))
        var column: [String: Int] = [:]
        for (i, r) in kept.enumerated() { column[r.id] = i }

        var out = RunHistory(runs: kept)
        let ledgers = histories.compactMap(\.ledger)
        out.ledger = ledgers.isEmpty ? nil : FlakeLedger.merged(ledgers)
        out.tests = mergedTests(histories.map { ($0.runs, $0.tests) }, columns: column, count: kept.count)
        let browsers = Set(histories.lazy.flatMap { ($0.browsers ?? [:]).keys })
        for browser in browsers.sorted() {
            let merged = mergedTests(histories.map { ($0.runs, $0.browsers?[browser] ?? [:]) }, columns: column, count: kept.count)
            if !merged.isEmpty {
                out.browsers = out.browsers ?? [:]
                out.browsers?[browser] = merged
            }
        }
        return out
    }

    /// One engine's tests of `sources` in the kept runs' `columns`.
    private static func mergedTests(_ sources: [(runs: [Run], tests: [String: Test])], columns column: [String: Int], count n: Int)
        -> [String: Test]
    {
        // Per test, byte columns filled in place; strings made once at the end.
        let dash = UInt8(ascii: "-")  // notInRun
        var cells: [String: (o: [UInt8], d: [Int], a: [Int])] = [:]
        cells.reserveCapacity(sources.map(\.tests.count).max() ?? 0)
        for source in sources {
            let target = source.runs.map { column[$0.id] ?? -1 }
            guard target.contains(where: { $0 >= 0 }) else { continue }
            for (id, t) in source.tests {
                let letters = Array(t.o.utf8)
                var entry = cells[id] ?? (Array(repeating: dash, count: n), Array(repeating: -1, count: n), Array(repeating: 0, count: n))
                var touched = false
                for k in 0..<min(letters.count, target.count) where target[k] >= 0 && letters[k] != dash {
                    let c = target[k]
                    entry.o[c] = letters[k]
                    entry.d[c] = k < t.d.count ? t.d[k] : -1
                    entry.a[c] = k < t.a.count ? t.a[k] : 1
                    touched = true
                }
                if touched || cells[id] != nil { cells[id] = entry }
            }
        }
        var out: [String: Test] = [:]
        out.reserveCapacity(cells.count)
        for (id, e) in cells where e.o.contains(where: { $0 != dash }) {
            out[id] = Test(o: String(decoding: e.o, as: UTF8.self), d: e.d, a: e.a)
        }
        return out
    }

    /// Index of the column of `result` (its run id, or for a merged report, the newest
    /// column of one of the ids it joins with `+`).
    /// Seconds each test took in the runs it passed (flaky ones included: their passing
    /// attempt), oldest first: what a history-derived deadline (`TestDeadline`) is made of.
    /// On `browser`'s runs (nil: the default engine's): one engine's times say nothing of another's.
    public func passingDurations(browser: String? = nil) -> [String: [Double]] {
        let passing: Set<Character> = [Outcome.passed.letter, Outcome.flaky.letter]
        var out: [String: [Double]] = [:]
        for (id, test) in browser.map({ browsers?[$0] ?? [:] }) ?? tests {
            let values = zip(test.o, test.d).compactMap { letter, ms in passing.contains(letter) && ms >= 0 ? Double(ms) / 1000 : nil }
            if !values.isEmpty { out[id] = values }
        }
        return out
    }

    /// `passingDurations` of every other engine, by browser.
    public func browserPassingDurations() -> [String: [String: [Double]]] {
        var out: [String: [String: [Double]]] = [:]
        for browser in (browsers ?? [:]).keys { out[browser] = passingDurations(browser: browser) }
        return out
    }

    public func column(of runID: String) -> Int? {
        if let i = runs.lastIndex(where: { $0.id == runID }) { return i }
        let parts = Set(runID.split(separator: "+").map(String.init))
        return runs.lastIndex { parts.contains($0.id) }
    }

    // MARK: - Flakiness

    public struct Flakiness: Sendable, Equatable {
        public var id: String
        /// Runs the test ran in (not `-`, not skipped).
        public var runs: Int
        /// Runs it was flaky in (failed, then passed on a retry).
        public var flaky: Int
        public var rate: Double { runs == 0 ? 0 : Double(flaky) / Double(runs) }
    }

    /// Tests flaky in at least `minRate` of at least `minRuns` runs, worst first.
    public func quarantineSuggestions(minRate: Double = 0.2, minRuns: Int = 5, excluding: (String) -> Bool = { _ in false }) -> [Flakiness] {
        var out: [Flakiness] = []
        for (id, t) in tests where !excluding(id) {
            var ran = 0, flaky = 0
            for c in t.o where c != Self.notInRun && c != Outcome.skipped.letter {
                ran += 1
                if c == Outcome.flaky.letter { flaky += 1 }
            }
            let f = Flakiness(id: id, runs: ran, flaky: flaky)
            if ran >= minRuns && flaky > 0 && f.rate >= minRate { out.append(f) }
        }
        return out.sorted { $0.rate != $1.rate ? $0.rate > $1.rate : $0.id < $1.id }
    }

    /// The `quarantine:` block to paste into robotci.yml for `ids` (exact-match regexes).
    public static func quarantineYAML(_ ids: [String]) -> String {
        var s = "quarantine:\n"
        for id in ids {
            let pattern = "^" + regexEscaped(id) + "$"
            s += "  - '" + pattern.replacingOccurrences(of: "'", with: "''") + "'\n"
        }
        return s
    }

    /// `id` with regex metacharacters escaped (the same set the report's page escapes).
    public static func regexEscaped(_ id: String) -> String {
        var out = ""
        for c in id {
            if "\\^$.|?*+()[]{}".contains(c) { out.append("\\") }
            out.append(c)
        }
        return out
    }

    // MARK: - Files

    /// Reads a history file. Missing: an empty history. Corrupt or foreign: the file is
    /// moved aside (`<name>.corrupt-<time>`), a warning says so, and an empty history is
    /// returned, so a bad file never costs the run its results.
    public static func load(from url: URL, moveAside: Bool = true) -> (history: RunHistory, warning: String?) {
        guard RegularFile.kind(ofItemAt: url.path) != .missing else { return (RunHistory(), nil) }
        let data: Data
        do {
            data = try RegularFile.read(url.path, limit: RegularFile.historyLimit, what: "history file")
        } catch {
            // Not a regular file, or too big: left where it is (moving a FIFO or a device aside helps no one).
            return (RunHistory(), "\(error)" + (moveAside ? "; starting a fresh history" : ""))
        }
        do {
            let h = try JSONDecoder().decode(RunHistory.self, from: data)
            guard h.format == formatName else {
                throw HistoryError("format '\(h.format)' is not '\(formatName)'")
            }
            for (browser, tests) in h.engines {
                for (id, t) in tests where t.o.count != h.runs.count || t.d.count != h.runs.count || t.a.count != h.runs.count {
                    throw HistoryError("test '\(id)'\(browser.map { " on \($0)" } ?? "") has \(t.o.count) outcomes for \(h.runs.count) runs")
                }
                if let browser, !TestID.isBrowserName(browser) { throw HistoryError("'\(browser)' is not a browser engine name") }
            }
            return h.ledger?.problem == nil ? (h, nil) : h.droppingLedger(at: url, keepCopy: moveAside)
        } catch {
            let aside = url.path + ".corrupt-" + String(Int(Date().timeIntervalSince1970))
            let moved = moveAside && (try? FileManager.default.moveItem(atPath: url.path, toPath: aside)) != nil
            let reason = (error as? HistoryError)?.message ?? "not valid JSON history (\(error))"
            return (RunHistory(), "\(url.path) is unreadable: \(reason)"
                    + (moveAside ? "; starting a fresh history" : "") + (moved ? " (the bad file is kept as \(aside))" : ""))
        }
    }

    /// The file's bytes: the same JSON `JSONEncoder` would write (sorted keys), written by
    /// hand because Foundation's encoder takes most of a second for 10,000 tests × 30 runs.
    public func encoded() throws -> Data {
        var out: [UInt8] = []
        out.reserveCapacity(64 + runs.count * 96 + tests.count * (64 + runs.count * 8))
        func raw(_ s: String) { out.append(contentsOf: s.utf8) }
        func str(_ s: String) { JSONText.appendString(s, to: &out) }
        func ints(_ xs: [Int]) {
            out.append(UInt8(ascii: "["))
            for (i, x) in xs.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                raw(String(x))
            }
            out.append(UInt8(ascii: "]"))
        }
        func testMap(_ tests: [String: Test]) {
            raw("{")
            for (i, id) in tests.keys.sorted().enumerated() {
                guard let t = tests[id] else { continue }
                if i > 0 { raw(",") }
                str(id)
                raw(":{\"a\":"); ints(t.a)
                raw(",\"d\":"); ints(t.d)
                raw(",\"o\":"); str(t.o)
                raw("}")
            }
            raw("}")
        }
        raw("{")
        if let browsers {
            raw("\"browsers\":{")
            for (i, browser) in browsers.keys.sorted().enumerated() {
                if i > 0 { raw(",") }
                str(browser); raw(":"); testMap(browsers[browser] ?? [:])
            }
            raw("},")
        }
        raw("\"format\":"); str(format)
        if let ledger { raw(",\"ledger\":"); out.append(contentsOf: ledger.encodedBytes()) }
        raw(",\"runs\":[")
        for (i, r) in runs.enumerated() {
            if i > 0 { raw(",") }
            raw("{")
            if let c = r.commit { raw("\"commit\":"); str(c); raw(",") }
            if let c = r.concurrency {
                raw("\"concurrency\":{\"held\":\(c.held),\"shards\":\(c.shards)\(c.tests.map { ",\"tests\":\($0)" } ?? "")},")
            }
            raw("\"id\":"); str(r.id)
            raw(",\"startedAt\":"); raw(r.startedAt.isFinite ? (r.startedAt == r.startedAt.rounded() && abs(r.startedAt) < 1e15 ? String(Int(r.startedAt)) : String(r.startedAt)) : "0")
            raw("}")
        }
        raw("],\"tests\":"); testMap(tests)
        raw("}")
        return Data(out)
    }
}

struct HistoryError: Error {
    var message: String
    init(_ message: String) { self.message = message }
}
