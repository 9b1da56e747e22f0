import Foundation
import RobotCICore
import RobotCIReport
import XCTest

final class ReportInputTests: XCTestCase {
    private var dir: URL!

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("robotci-input-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: dir) }

    private func file(_ name: String, _ text: String) throws -> URL {
        let url = dir.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url
    }

    private func journalLines(_ run: RunResult) throws -> [String] {
        let encoder = JSONEncoder()
        var entries: [JournalEntry] = [.run(run.metadata)]
        for t in run.tests { for a in t.attempts { entries.append(.attempt(test: t.id, quarantined: t.quarantined, attempt: a)) } }
        entries += run.batches.map { .batch($0) }
        entries.append(.finished(run.metadata))
        return try entries.map { String(decoding: try encoder.encode($0), as: UTF8.self) }
    }

    func testResultsJSONRoundTrips() throws {
        let run = ReportFixtures.mixedRun()
        let url = dir.appendingPathComponent("results.json")
        try JSONEncoder().encode(run).write(to: url)
        let loaded = try ReportReader.load(url)
        XCTAssertEqual(loaded.result, run)
        XCTAssertFalse(loaded.fromJournal)
    }

    /// results.json stores a repetition as data: read back, a repetition is one and a test
    /// named like one (`x (repeat 1 of 2)`) is that test, whatever the run's metadata says.
    func testRepetitionsAndTestsNamedLikeThemReadBackAsWritten() throws {
        let named = TestID("M.C/x (repeat 1 of 2)")
        var plain = RunResult(metadata: RunMetadata(runID: "r", startedAt: 1, wallTime: 1, shards: 1, retries: 0, robotciVersion: "t"),
                              tests: [TestRecord(id: named, attempts: [Attempt(number: 1, outcome: .passed, duration: 1, start: 0,
                                                                               placement: .init(shard: 0, batch: 0))])],
                              batches: [])
        plain.plan = RunPlan(tests: [named])
        let url = dir.appendingPathComponent("results.json")
        try JSONEncoder().encode(plain).write(to: url)
        let loaded = try ReportReader.load(url).result
        XCTAssertEqual(loaded, plain)
        XCTAssertNil(loaded.tests.first?.id.repetition)
        XCTAssertTrue(loaded.accounting.isComplete)

        var repeated = plain
        let ids = TestID.repeating([named, TestID("M.C/y")], count: 2)
        repeated.tests = ids.map { TestRecord(id: $0, attempts: plain.tests[0].attempts) }
        repeated.plan = RunPlan(tests: ids)
        repeated.metadata.repetitions = RepetitionSummary(count: 2, untilFailure: false, ran: 2)
        try JSONEncoder().encode(repeated).write(to: url)
        let again = try ReportReader.load(url).result
        XCTAssertEqual(again, repeated)
        XCTAssertEqual(Set(again.tests.map(\.id.unrepeated)), [named, TestID("M.C/y")])
        XCTAssertEqual(again.accounting.planned, 4)
        XCTAssertTrue(again.accounting.isComplete)

        // The journal stores ids as structure too: finished or cut short (no `finished`, so
        // no word on repetitions), a test named like a repetition is that test. (Format v2's
        // text ids: PreviousFormatTests.)
        let plan = try XCTUnwrap(String(data: JSONEncoder().encode(JournalEntry.plan(RunPlan(tests: [named]))), encoding: .utf8))
        var lines = try journalLines(plain)
        lines.insert(plan, at: 1)
        let journal = try file("results.jsonl", lines.joined(separator: "\n") + "\n")
        let rebuilt = try ReportReader.load(journal).result
        XCTAssertEqual(rebuilt.tests.map(\.id), [named])
        XCTAssertTrue(rebuilt.accounting.isComplete, rebuilt.accounting.description)
        let cut = try file("cut.jsonl", lines.dropLast().joined(separator: "\n") + "\n")
        let cutShort = try ReportReader.load(cut).result
        XCTAssertEqual(cutShort.tests.map(\.id), [named])
        XCTAssertNil(cutShort.tests.first?.id.repetition)
        XCTAssertEqual(cutShort.tests.map(\.outcome), [.passed])
        XCTAssertTrue(cutShort.accounting.isComplete, cutShort.accounting.description)
    }

    func testForeignJSONIsRejectedNamingTheFile() throws {
        let url = try file("other.json", #"{"format":"something-else","tests":[]}"#)
        XCTAssertThrowsError(try ReportReader.load(url)) { error in
            let text = "\(error)"
            XCTAssertTrue(text.contains(url.path), text)
            XCTAssertTrue(text.contains("something-else") && text.contains(RunResult.formatName), text)
        }
        let notJSON = try file("junk.json", "<testsuites/>")
        XCTAssertThrowsError(try ReportReader.load(notJSON)) { XCTAssertTrue("\($0)".contains(notJSON.path)) }
    }

    func testJournalRebuildsTheRun() throws {
        let run = ReportFixtures.mixedRun()
        let url = try file("results.jsonl", try journalLines(run).joined(separator: "\n") + "\n")
        let loaded = try ReportReader.load(url)
        XCTAssertTrue(loaded.fromJournal)
        XCTAssertEqual(loaded.result.counts, run.counts)
        XCTAssertEqual(loaded.result.tests.map(\.id), run.tests.map(\.id))
        XCTAssertFalse(loaded.result.metadata.interrupted)
    }

    /// A corrupt line in the middle (a torn write on a full disk) costs that line only: the
    /// warning names the file and line, every other entry is kept.
    func testCorruptJournalLineIsSkippedWithFileAndLine() throws {
        var lines = try journalLines(ReportFixtures.mixedRun())
        lines[3] = #"{"type":"attempt","test":42}"#
        let url = try file("results.jsonl", lines.joined(separator: "\n") + "\n")
        let loaded = try ReportReader.load(url)
        XCTAssertTrue(loaded.warnings.contains { $0.hasPrefix("\(url.path):4: skipped a corrupt journal entry") }, "\(loaded.warnings)")
        XCTAssertFalse(loaded.result.tests.isEmpty)
    }

    func testUnterminatedLastLineOfAKilledRunIsIgnoredWithAWarning() throws {
        let lines = try journalLines(ReportFixtures.mixedRun()).dropLast()  // no `finished`
        let url = try file("results.jsonl", lines.joined(separator: "\n") + "\n" + #"{"type":"attem"#)
        let loaded = try ReportReader.load(url)
        XCTAssertEqual(loaded.warnings.count, 1)
        XCTAssertTrue(loaded.result.metadata.interrupted)
        XCTAssertEqual(loaded.result.tests.count, ReportFixtures.mixedRun().tests.count)
    }
}
