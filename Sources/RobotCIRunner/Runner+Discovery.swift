import Foundation
import ProcessToolkit
import RobotCICore
import RobotCIQueue
import RobotCIReport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Discovery: what to run on this machine (build, list, filters, partition, `--last-failed`).
extension Runner {
    /// Builds (unless skipped) and lists the selected tests, after --filter/--skip and partition.
    /// An interrupt meanwhile (the build is the long part) throws `RunnerError.interrupted`.
    public func discover() throws -> (bundle: TestBundleInfo, tests: [TestID], all: Int, partition: Partition?) {
        trapSignals()
        do {
            let found = try selectTests()
            if interruption.isInterrupted { throw RunnerError.interrupted }
            return found
        } catch {
            if interruption.isInterrupted { throw RunnerError.interrupted }
            throw error
        }
    }

    func selectTests() throws -> (bundle: TestBundleInfo, tests: [TestID], all: Int, partition: Partition?) {
        let filters = try compile(config.filter, flag: "--filter")
        let skips = try compile(config.skip, flag: "--skip")
        let (driver, all) = try TestDrivers.discover(config: config, environment: environment) { [weak self] line in
            self?.say(line)
        }
        if all.isEmpty {
            throw RunnerError.noTests("'\(config.package)' has no tests: its test runner listed none; add tests (an XCTest or @Test in a test target), or check --package")
        }
        var tests = all.filter { id in
            (filters.isEmpty || filters.contains { $0.matches(id.test) }) && !skips.contains { $0.matches(id.test) }
        }
        if !config.tags.isEmpty {
            let tags = try driver.tags()
            let wanted = Set(config.tags)
            tests = tests.filter { !(tags[$0] ?? []).isDisjoint(with: wanted) }
            let known = Set(tags.values.joined()).sorted()
            say("robotci: --tag \(config.tags.joined(separator: ", ")): \(tests.count) Swift Testing test\(tests.count == 1 ? "" : "s") "
                + "(tags in this suite: \(known.isEmpty ? "none" : known.joined(separator: ", ")))")
        }
        if tests.isEmpty && !all.isEmpty && (!config.filter.isEmpty || !config.skip.isEmpty || !config.tags.isEmpty) {
            let given = config.filter.map { "--filter '\($0)'" } + config.skip.map { "--skip '\($0)'" } + config.tags.map { "--tag '\($0)'" }
            throw RunnerError.noTests("no test is left by \(given.joined(separator: " ")) among \(all.count) tests; check the regexes against 'robotci list' (ids look like '\(all[0].test)')"
                + (config.tags.isEmpty ? "" : " and the tags (only Swift Testing tests have tags, e.g. @Test(.tags(.smoke)))"))
        }
        // Each engine's run of a test is a test of the run (planned, retried, reported on its
        // own), before --last-failed, which names a previous run's tests with theirs.
        tests = byBrowser(tests)
        if let lastFailed {
            let again = lastFailed.select(tests)
            let gone = lastFailed.previous.count - again.count
            say("robotci: --last-failed: \(again.count) of the \(lastFailed.previous.count) tests that did not pass in run \(lastFailed.runID) "
                + "(\(lastFailed.source))" + (gone > 0 ? "; \(gone) of them no longer exist or are filtered out" : ""))
            tests = again
        }
        // Each repetition is a test of the run (planned, retried, reported on its own); before
        // the partition split, so repetitions spread over machines too.
        tests = repeated(tests)
        // With a queue every machine pulls from the whole suite: no static share.
        let partition = config.queue == nil ? try resolvedPartition() : nil
        if let partition {
            // The split uses only what every machine shares: the selected tests, N, and an
            // explicit --partition-timings file. This machine's own timings.json only orders
            // its share (Planner), never decides it.
            let (share, plan) = Partitioner.plan(suite: tests, index: partition.index, count: partition.count,
                                                 split: try partitionSplit())
            partitionPlan = plan
            tests = share
            say("robotci: partition \(partition): \(share.count) of \(plan.suite.count) tests, \(plan.split)")
        }
        return (TestBundleInfo(driver: driver), tests, all.count, partition)
    }

    /// `--browsers`: each test once per engine (unchanged without the flag).
    private func byBrowser(_ tests: [TestID]) -> [TestID] {
        guard !config.browsers.isEmpty else { return tests }
        if config.browsers.count > 1 {
            say("robotci: --browsers: \(tests.count) tests × \(config.browsers.count) browsers = \(tests.count * config.browsers.count) test runs")
        }
        return config.browsers.flatMap { target in tests.map { TestID($0.test, repetition: nil, browser: target.idName) } }
    }

    /// `--repeat-each`/`--until-failure`: each test's repetitions (unchanged with one).
    private func repeated(_ tests: [TestID]) -> [TestID] {
        guard config.repetitions > 1 else { return tests }
        say("robotci: " + (config.untilFailure
            ? "--until-failure: \(tests.count) tests, up to \(config.repetitions) repetitions, until one fails for good"
                + (config.retries > 0 ? " (retries apply to each repetition: one that passes on a retry is flaky and does not stop the run; --retries 0 stops at the first failing run)" : "")
            : "--repeat-each \(config.repetitions): \(tests.count) tests × \(config.repetitions) = \(tests.count * config.repetitions) test runs, each repetition its own test with its own retries"))
        return TestID.repeating(tests, count: config.repetitions)
    }

    /// How partitions cut the suite: `--partition-timings FILE` (the same file on every
    /// machine), else an even split. A missing or unreadable file is an error, not a silent
    /// fall-back: one machine splitting evenly while the others split by time would leave
    /// tests on no machine.
    func partitionSplit() throws -> Partitioner.Split {
        guard let path = config.partitionTimings else { return .even }
        let url = URL(fileURLWithPath: path)
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw ConfigError("--partition-timings \(path): cannot read it (\((error as NSError).localizedDescription)); "
                + "every partition must read the same timings.json: hand it to every job, or drop the flag for an even split")
        }
        do {
            return .timings(try JSONDecoder().decode(Timings.self, from: data), source: path)
        } catch {
            throw ConfigError("--partition-timings \(path): not a robotci timings.json (\(error)); "
                + "pass the timings.json a robotci report or `robotci merge` wrote, or drop the flag for an even split")
        }
    }

    /// This run's id, and where it came from. A partition takes the CI's run id (shared by
    /// every job of the pipeline), so `robotci merge` can tell this run's results from an
    /// earlier run's left in a reused folder; without one it warns, since merge will refuse
    /// partitions whose made-up ids differ.
    func runID(partitioned: Bool) -> (id: String, source: String?) {
        if let explicit = environment[WorkerVariable.runID.name], !explicit.isEmpty { return (explicit, WorkerVariable.runID.name) }
        guard partitioned else { return (Self.makeRunID(), nil) }
        if let detected = CIRunID.detect(environment) { return (detected.id, detected.source) }
        let id = Self.makeRunID()
        say("robotci: warning: this partition has no run id from the CI (none of \(CIRunID.variables) is set), so it uses "
            + "'\(id)'; `robotci merge` refuses partitions whose run ids differ (that is how it tells this run's results from "
            + "an earlier run's): set ROBOTCI_RUN_ID to the same value on every machine of the run")
        return (id, nil)
    }

    /// `--partition K/N`, or with `--partition auto` (or `--partition-count N`, which asks for
    /// JOB_COMPLETION_INDEX) the CI system's parallel-job variables (announced). Without either
    /// those variables shard nothing: GitLab sets them for `parallel: matrix` jobs too, each of
    /// which must run everything.
    func resolvedPartition() throws -> Partition? {
        if let p = config.partition { return p }
        guard config.partitionFromCI || config.partitionCount != nil else {
            if let ignored = try? CIPartition.detect(environment, partitionCount: nil) {
                say("robotci: note: \(ignored.source) says partition \(ignored.partition); without --partition auto robotci runs every test")
            }
            return nil
        }
        guard let detected = try CIPartition.detect(environment, partitionCount: config.partitionCount) else {
            throw ConfigError("--partition auto: none of the CI's parallel-job variables is set (\(CIPartition.variables)); "
                + "give --partition K/N, or drop --partition to run every test")
        }
        say("robotci: partition \(detected.partition) from \(detected.source)")
        if let statusFile = environment["TEST_SHARD_STATUS_FILE"], !statusFile.isEmpty {
            // Bazel asks test runners that understand sharding to touch this file.
            _ = FileManager.default.createFile(atPath: statusFile, contents: nil)
        }
        return detected.partition
    }

    /// `--last-failed`: the previous run's tests that did not pass; nil (said so) when all passed.
    func loadLastFailed() throws -> LastFailed? {
        let reportURL = URL(fileURLWithPath: config.reportDir).standardizedFileURL
        let last = try LastFailed.load(reportDir: reportURL, history: config.history.map { URL(fileURLWithPath: $0).standardizedFileURL },
                                       withFlaky: config.lastFailedWithFlaky)
        guard !last.previous.isEmpty else {
            say("robotci: --last-failed: every test of run \(last.runID) passed (\(last.source)); nothing to run again")
            say("robotci: 0 planned, 0 accounted for")
            return nil
        }
        return last
    }

    func compile(_ patterns: [String], flag: String) throws -> [NSRegularExpression] {
        try patterns.map { p in
            do { return try NSRegularExpression(pattern: p) } catch { throw RunnerError.invalidRegex(flag, p) }
        }
    }

    func git(_ args: [String]) -> String? {
        if let sha = ciCommit, args.last == "HEAD", args.count == 2 { return sha }
        guard let gitPath = Executables.find("git"),
              let (t, out) = try? runCaptured(gitPath, ["-C", config.package] + args, environment: environment),
              t == .exited(0) else { return nil }
        let value = out.trimmingCharacters(in: .whitespacesAndNewlines)
        return value.isEmpty || value.contains("\n") ? nil : value
    }

    /// The commit the CI names (`GITHUB_SHA`, `CI_COMMIT_SHA`; empty is unset).
    var ciCommit: String? {
        [environment["GITHUB_SHA"], environment["CI_COMMIT_SHA"]].compactMap { $0 }.first { !$0.isEmpty }
    }

    /// Whether the package's tracked files differ from its commit, when no CI variable names
    /// the commit: a developer's edited tree is not the commit it was checked out at.
    func treeIsDirty() -> Bool {
        guard ciCommit == nil, let gitPath = Executables.find("git"),
              let (t, out) = try? runCaptured(gitPath, ["-C", config.package, "status", "--porcelain", "--untracked-files=no"],
                                              environment: environment),
              t == .exited(0)
        else { return false }
        return !out.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
    }

    /// This machine's id in a queue: `ROBOTCI_MACHINE`, else host name and pid.
    public static func machineID(_ environment: [String: String]) -> String {
        if let m = environment["ROBOTCI_MACHINE"], !m.isEmpty { return m }
        return "\(ProcessInfo.processInfo.hostName)-\(getpid())"
    }

    public static func makeRunID() -> String {
        let f = DateFormatter()
        f.dateFormat = "yyyyMMdd-HHmmss"
        f.timeZone = TimeZone(identifier: "UTC")
        return "\(f.string(from: Date()))-\(String(UInt32.random(in: 0...UInt32.max), radix: 16))"
    }
}

/// What discovery found: the suite's driver (public face of the internal `TestDriver`).
public struct TestBundleInfo: Sendable {
    let driver: any TestDriver
}

extension NSRegularExpression {
    func matches(_ s: String) -> Bool {
        firstMatch(in: s, range: NSRange(s.startIndex..., in: s)) != nil
    }
}
