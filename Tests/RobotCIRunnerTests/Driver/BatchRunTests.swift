import Foundation
import ProcessToolkit
import RobotCICore
@testable import RobotCIRunner
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// What every driver shares through `BatchRun`: a repetition runs under its test's id and is
/// reported under the run's, each test's timeout, the batch's record, artifacts moved into the
/// report (plain files only), and `pump`, which reads a child's lines until it exits or kills
/// its process group at the deadline.
final class BatchRunTests: XCTestCase {
    private let a = TestID("M.C/testA"), b = TestID("M.C/testB")

    // MARK: ids

    func testARepetitionRunsUnderItsTestsIDAndEverythingGoesBackUnderTheRunsID() throws {
        let a2 = a.repetition(2, of: 3), b2 = b.repetition(2, of: 3)
        let f = try RunFixture(tests: [a2, b2])
        let batch = try f.batch(WorkItem(id: 4, tests: [a2, b2], attempt: 2), shard: 1)
        XCTAssertEqual(batch.item.tests, [a, b], "the runner knows the tests by their own ids")
        XCTAssertEqual(batch.item.attempt, 2)
        XCTAssertEqual(batch.plannedID(a), a2)
        XCTAssertEqual(batch.plannedID(TestID("M.C/testOther")), TestID("M.C/testOther"), "an id the batch does not hold stays itself")
        XCTAssertEqual(batch.attemptDirectory(of: a), f.layout.attemptDirectory(a2, attempt: 2, redactor: SecretRedactor(environment: [:])))

        batch.report(a, Attempts.passed(2))
        batch.notRun(b, reason: "the run stopped early")
        let record = batch.record(termination: .exited(0))
        XCTAssertEqual(record.id, 4)
        XCTAssertEqual(record.shard, 1)
        XCTAssertEqual(record.tests, [a2, b2])
        XCTAssertEqual([record.mockPort, record.webDriverPort], [9100, 9200])
        XCTAssertEqual(record.termination, .exited(0))

        let result = f.result()
        XCTAssertEqual(result.tests.map(\.id), [a2, b2])
        XCTAssertEqual(result.tests.map(\.outcome), [.passed, .notRun])
        XCTAssertEqual(result.tests.last?.reason, "the run stopped early")
    }

    /// A listed test whose own name ends like a repetition runs under that name, not stripped
    /// to another test's, and is reported and accounted for as itself.
    func testATestNamedLikeARepetitionRunsUnderItsOwnName() throws {
        let named = TestID("M.C/testA (repeat 1 of 2)")
        let f = try RunFixture(tests: [named, a])
        let batch = try f.batch(WorkItem(id: 0, tests: [named, a], attempt: 1))
        XCTAssertEqual(batch.item.tests.map(\.test), ["M.C/testA (repeat 1 of 2)", "M.C/testA"])
        XCTAssertEqual(batch.plannedID(named), named)
        batch.report(named, Attempts.failed(1))
        batch.report(a, Attempts.passed(1))
        let result = f.result()
        XCTAssertEqual(Set(result.tests.map(\.id)), [named, a])
        XCTAssertEqual(result.tests.first { $0.id == named }?.outcome, .failed)
        XCTAssertTrue(result.accounting.isComplete, result.accounting.description)
    }

    func testEachTestsTimeoutIsItsRulesElseTheGlobalOne() throws {
        let rules = try TestRules(retries: 0, testTimeout: 120, rules: [TestRule(match: "/testA$", testTimeout: 15)])
        let f = try RunFixture(tests: [a, b], rules: rules)
        let batch = try f.batch(WorkItem(id: 0, tests: [a, b], attempt: 1))
        XCTAssertEqual(batch.testTimeout(for: a), 15)
        XCTAssertEqual(batch.testTimeout(for: b), 120)
        XCTAssertEqual(batch.testTimeout(for: a.repetition(1, of: 2)), 15, "a repetition is timed as its test")
    }

    func testABatchThatCannotStartSendsEveryTestBack() throws {
        let f = try RunFixture(tests: [a, b])
        let outcome = try f.batch(WorkItem(id: 0, tests: [a, b], attempt: 1)).spawnFailed()
        XCTAssertEqual(outcome.unstarted, [a, b])
        XCTAssertTrue(outcome.noTestStarted)
        XCTAssertEqual(outcome.isolate, [])
        XCTAssertEqual(outcome.record.termination, .spawnFailed)
    }

    // MARK: artifacts

    func testArtifactsAreMovedIntoTheReportAndOnlyPlainFilesAndFoldersKept() throws {
        let f = try RunFixture(tests: [a])
        let batch = try f.batch(WorkItem(id: 0, tests: [a], attempt: 1))
        let source = batch.artifactsDirectory
        let fm = FileManager.default
        try Data("png".utf8).write(to: source.appendingPathComponent("screenshot.png"))
        try fm.createDirectory(at: source.appendingPathComponent("trace"), withIntermediateDirectories: true)
        try Data("t".utf8).write(to: source.appendingPathComponent("trace/a.txt"))
        XCTAssertEqual(mkfifo(source.appendingPathComponent("trace/inner.fifo").path, 0o600), 0)
        XCTAssertEqual(mkfifo(source.appendingPathComponent("pipe").path, 0o600), 0)
        try fm.createSymbolicLink(atPath: source.appendingPathComponent("link").path, withDestinationPath: "/etc/hostname")

        let artifacts = batch.moveArtifacts(into: "attachments/x/1")
        XCTAssertEqual(artifacts, [Artifact(kind: .screenshot, path: "attachments/x/1/screenshot.png"),
                                   Artifact(kind: .other, path: "attachments/x/1/trace")])
        let target = f.directory.appendingPathComponent("attachments/x/1")
        XCTAssertEqual(try fm.contentsOfDirectory(atPath: target.path).sorted(), ["screenshot.png", "trace"])
        XCTAssertEqual(try fm.contentsOfDirectory(atPath: target.appendingPathComponent("trace").path), ["a.txt"])
        XCTAssertEqual(try fm.contentsOfDirectory(atPath: source.path), [], "the next test starts with an empty folder")
        let log = try f.log(of: batch)
        XCTAssertTrue(log.contains("artifact attachments/x/1/pipe is a FIFO, not a regular file; skipped"), log)
        XCTAssertTrue(log.contains("artifact attachments/x/1/link is a symbolic link"), log)
        XCTAssertTrue(log.contains("artifact attachments/x/1/trace/inner.fifo is a FIFO"), log)

        XCTAssertEqual(batch.moveArtifacts(into: "attachments/x/2"), [], "nothing left: nothing moved")
        XCTAssertFalse(fm.fileExists(atPath: f.directory.appendingPathComponent("attachments/x/2").path), "and no empty folder made")
    }

    // MARK: pump

    private func shellBatch(_ f: RunFixture) throws -> BatchRun {
        let batch = try f.batch(WorkItem(id: 0, tests: [a], attempt: 1))
        batch.environment["PATH"] = "/usr/bin:/bin"
        return batch
    }

    func testPumpReadsEveryLineUntilTheChildExits() throws {
        let f = try RunFixture(tests: [a])
        let batch = try shellBatch(f)
        let child = try XCTUnwrap(batch.spawn(("/bin/sh", ["-c", "echo one; echo two >&2; printf 'no newline'; exit 3"]),
                                              workingDirectory: f.directory.path))
        var lines: [String] = []
        let (end, timedOut) = batch.pump(child, deadline: { f.clock.now() + 60 }, handle: { lines.append(String($0)) })
        XCTAssertEqual(lines, ["one", "two", "no newline"], "stdout and stderr merged; a last partial line is kept")
        XCTAssertEqual(end, .exited(3))
        XCTAssertFalse(timedOut)
        XCTAssertEqual(batch.ended?.end, .exited(3))
    }

    func testPumpKillsTheWholeProcessGroupAtTheDeadline() throws {
        let f = try RunFixture(tests: [a])
        let batch = try shellBatch(f)
        let child = try XCTUnwrap(batch.spawn(("/bin/sh", ["-c", "sleep 30 & echo $!; wait; echo never"]), workingDirectory: f.directory.path))
        var lines: [String] = []
        let began = Date()
        let deadline = f.clock.now() + 0.5
        let (end, timedOut) = batch.pump(child, deadline: { deadline }, handle: { lines.append(String($0)) })
        XCTAssertTrue(timedOut)
        XCTAssertEqual(end, .signaled(SIGKILL))
        XCTAssertLessThan(Date().timeIntervalSince(began), 5, "killed at the deadline, not after sleep 30")
        XCTAssertFalse(lines.contains("never"))
        // The shell's background sleep was in the group: it is gone too.
        let sleeper = try XCTUnwrap(lines.first.flatMap { Int32($0) }, "\(lines)")
        let until = Date().addingTimeInterval(3)
        while Date() < until && ProcessTable.isRunning(sleeper) { usleep(20_000) }
        XCTAssertFalse(ProcessTable.isRunning(sleeper), "the background sleep (pid \(sleeper)) outlived its batch")
    }

    func testPumpReadsTheEventChannelApartFromTheOutput() throws {
        let f = try RunFixture(tests: [a])
        let batch = try shellBatch(f)
        let child = try XCTUnwrap(batch.spawn(("/bin/sh", ["-c", "echo event-1 >&3; echo output; echo event-2 >&3"]),
                                              workingDirectory: f.directory.path, eventChannel: true))
        var output: [String] = [], events: [String] = []
        let (end, _) = batch.pump(child, deadline: { f.clock.now() + 60 }, handle: { output.append(String($0)) },
                                  event: { events.append(String($0)) })
        XCTAssertEqual(end, .exited(0))
        XCTAssertEqual(output, ["output"])
        XCTAssertEqual(events, ["event-1", "event-2"])
    }
}
