import Foundation
import RobotCICore
@testable import RobotCIReport
import XCTest

/// `ReportReader.partitionResults`: a partition's suite written as another partition's wrote
/// it is shared, not decoded; anything else is decoded in full; a suiteDigest that is not the
/// list's is refused either way.
final class PartitionSuiteTests: XCTestCase {
    private let suite = (1...30).map { TestID(String(format: "M.Group%d/test%02d", $0 % 3, $0)) }
    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("robotci-suite-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: directory) }

    private func partition(_ k: Int, of n: Int, suite: [TestID]? = nil) -> RunResult {
        let (share, partition) = Partitioner.plan(suite: suite ?? self.suite, index: k, count: n, split: .even)
        var assembly = RunAssembly(plan: RunPlan(tests: share, partition: partition))
        for t in share { assembly.add(t, quarantined: false, attempt: Attempt(number: 1, outcome: .passed, duration: 0.1, start: 0, shard: 0, batch: 0)) }
        let meta = RunMetadata(runID: "ci-3", startedAt: 1_700_000_000, wallTime: 1, shards: 1, retries: 0, robotciVersion: "t",
                               commandLine: [], partition: "\(k)/\(n)")
        return assembly.result(metadata: meta) { _ in "not run" }
    }

    /// results.json as robotci writes it (`ReportWriter`), or edited by `edit`.
    private func file(_ name: String, _ result: RunResult, edit: (String) -> String = { $0 }) throws -> URL {
        let folder = directory.appendingPathComponent(name)
        try ReportWriter.write(result, timings: Timings(), to: folder)
        let url = folder.appendingPathComponent("results.json")
        let text = try String(contentsOf: url, encoding: .utf8)
        try Data(edit(text).utf8).write(to: url)
        return url
    }

    func testAPartitionWrittenLikeTheFirstSharesItsSuite() throws {
        let one = try file("p1", partition(1, of: 3))
        let two = try file("p2", partition(2, of: 3))
        let (first, shared) = try ReportReader.partitionResults(at: one, sharing: nil)
        let suite = try XCTUnwrap(shared)
        XCTAssertEqual(first, try ReportReader.results(at: one))
        XCTAssertEqual(suite.suite, self.suite.sorted())
        XCTAssertEqual(suite.digest, first.plan?.partition?.suiteDigest)

        let bytes = try Data(contentsOf: two)
        let found = bytes.withUnsafeBytes { b in suite.json.withUnsafeBytes { SuiteScanner.find(in: b, known: $0) } }
        XCTAssertEqual(found?.isKnown, true, "robotci writes one suite the same bytes in every partition")
        let (second, _) = try ReportReader.partitionResults(at: two, sharing: suite)
        XCTAssertEqual(second, try ReportReader.results(at: two), "shared or decoded, the same result")
    }

    /// The same list written otherwise (slashes escaped, as `JSONEncoder` does by default) is
    /// decoded in full, and still the same run.
    func testASuiteWrittenOtherwiseIsDecodedInFull() throws {
        let (_, shared) = try ReportReader.partitionResults(at: try file("p1", partition(1, of: 2)), sharing: nil)
        let escaped = try file("p2", partition(2, of: 2)) { $0.replacingOccurrences(of: "/", with: "\\/") }
        XCTAssertTrue(try String(contentsOf: escaped, encoding: .utf8).contains(#""M.Group1\/test01""#))
        let (second, _) = try ReportReader.partitionResults(at: escaped, sharing: shared)
        XCTAssertEqual(second, try ReportReader.results(at: escaped))
        XCTAssertEqual(second.plan?.partition?.suite, suite.sorted())
    }

    /// A suiteDigest that is not its list's is refused: with the shared list's bytes, with a
    /// list of its own that claims the shared digest (which a digest-only check would have
    /// taken for the shared list), and in the first file.
    func testASuiteDigestThatIsNotTheListsIsRefused() throws {
        let (_, shared) = try ReportReader.partitionResults(at: try file("p1", partition(1, of: 2)), sharing: nil)
        let digest = try XCTUnwrap(shared?.digest)
        let forged = try file("forged", partition(2, of: 2)) { $0.replacingOccurrences(of: digest, with: "0-30") }
        let renamed = try file("renamed", partition(2, of: 2)) { text in
            text.replacingOccurrences(of: "\"M.Group0/test03\"", with: "\"M.Group0/test99\"")
        }
        XCTAssertTrue(try String(contentsOf: renamed, encoding: .utf8).contains(digest), "claims the shared digest")
        for (url, sharing) in [(forged, shared), (forged, nil), (renamed, shared), (renamed, nil)] {
            XCTAssertThrowsError(try ReportReader.partitionResults(at: url, sharing: sharing)) {
                let message = "\($0)"
                XCTAssertTrue(message.hasPrefix("\(url.path): the partition's suiteDigest '"), message)
                XCTAssertTrue(message.contains("is not the digest of the 30 tests its suite lists"), message)
            }
        }
    }

    /// A file that does not decode says what is wrong where the file (not a copy without its
    /// suite) has it.
    func testAFileBrokenAfterTheSuiteFailsAsAFullReadDoes() throws {
        let (_, shared) = try ReportReader.partitionResults(at: try file("p1", partition(1, of: 2)), sharing: nil)
        let broken = try file("p2", partition(2, of: 2)) { $0.replacingOccurrences(of: "\"outcome\":\"passed\"", with: "\"outcome\":passed") }
        var full = ""
        XCTAssertThrowsError(try ReportReader.results(at: broken)) { full = "\($0)" }
        XCTAssertThrowsError(try ReportReader.partitionResults(at: broken, sharing: shared)) { XCTAssertEqual("\($0)", full) }
        XCTAssertFalse(full.isEmpty)
    }
}
