import Foundation
import RobotCICore
import RobotCIReport
import XCTest

/// `robotci report` end to end, through the binary `swift build` left in `.build/debug`.
final class ReportCommandTests: XCTestCase {
    private static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    private var dir: URL!

    override func setUpWithError() throws {
        let binary = Self.root.appendingPathComponent(".build/debug/robotci").path
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: binary), "build robotci first (swift build --product robotci)")
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("robotci-report-cmd-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { if let dir { try? FileManager.default.removeItem(at: dir) } }

    private func robotci(_ args: [String]) throws -> (status: Int32, stderr: String) {
        let p = Process()
        p.executableURL = Self.root.appendingPathComponent(".build/debug/robotci")
        p.arguments = args
        let err = Pipe()
        p.standardError = err
        p.standardOutput = FileHandle.nullDevice
        try p.run()
        let data = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    func testForeignJSONExitsTwoAndWritesNothing() throws {
        let input = dir.appendingPathComponent("results.json")
        try Data(#"{"format":"not-robotci"}"#.utf8).write(to: input)
        let out = dir.appendingPathComponent("out")
        let (status, stderr) = try robotci(["report", "--results", input.path, "--output", out.path])
        XCTAssertEqual(status, 2)
        XCTAssertTrue(stderr.contains(input.path) && stderr.contains("not-robotci"), stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: out.path), "nothing written")
    }

    /// A torn line (a full disk mid-write) costs that line only: the rest is rebuilt, and the
    /// warning names the line.
    func testCorruptJournalLineIsSkippedNamingTheLine() throws {
        let input = dir.appendingPathComponent("results.jsonl")
        let run = ReportFixtures.mixedRun()
        let first = String(decoding: try JSONEncoder().encode(JournalEntry.run(run.metadata)), as: UTF8.self)
        let test = try XCTUnwrap(run.tests.first)
        let attempt = String(decoding: try JSONEncoder().encode(
            JournalEntry.attempt(test: test.id, quarantined: false, attempt: try XCTUnwrap(test.attempts.first))), as: UTF8.self)
        try Data((first + "\n{broken\n" + attempt + "\n").utf8).write(to: input)
        let out = dir.appendingPathComponent("out")
        let (status, stderr) = try robotci(["report", "--results", input.path, "--output", out.path])
        XCTAssertEqual(status, 2, "written, and a journal without its finished entry is an incomplete run\n\(stderr)")
        XCTAssertTrue(stderr.contains("\(input.path):2: skipped a corrupt journal entry"), stderr)
        let results = try String(contentsOf: out.appendingPathComponent("results.json"), encoding: .utf8)
        XCTAssertTrue(results.contains(test.id.description), "the entry after the torn line is kept")
    }

    func testJournalWithNothingReadableExitsTwo() throws {
        let input = dir.appendingPathComponent("results.jsonl")
        try Data("{broken\nalso broken\n".utf8).write(to: input)
        let out = dir.appendingPathComponent("out")
        let (status, stderr) = try robotci(["report", "--results", input.path, "--output", out.path])
        XCTAssertEqual(status, 2)
        XCTAssertTrue(stderr.contains("has no readable entries (2 corrupt lines)"), stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: out.path))
    }

    func testJournalBecomesIndexAndResults() throws {
        let run = ReportFixtures.mixedRun()
        var lines = [try JSONEncoder().encode(JournalEntry.run(run.metadata))]
        for t in run.tests {
            for a in t.attempts { lines.append(try JSONEncoder().encode(JournalEntry.attempt(test: t.id, quarantined: t.quarantined, attempt: a))) }
        }
        for b in run.batches { lines.append(try JSONEncoder().encode(JournalEntry.batch(b))) }
        let input = dir.appendingPathComponent("results.jsonl")
        try Data(lines.map { String(decoding: $0, as: UTF8.self) }.joined(separator: "\n").utf8).write(to: input)
        let out = dir.appendingPathComponent("report")
        let (status, stderr) = try robotci(["report", "--results", input.path, "--output", out.path])
        XCTAssertEqual(status, 2, "written, and the run never finished: incomplete\n\(stderr)")
        let html = try String(contentsOf: out.appendingPathComponent("index.html"), encoding: .utf8)
        XCTAssertTrue(html.contains("robotci-report-data-v2"))
        let result = try JSONDecoder().decode(RunResult.self, from: Data(contentsOf: out.appendingPathComponent("results.json")))
        XCTAssertEqual(result.counts, run.counts)
        XCTAssertTrue(result.metadata.interrupted, "no finished entry: the run is marked interrupted")
        // The killed run still joins the history; a second rebuild folds into the same run.
        let history = RunHistory.load(from: out.appendingPathComponent("history.json")).history
        XCTAssertEqual(history.runs.map(\.id), [run.metadata.runID])
        XCTAssertEqual(history.tests.count, run.tests.count)
        XCTAssertEqual(try robotci(["report", "--results", input.path, "--output", out.path]).0, 2)
        // Its results.json re-rendered exits with the same verdict.
        XCTAssertEqual(try robotci(["report", "--results", out.appendingPathComponent("results.json").path, "--output", out.path]).0, 2)
        XCTAssertEqual(RunHistory.load(from: out.appendingPathComponent("history.json")).history.runs.count, 1)
    }
}
