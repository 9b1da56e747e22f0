import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// The files `robotci merge` and `robotci report` read from a report folder (results.json,
/// timings.json, history.json) follow the rules the JUnit and artifact readers already did
/// (issue 39): a regular file under a size cap. They were read with `Data(contentsOf:)`, so
/// a FIFO there failed with a misleading "no permission" (results) or was dropped silently
/// (timings, history), and a huge file was read whole.
final class ReportInputEndToEndTests: XCTestCase {
    /// A finished report folder of a one-test command-driver run.
    private func report(in dir: URL) throws -> URL {
        let package = dir.appendingPathComponent("suite")
        try FileManager.default.createDirectory(at: package, withIntermediateDirectories: true)
        try E2E.commandSuite(at: package, list: "echo input::a", script: """
            printf '<testsuite name="input"><testcase classname="input" name="a"/></testsuite>' > "$1"
            """)
        let report = dir.appendingPathComponent("report")
        let r = try E2E.run(["run", "--package", package.path, "--report-dir", report.path], timeout: 120)
        XCTAssertEqual(r.status, 0, r.stderr)
        return report
    }

    private func replaceWithFIFO(_ url: URL) throws {
        try? FileManager.default.removeItem(at: url)
        XCTAssertEqual(mkfifo(url.path, 0o600), 0, url.path)
    }

    func testAFIFOOrAHugeResultsFileIsAClearErrorNotAHang() throws {
        let dir = E2E.temporaryDirectory("report-input")
        defer { try? FileManager.default.removeItem(at: dir) }
        let report = try report(in: dir)
        let results = report.appendingPathComponent("results.json")
        let kept = dir.appendingPathComponent("results.kept.json")
        try FileManager.default.copyItem(at: results, to: kept)
        try FileManager.default.removeItem(at: report.appendingPathComponent("results.jsonl"))

        try replaceWithFIFO(results)
        let started = Date()
        let merge = try E2E.run(["merge", report.path, "--output", dir.appendingPathComponent("m1").path], timeout: 30)
        XCTAssertEqual(merge.status, 2, merge.stderr)
        XCTAssertTrue(merge.stderr.contains(results.path) && merge.stderr.contains("not a regular file"), merge.stderr)
        let rebuilt = try E2E.run(["report", "--results", results.path, "--output", dir.appendingPathComponent("r1").path], timeout: 30)
        XCTAssertEqual(rebuilt.status, 2, rebuilt.stderr)
        XCTAssertTrue(rebuilt.stderr.contains("not a regular file"), rebuilt.stderr)
        XCTAssertLessThan(Date().timeIntervalSince(started), 20, "no read waited for a writer")

        // A sparse file: its size says 2 GB, and nothing need be read to refuse it.
        try FileManager.default.removeItem(at: results)
        XCTAssertTrue(FileManager.default.createFile(atPath: results.path, contents: Data("{".utf8)))
        XCTAssertEqual(truncate(results.path, 2 << 30), 0)
        let huge = try E2E.run(["merge", report.path, "--output", dir.appendingPathComponent("m2").path], timeout: 30,
                               wrapper: ["/usr/bin/prlimit", "--as=\(1 << 30)", "--"])
        XCTAssertEqual(huge.status, 2, huge.stderr)
        XCTAssertTrue(huge.stderr.contains(results.path) && huge.stderr.contains("more than robotci reads"), huge.stderr)
    }

    func testAFIFOTimingsOrHistoryIsLeftOutWithAWarning() throws {
        let dir = E2E.temporaryDirectory("report-input")
        defer { try? FileManager.default.removeItem(at: dir) }
        let report = try report(in: dir)
        try replaceWithFIFO(report.appendingPathComponent("timings.json"))
        try replaceWithFIFO(report.appendingPathComponent("history.json"))
        let started = Date()
        let merge = try E2E.run(["merge", report.path, "--output", dir.appendingPathComponent("m").path], timeout: 30)
        XCTAssertEqual(merge.status, 0, merge.stderr)
        XCTAssertTrue(merge.stderr.contains("timings.json") && merge.stderr.contains("history.json"), merge.stderr)
        // In place: the folder's own timings.json and history.json are read, then rewritten.
        try replaceWithFIFO(report.appendingPathComponent("timings.json"))
        try replaceWithFIFO(report.appendingPathComponent("history.json"))
        let rebuilt = try E2E.run(["report", "--results", report.appendingPathComponent("results.json").path,
                                   "--output", report.path], timeout: 30)
        XCTAssertEqual(rebuilt.status, 0, rebuilt.stderr)
        XCTAssertLessThan(Date().timeIntervalSince(started), 20, "no read waited for a writer")
    }
}
