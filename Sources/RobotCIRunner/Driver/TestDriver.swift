import Foundation
import RobotCICore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One kind of suite: how its tests are found, which of them may share a batch, and how one
/// batch of them runs. A new kind of suite is one new type conforming to this (one file),
/// plus its case in `RunConfiguration.Driver` and in `TestDrivers.discover`.
///
/// What every driver shares (the worker environment, the artifacts folder, the batch log,
/// spawning the process, reading its output, where attempts go) is `BatchRun`'s; a driver
/// only says what to spawn and how to read what comes out.
protocol TestDriver: Sendable {
    /// Builds the suite (unless `skipBuild`) and lists every test it has; the driver returned
    /// runs them.
    static func discover(config: RunConfiguration, environment: [String: String],
                         say: @escaping (String) -> Void) throws -> (driver: Self, tests: [TestID])

    /// Tests of different groups never share a batch (XCTest's and Swift Testing's tests of one
    /// bundle run with different command lines). A repetition (`id (repeat k of n)`) is in its
    /// test's group.
    func batchGroup(of test: TestID) -> Int

    /// Whether each shard keeps a warm chromedriver for this suite (RobotKit's browser).
    var usesShardBrowser: Bool { get }

    /// Runs `batch`'s tests in one child process and reports each attempt through
    /// `batch.report` the moment it is known; returns what the queue must handle next.
    func run(_ batch: BatchRun) -> BatchOutcome

    /// Each test's tags (`--tag`), for the tests that can have some; throws when this kind
    /// of suite has none.
    func tags() throws -> [TestID: Set<String>]
}

extension TestDriver {
    func batchGroup(of test: TestID) -> Int { 0 }
    var usesShardBrowser: Bool { false }
    func tags() throws -> [TestID: Set<String>] {
        throw ConfigError("--tag selects Swift Testing tests by their tags; this driver's tests have none: select them with --filter")
    }
}

/// The drivers by configuration name.
enum TestDrivers {
    static func discover(config: RunConfiguration, environment: [String: String],
                         say: @escaping (String) -> Void) throws -> (driver: any TestDriver, tests: [TestID]) {
        switch config.driver {
        case .swift: return try BundleDriver.discover(config: config, environment: environment, say: say)
        case .command: return try CommandDriver.discover(config: config, environment: environment, say: say)
        }
    }
}

/// What a finished batch leaves for the queue to handle.
struct BatchOutcome {
    var record: BatchRecord
    /// Tests of the batch that never started (after a crash, a hang or an interrupt).
    var unstarted: [TestID]
    /// True when the process ended before any test of the batch started.
    var noTestStarted: Bool
    /// Tests to run again, each alone, at the same attempt (the command driver's batch ended
    /// without their results, so which of them crashed or hung is found by isolating them).
    var isolate: [TestID] = []
}
