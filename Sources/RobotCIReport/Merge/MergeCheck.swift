import Foundation
import RobotCICore

/// What `robotci merge` must account for, worked out from the inputs' plans before anything
/// is merged or written: the whole run's plan, why each planned test that no input ran has no
/// result, and what the user should be told. Inputs that cannot be one run (other run ids,
/// other suites, other splits, a partition twice, a test in two shares) are refused with a
/// `MergeError` (exit 2, nothing written).
public struct MergeCheck: Sendable, Equatable {
    /// The merged run's plan: the partitions' suite, the other inputs' plans, and the tests of
    /// inputs without a plan (counted as they are). Nil when no input has a plan.
    public var plan: RunPlan?
    /// Why a planned test has no result, when merge knows better than the input did
    /// (a missing partition, a test in no partition's share).
    public var reasons: [TestID: String] = [:]
    /// Facts worth a line each (inputs that cannot be checked, interrupted inputs, …).
    public var notes: [String] = []

    /// Most tests named in one message; the rest are counted.
    static let namedTests = 20

    /// `a, b, c and 17 more`.
    static func name(_ tests: [TestID]) -> String {
        let shown = tests.prefix(namedTests).map(\.description).joined(separator: ", ")
        return tests.count > namedTests ? "\(shown) and \(tests.count - namedTests) more" : shown
    }

    /// When a run started, for telling an earlier run's input from this run's.
    static func started(_ m: RunMetadata) -> String {
        guard m.startedAt > 0 else { return "start time unknown" }
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime]
        return "started " + f.string(from: Date(timeIntervalSince1970: m.startedAt))
    }

    /// How an input is named in messages: its label and its path.
    static func describe(_ input: MergeInput) -> String { "\(input.machine) (\(input.path.path))" }

    public static func check(_ inputs: [MergeInput]) throws -> MergeCheck {
        var check = MergeCheck()
        let partitioned = inputs.filter { $0.result.plan?.partition != nil }
        var planned: Set<TestID> = []
        if !partitioned.isEmpty {
            let (suite, reasons, notes) = try checkPartitions(partitioned)
            planned.formUnion(suite)
            check.reasons = reasons
            check.notes += notes
        }
        let queued = inputs.filter { $0.result.plan?.queue != nil }
        if !queued.isEmpty {
            let (suite, reasons) = try checkQueueMachines(queued)
            planned.formUnion(suite)
            check.reasons.merge(reasons) { old, _ in old }
        }
        for input in inputs where input.result.plan != nil && input.result.plan?.partition == nil && input.result.plan?.queue == nil {
            planned.formUnion(input.result.plan?.tests ?? [])
        }
        let unplanned = inputs.filter { $0.result.plan == nil }
        for input in unplanned {
            check.notes.append("\(describe(input)) has no plan (an older robotci or another tool's JUnit): its \(input.result.tests.count) "
                + "tests are merged as they are; whether tests are missing from it cannot be checked")
        }
        for input in inputs where input.result.metadata.interrupted {
            let open = input.result.tests.filter { $0.outcome == .notRun }.count
            check.notes.append("\(describe(input)) was interrupted before it finished: \(open) of its \(input.result.tests.count) "
                + "tests have no result and are reported not run; the merged report is marked interrupted")
        }
        if planned.isEmpty && unplanned.count == inputs.count { return check }
        // Tests of inputs without a plan are counted as planned: they ran, so they cannot be
        // missing, and a plan that left them out would refuse their results.
        for input in unplanned { planned.formUnion(input.result.tests.map(\.id)) }
        check.plan = RunPlan(tests: Array(planned))
        return check
    }

    /// Queue machines' folders: one queue run (one nonce), whose every test must have a result
    /// in one of them. Returns the run's tests and why those no folder ran have none.
    private static func checkQueueMachines(_ inputs: [MergeInput]) throws -> ([TestID], [TestID: String]) {
        let plans = inputs.compactMap { input in input.result.plan?.queue.map { (input, $0) } }
        guard let (_, first) = plans.first else { return ([], [:]) }
        if Set(plans.map(\.1.nonce)).count > 1 || Set(plans.map(\.1.suiteDigest)).count > 1 {
            let list = plans.map { "\n  \(describe($0.0)): queue \($0.1.name), run \($0.1.nonce), \($0.1.suite.count) tests" }.joined()
            throw MergeError("the queue machines' folders are not from one queue run:\(list)\nMerge the folders of one run only "
                + "(or use `robotci report --queue` for the whole run). Nothing was written.")
        }
        let ran = Set(plans.flatMap { $0.0.result.tests.filter { !$0.attempts.isEmpty }.map(\.id) })
        var reasons: [TestID: String] = [:]
        for t in first.suite where !ran.contains(t) {
            reasons[t] = "no folder of queue run \(first.name) (\(first.nonce)) has a result for it: a machine's folder is missing "
                + "from the merge, or the queue lost it (`robotci report --queue` shows the whole run)"
        }
        return (first.suite, reasons)
    }

    /// A partition's input and the plan it recorded.
    private typealias Part = (input: MergeInput, plan: PartitionPlan)

    /// Checks that the partitions are one run cut one way, and works out what no partition
    /// ran. Returns the suite, the not-run reasons and notes.
    private static func checkPartitions(_ inputs: [MergeInput]) throws -> ([TestID], [TestID: String], [String]) {
        let parts: [Part] = inputs.compactMap { input in input.result.plan?.partition.map { (input, $0) } }
        guard let first = parts.first?.plan else { return ([], [:], []) }
        try requireOneRunCutOneWay(parts)
        let byIndex: [Int: [Part]] = Dictionary(grouping: parts, by: \.1.index)
        if let (k, twice) = byIndex.first(where: { $0.value.count > 1 }) {
            throw MergeError("partition \(k)/\(first.count) is given twice: \(twice.map { describe($0.0) }.joined(separator: ", ")). "
                + "Merge one folder per partition. Nothing was written.")
        }

        let ranOn = try sharesRan(parts, suite: first.suite, count: first.count)
        let (reasons, notes) = notRun(parts, first: first, present: Set(byIndex.keys), ranOn: ranOn)
        return (first.suite, reasons, notes)
    }

    /// One run (one run id), one N, one suite, one split: else a `MergeError` that lists
    /// what each input says.
    private static func requireOneRunCutOneWay(_ parts: [Part]) throws {
        func listing(_ value: (MergeInput, PartitionPlan) -> String) -> String {
            parts.map { "\n  \(describe($0.0)): \(value($0.0, $0.1))" }.joined()
        }

        // One run: a results.json a reused folder kept from an earlier run has that run's id.
        if Set(parts.map(\.0.result.metadata.runID)).count > 1 {
            let ids = listing { input, _ in
                let m = input.result.metadata
                return "run id '\(m.runID)' (" + (m.runIDSource.map { "from \($0)" } ?? "made up by robotci: no CI run id was set")
                    + "), \(started(m))"
            }
            var hint = ""
            let github = parts.compactMap { $0.0.result.metadata.runIDSource }.contains { $0.hasPrefix("GITHUB_RUN_ID") }
            if github {
                hint = " On GitHub Actions a re-run is a new attempt (GITHUB_RUN_ATTEMPT): re-run all jobs, not only the failed ones."
            }
            throw MergeError("the partitions are not from one run:\(ids)\nA report folder reused from an earlier run keeps that run's "
                + "results.json until a new run replaces it, so an input whose run id differs is not this run's result. Merge only "
                + "the folders of one run; partitions of one run share the CI's run id (\(CIRunID.variables)), so set "
                + "ROBOTCI_RUN_ID alike on every machine where the CI gives none.\(hint) Nothing was written.")
        }
        if Set(parts.map(\.1.count)).count > 1 {
            throw MergeError("the partitions disagree on N (K/N):\(listing { _, p in "partition \(p.index)/\(p.count)" })\n"
                + "Every machine of a run must use the same N. Nothing was written.")
        }
        if Set(parts.map(\.1.suiteDigest)).count > 1 {
            let all = Set(parts.flatMap(\.1.suite))
            var notEverywhere: Set<TestID> = []
            for (_, p) in parts { notEverywhere.formUnion(all.subtracting(p.suite)) }
            throw MergeError("the partitions cut different suites:\(listing { _, p in "\(p.suite.count) tests (digest \(p.suiteDigest))" })\n"
                + "Not in every partition's suite: \(name(notEverywhere.sorted())). Every machine must select the same tests "
                + "(same commit, same --filter/--skip). Nothing was written.")
        }
        if Set(parts.map(\.1.splitDigest)).count > 1 {
            throw MergeError("the partitions split the suite differently, so a test may have run on no machine or on two:"
                + "\(listing { _, p in p.split })\nGive every machine the same --partition-timings file, or none (an even split). "
                + "Nothing was written.")
        }
    }

    /// Which partitions ran each test of the suite, by the shares they say they ran; a test
    /// in two shares is a `MergeError`.
    private static func sharesRan(_ parts: [Part], suite: [TestID], count: Int) throws -> [TestID: [Int]] {
        // Where each test of the suite ran, by the shares the partitions say they ran.
        let suiteSet = Set(suite)
        var ranOn: [TestID: [Int]] = [:]
        for (input, p) in parts {
            for t in input.result.plan?.tests ?? [] where suiteSet.contains(t) { ranOn[t, default: []].append(p.index) }
        }
        let twice = ranOn.filter { $0.value.count > 1 }.keys.sorted()
        if !twice.isEmpty {
            let where_ = twice.prefix(namedTests).map { t in "\(t) (" + (ranOn[t] ?? []).sorted().map { "\($0)/\(count)" }.joined(separator: ", ") + ")" }
            throw MergeError("\(twice.count) test\(twice.count == 1 ? " is" : "s are") in the share of more than one partition: "
                + where_.joined(separator: ", ") + (twice.count > namedTests ? " and \(twice.count - namedTests) more" : "")
                + ". The partitions did not cut the suite one way (a results.json edited, or written by another robotci). Nothing was written.")
        }
        return ranOn
    }

    /// Why each test no partition ran was not run (a missing partition, or none's share), and
    /// notes on missing partitions and on inputs that ran another share than their split gives.
    private static func notRun(_ parts: [Part], first: PartitionPlan, present: Set<Int>, ranOn: [TestID: [Int]])
        -> (reasons: [TestID: String], notes: [String])
    {
        var notes: [String] = []
        var reasons: [TestID: String] = [:]
        let missing = (1...max(1, first.count)).filter { !present.contains($0) }
        let recomputed = Partitioner.recomputedShares(of: first)
        var owner: [TestID: Int] = [:]
        if let recomputed {
            for (i, share) in recomputed.enumerated() { for t in share { owner[t] = i + 1 } }
            for (input, p) in parts where Set(input.result.plan?.tests ?? []) != Set(recomputed[p.index - 1]) {
                let own = Set(input.result.plan?.tests ?? [])
                let expected = Set(recomputed[p.index - 1])
                notes.append("\(describe(input)) ran a share other than the one its recorded split gives partition \(p.index)/\(p.count): "
                    + "\(expected.subtracting(own).count) of its tests missing, \(own.subtracting(expected).count) others added")
            }
        }
        let missingText = missing.map { "\($0)/\(first.count)" }.joined(separator: ", ")
        for t in first.suite where ranOn[t] == nil {
            if let k = owner[t], missing.contains(k) {
                reasons[t] = "partition \(k)/\(first.count) is missing (no input for it was merged)"
            } else if recomputed == nil && !missing.isEmpty {
                reasons[t] = "partition\(missing.count == 1 ? "" : "s") \(missingText) \(missing.count == 1 ? "is" : "are") missing "
                    + "(no input for \(missing.count == 1 ? "it" : "them") was merged) and no present partition ran it"
            } else {
                let by = owner[t].map { "; the recorded split gives it to partition \($0)/\(first.count), which did not list it" } ?? ""
                reasons[t] = "no partition ran it (in the suite of partitions \(present.sorted().map { "\($0)/\(first.count)" }.joined(separator: ", ")), "
                    + "in none's share\(by))"
            }
        }
        if !missing.isEmpty {
            notes.append("partition\(missing.count == 1 ? "" : "s") \(missingText) \(missing.count == 1 ? "is" : "are") missing: "
                + "no input for \(missing.count == 1 ? "it" : "them"); \(reasons.values.filter { $0.contains("missing") }.count) tests are reported not run")
        }
        return (reasons, notes)
    }
}
