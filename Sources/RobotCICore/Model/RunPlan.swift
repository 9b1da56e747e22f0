/// The tests a run must account for: every one ends with exactly one verdict, or the run
/// fails. Written first into the journal and into results.json, so a rebuild, a queue
/// snapshot and a merge all know what should have run, not only what did.
public struct RunPlan: Codable, Sendable, Equatable {
    /// This run's tests (this machine's share with a partition), sorted.
    public var tests: [TestID]
    /// `RunPlan.digest(of: tests)`.
    public var digest: String
    /// With `--partition`: the whole suite the share was cut from and how.
    public var partition: PartitionPlan?
    /// With `--queue`: the queue run this machine's tests (what it ran) were part of.
    public var queue: QueueRunPlan?

    public init(tests: [TestID], partition: PartitionPlan? = nil, queue: QueueRunPlan? = nil) {
        self.tests = tests.sorted()
        self.digest = RunPlan.digest(of: tests)
        self.partition = partition
        self.queue = queue
    }

    /// FNV-1a of the sorted ids' text forms, and their count: equal lists, equal digests, on
    /// every machine (and on a machine whose robotci wrote ids as text: its partitions merge).
    public static func digest(of tests: [TestID]) -> String {
        let text = tests.map(\.description).sorted().joined(separator: "\n")
        return String(Partitioner.stableHash(text), radix: 16) + "-\(tests.count)"
    }
}

/// A queue machine's place in its queue run: a merge of the machines' folders accounts for
/// the whole run's tests, so a machine's folder left out is noticed.
public struct QueueRunPlan: Codable, Sendable, Equatable {
    /// The queue's name (`redis://…/NAME`).
    public var name: String
    /// The run's nonce: folders of one queue run share it.
    public var nonce: String
    /// Every test of the queue run, sorted.
    public var suite: [TestID]
    public var suiteDigest: String

    public init(name: String, nonce: String, suite: [TestID]) {
        self.name = name
        self.nonce = nonce
        self.suite = suite.sorted()
        self.suiteDigest = RunPlan.digest(of: suite)
    }
}

/// One partition's place in the whole run: `robotci merge` checks that the partitions of a
/// run cut the same suite the same way and that their shares cover it exactly once.
public struct PartitionPlan: Codable, Sendable, Equatable {
    /// K of K/N (1-based).
    public var index: Int
    /// N of K/N.
    public var count: Int
    /// Every selected test of the run (after --filter/--skip), sorted.
    public var suite: [TestID]
    public var suiteDigest: String
    /// What the split was computed from, in words (shown when partitions disagree).
    public var split: String
    /// Digest of everything the split depends on (suite, N, durations used): partitions of
    /// one run must agree on it.
    public var splitDigest: String

    public init(index: Int, count: Int, suite: [TestID], split: String, splitDigest: String) {
        self.index = index
        self.count = count
        self.suite = suite.sorted()
        self.suiteDigest = RunPlan.digest(of: suite)
        self.split = split
        self.splitDigest = splitDigest
    }

    enum CodingKeys: String, CodingKey {
        case index, count, suite, suiteDigest, split, splitDigest
    }
}

/// How a run's planned tests were accounted for.
public struct Accounting: Sendable, Equatable, CustomStringConvertible {
    /// Planned tests (nil: the results carry no plan, e.g. a foreign JUnit file).
    public var planned: Int?
    /// Tests with a verdict (`notRun` included).
    public var tests: Int
    public var notRun: Int
    /// Results refused because their test was not planned.
    public var refused: Int

    public init(planned: Int?, tests: Int, notRun: Int, refused: Int) {
        self.planned = planned
        self.tests = tests
        self.notRun = notRun
        self.refused = refused
    }

    /// True when every planned test has exactly one verdict and it came from a result.
    public var isComplete: Bool { (planned.map { $0 == tests } ?? true) && notRun == 0 }

    /// `40 planned, 40 accounted for (38 with a result, 2 not run)`.
    public var description: String {
        var text: String
        if let planned {
            text = "\(planned) planned, \(tests) accounted for"
        } else {
            text = "\(tests) tests (no plan recorded: cannot tell whether tests are missing)"
        }
        if notRun > 0 { text += " (\(tests - notRun) with a result, \(notRun) not run)" }
        if refused > 0 { text += "; \(refused) result\(refused == 1 ? "" : "s") for unplanned tests refused" }
        return text
    }
}

extension RunPlan {
    /// The same plan with every id passed through `rename` (digests recomputed): what a report
    /// file holds when ids are masked (`SecretRedactor`).
    public func renamingTests(_ rename: (TestID) -> TestID) -> RunPlan {
        RunPlan(tests: tests.map(rename),
                partition: partition.map {
                    PartitionPlan(index: $0.index, count: $0.count, suite: $0.suite.map(rename), split: $0.split, splitDigest: $0.splitDigest)
                },
                queue: queue.map { QueueRunPlan(name: $0.name, nonce: $0.nonce, suite: $0.suite.map(rename)) })
    }
}
