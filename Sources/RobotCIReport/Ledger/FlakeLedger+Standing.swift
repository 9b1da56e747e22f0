import Foundation
import RobotCICore

extension FlakeLedger {
    /// What the ledger knows of one test, derived from its window cells and its past.
    public struct Standing: Sendable, Equatable {
        public var id: TestID
        /// Runs it ran in (skipped or unrun: not counted).
        public var runs: Int
        /// Runs in which it was flaky: flaky within the run, or a verdict unlike an earlier
        /// run's at the same commit.
        public var flakyRuns: Int
        /// Commits at which it was flaky, oldest first, the newest `commitCap`.
        public var flakyCommits: [String]
        /// Start (seconds since 1970) of the newest run in which it was flaky.
        public var lastFlaky: Double?
        /// Clean runs (passed, not flaky) in a row, newest back.
        public var cleanStreak: Int
        /// The ids of the window's runs in which it was flaky.
        public var flakyRunIDs: [String]
    }

    /// The standing of every test, most flaky first (flaky runs, then their share, then id).
    public func standings() -> [Standing] {
        tests.keys.map { standing(of: $0) }.sorted { a, b in
            if a.flakyRuns != b.flakyRuns { return a.flakyRuns > b.flakyRuns }
            let ra = a.runs == 0 ? 0 : Double(a.flakyRuns) / Double(a.runs), rb = b.runs == 0 ? 0 : Double(b.flakyRuns) / Double(b.runs)
            return ra != rb ? ra > rb : a.id < b.id
        }
    }

    /// What the ledger knows of `id` (its repetition set aside).
    public func standing(of id: TestID) -> Standing {
        let key = id.unrepeated
        let entry = tests[key] ?? Entry(cells: [])
        let past = entry.past
        var s = Standing(id: key, runs: past.runs, flakyRuns: past.flakyRuns, flakyCommits: past.flakyCommits,
                         lastFlaky: past.lastFlaky, cleanStreak: 0, flakyRunIDs: [])
        var seen = past.verdictsAt.mapValues { Verdicts(rawValue: $0) }
        var clean: [Bool] = []
        for (k, run) in runs.enumerated() {
            let cell = k < entry.cells.count ? entry.cells[k] : .none
            guard cell != .none else { continue }
            s.runs += 1
            let before = run.commit.flatMap { seen[$0] } ?? .none
            let flaky = cell.flakyAlone || (!before.isEmpty && before.union(cell.compared) != before)
            if let c = run.commit { seen[c] = before.union(cell.compared) }
            clean.append(cell.isClean && !flaky)
            guard flaky else { continue }
            s.flakyRuns += 1
            s.flakyRunIDs.append(run.id)
            s.lastFlaky = max(s.lastFlaky ?? run.startedAt, run.startedAt)
            if let c = run.commit {
                s.flakyCommits.removeAll { $0 == c }
                s.flakyCommits.append(c)
            }
        }
        s.flakyCommits = Array(s.flakyCommits.suffix(Self.commitCap))
        let trailing = clean.reversed().prefix { $0 }.count
        s.cleanStreak = trailing == clean.count ? trailing + past.clean : trailing
        return s
    }

    /// The newest run at `commit` in which `id` passed (a pass on a retry included), if the
    /// ledger holds one, other than `excluding` (the run asking, when the ledger already holds
    /// it: a rebuilt report); nil without a commit.
    public func passingRun(of id: TestID, at commit: String?, excluding: String? = nil) -> Run? {
        guard let commit, let entry = tests[id.unrepeated] else { return nil }
        for (k, run) in runs.enumerated().reversed() where run.commit == commit && run.id != excluding && k < entry.cells.count {
            if entry.cells[k].compared.contains(.passed) { return run }
        }
        if Verdicts(rawValue: entry.past.verdictsAt[commit] ?? 0).contains(.passed) {
            return Run(id: "", commit: commit, startedAt: 0)
        }
        return nil
    }

    /// The tests flaky in the run `runID` (flaky within it, or unlike an earlier run at its commit).
    public func flakyTests(inRun runID: String) -> [TestID] {
        guard runs.contains(where: { $0.id == runID }) else { return [] }
        return tests.keys.filter { standing(of: $0).flakyRunIDs.contains(runID) }.sorted()
    }
}
