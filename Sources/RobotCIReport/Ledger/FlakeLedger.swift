import Foundation
import RobotCICore

/// The flake ledger, carried in `history.json` (key `ledger`): per test, what the runs said of
/// it, so a flake is told from a failure across runs and commits, not only within one run.
///
/// A test is flaky at a commit when it was flaky within a run (failed, then passed on a retry),
/// or when runs at that commit gave it different verdicts. Its key is the test on its browser
/// engine (`TestID.unrepeated`): the repetitions of a burn-in are runs of the test at that
/// commit, so repetitions that disagree make it flaky there, and the burn-in is one run of it.
///
/// Bounded whatever the number of runs: the newest `window` runs keep one cell per test (which
/// verdicts that run gave it); a run that leaves the window is folded into the test's `past`
/// (counts, the newest `commitCap` flaky commits, when it last flaked, its clean streak). Every
/// number is derived from the window and the past, so recording a run twice, or merging two
/// folders that both hold it, counts it once.
public struct FlakeLedger: Sendable, Equatable {
    public static let formatName = "robotci-ledger-v1"
    /// Runs kept cell by cell.
    public static let window = 50
    /// Flaky commits kept per test (the newest).
    public static let commitCap = 5

    /// One run of the window.
    public struct Run: Codable, Sendable, Equatable {
        public var id: String
        public var commit: String?
        /// Seconds since 1970.
        public var startedAt: Double

        public init(id: String, commit: String?, startedAt: Double) {
            self.id = id
            self.commit = commit
            self.startedAt = startedAt
        }
    }

    /// What the runs older than the window left of a test.
    public struct Past: Sendable, Equatable {
        public var runs = 0
        public var flakyRuns = 0
        /// Oldest first, at most `commitCap`.
        public var flakyCommits: [String] = []
        /// Start (seconds since 1970) of the newest flaky run.
        public var lastFlaky: Double?
        /// Clean runs (passed, not flaky) in a row up to the window's first run.
        public var clean = 0
        /// The verdicts archived runs gave at the commits runs of the window share (commit →
        /// `Verdicts` bits): a run in the window is compared with them.
        public var verdictsAt: [String: Int] = [:]

        public init() {}

        var isEmpty: Bool { self == Past() }
    }

    /// A test: its cells (one per window run) and its past.
    public struct Entry: Sendable, Equatable {
        public var cells: [Verdicts]
        public var past: Past

        public init(cells: [Verdicts], past: Past = Past()) {
            self.cells = cells
            self.past = past
        }
    }

    /// The verdicts one run gave a test (several with repetitions, or queue machines).
    public struct Verdicts: OptionSet, Sendable, Hashable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }

        public static let passed = Verdicts(rawValue: 1)
        public static let failed = Verdicts(rawValue: 2)
        /// Failed, then passed on a retry, within the run.
        public static let flakyInRun = Verdicts(rawValue: 4)
        public static let none: Verdicts = []

        /// Passed and failed, as far as comparing runs goes.
        var compared: Verdicts { contains(.flakyInRun) ? [.passed, .failed] : intersection([.passed, .failed]) }
        /// Flaky within this run alone: flaky on a retry, or repetitions that disagreed.
        var flakyAlone: Bool { contains(.flakyInRun) || compared == [.passed, .failed] }
        var isClean: Bool { self == .passed }

        /// The verdicts of one test record of a run, its quarantine set aside (a quarantined
        /// test failed or not); a skipped or unrun test gives none.
        public init(_ record: TestRecord) {
            switch Outcome.verdict(for: record.attempts.map(\.outcome)) {
            case .passed: self = .passed
            case .flaky: self = .flakyInRun
            case .failed, .timedOut, .crashed: self = .failed
            case .skipped, .notRun, .quarantined: self = .none
            }
        }
    }

    public var format = FlakeLedger.formatName
    /// Oldest first, at most `window`.
    public internal(set) var runs: [Run]
    public internal(set) var tests: [TestID: Entry]
    /// Why the stored ledger could not be read (set by decoding, which then yields an empty
    /// ledger rather than failing the history): `RunHistory.load` reports and drops it.
    public internal(set) var problem: String?

    public init(runs: [Run] = [], tests: [TestID: Entry] = [:]) {
        self.runs = runs
        self.tests = tests
    }

    /// This ledger with `result` as one run: a run with the same id (another partition of the
    /// same CI run) adds its verdicts to that run's cells.
    public func recording(_ result: RunResult, window: Int = FlakeLedger.window) -> FlakeLedger {
        let m = result.metadata
        var single = FlakeLedger(runs: [Run(id: m.runID, commit: Self.commit(of: m), startedAt: m.startedAt)])
        for t in result.tests {
            let v = Verdicts(t)
            guard v != .none else { continue }
            let key = t.id.unrepeated
            single.tests[key, default: Entry(cells: [.none])].cells[0].formUnion(v)
        }
        return Self.merged([self, single], window: window)
    }

    /// The commit a run's verdicts belong to: none for an edited tree (`gitTreeDirty`).
    public static func commit(of metadata: RunMetadata) -> String? {
        metadata.gitTreeDirty == true ? nil : metadata.gitCommit
    }

    /// All of `ledgers` in one: runs with the same id are one run (their verdicts joined), the
    /// newest `window` runs keep cells and what each ledger had beyond them goes to the past.
    /// Ledgers that share their past (partitions of one run, carried from one cache) keep it
    /// once: a test's past is the largest any of them holds.
    public static func merged(_ ledgers: [FlakeLedger], window: Int = FlakeLedger.window) -> FlakeLedger {
        let sorted = RunColumns.joined(ledgers.lazy.flatMap(\.runs))
        let kept = Array(sorted.suffix(max(1, window)))
        let keptIDs = Set(kept.map(\.id))
        var column: [String: Int] = [:]
        for (i, r) in kept.enumerated() { column[r.id] = i }

        var out = FlakeLedger(runs: kept)
        for ledger in ledgers {
            // What leaves the window goes to this ledger's past first, with this ledger's
            // context (the runs before it at the same commit).
            let own = ledger.archiving(keeping: keptIDs, windowCommits: Set(kept.compactMap(\.commit)))
            let target = own.runs.map { column[$0.id] ?? -1 }
            if out.tests.isEmpty && target == Array(target.indices) {
                // The usual first ledger (the history so far): its cells are already in place.
                out.tests = own.tests
                if target.count < kept.count {
                    for id in own.tests.keys { out.tests[id]?.cells.append(contentsOf: repeatElement(Verdicts.none, count: kept.count - target.count)) }
                }
                continue
            }
            for (id, e) in own.tests {
                var entry = out.tests.removeValue(forKey: id) ?? Entry(cells: Array(repeating: Verdicts.none, count: kept.count))
                for (k, v) in e.cells.enumerated() where k < target.count && target[k] >= 0 { entry.cells[target[k]].formUnion(v) }
                entry.past = Past.joined(entry.past, e.past)
                out.tests[id] = entry
            }
        }
        // A test the window no longer holds and of which nothing is left is dropped.
        for (id, e) in out.tests where e.past.isEmpty && !e.cells.contains(where: { $0 != .none }) { out.tests[id] = nil }
        return out
    }

    /// This ledger with every run outside `keep` folded into its tests' pasts, oldest first.
    /// `windowCommits`: the commits of the runs that stay, whose verdicts a past keeps.
    func archiving(keeping keep: Set<String>, windowCommits: Set<String>) -> FlakeLedger {
        let leaving = runs.indices.filter { !keep.contains(runs[$0].id) }
        guard !leaving.isEmpty else { return self }
        let staying = runs.indices.filter { keep.contains(runs[$0].id) }
        var out = self
        out.runs = staying.map { runs[$0] }
        for (id, e) in tests {
            var past = e.past
            for k in leaving where k < e.cells.count {
                past.archive(e.cells[k], of: runs[k], keepingVerdictsOf: windowCommits)
            }
            past.verdictsAt = past.verdictsAt.filter { windowCommits.contains($0.key) }
            out.tests[id] = Entry(cells: staying.map { $0 < e.cells.count ? e.cells[$0] : .none }, past: past)
        }
        return out
    }
}

extension FlakeLedger.Past {
    /// `cell`, the verdicts of `run` (older than every run left in the window), added.
    mutating func archive(_ cell: FlakeLedger.Verdicts, of run: FlakeLedger.Run, keepingVerdictsOf commits: Set<String>) {
        guard cell != .none else { return }
        runs += 1
        let before = run.commit.map { FlakeLedger.Verdicts(rawValue: verdictsAt[$0] ?? 0) } ?? .none
        let flaky = cell.flakyAlone || (!before.isEmpty && before.union(cell.compared) != before)
        if flaky {
            flakyRuns += 1
            lastFlaky = max(lastFlaky ?? run.startedAt, run.startedAt)
            if let c = run.commit, !flakyCommits.contains(c) { flakyCommits = Array((flakyCommits + [c]).suffix(FlakeLedger.commitCap)) }
        }
        clean = cell.isClean && !flaky ? clean + 1 : 0
        if let c = run.commit, commits.contains(c) { verdictsAt[c] = before.union(cell.compared).rawValue }
    }

    /// Two pasts of one test from ledgers that may share their history: the larger of each.
    static func joined(_ a: Self, _ b: Self) -> Self {
        if a.isEmpty { return b }
        if b.isEmpty { return a }
        var out = a
        out.runs = max(a.runs, b.runs)
        out.flakyRuns = max(a.flakyRuns, b.flakyRuns)
        out.lastFlaky = [a.lastFlaky, b.lastFlaky].compactMap { $0 }.max()
        out.clean = max(a.clean, b.clean)
        var commits = (a.lastFlaky ?? 0) >= (b.lastFlaky ?? 0) ? b.flakyCommits : a.flakyCommits
        for c in ((a.lastFlaky ?? 0) >= (b.lastFlaky ?? 0) ? a.flakyCommits : b.flakyCommits) where !commits.contains(c) { commits.append(c) }
        out.flakyCommits = Array(commits.suffix(FlakeLedger.commitCap))
        out.verdictsAt.merge(b.verdictsAt) { $0 | $1 }
        return out
    }
}
