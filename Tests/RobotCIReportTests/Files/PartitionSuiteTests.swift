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
        for t in share { assembly.add(t, quarantined: false, attempt: Attempt(number: 1, outcome: .passed, duration: 0.1, start: 0,
                                                                              placement: .init(shard: 0, batch: 0))) }
        var meta = RunMetadata(runID: "ci-3", startedAt: 1_700_000_000, wallTime: 1, shards: 1, retries: 0, robotciVersion: "t")
        meta.partition = "\(k)/\(n)"
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

    /// Damaged copies of a partition's results.json (bytes changed, cut out or repeated, at
    /// random but the same every run): reading one with the shared suite gives what reading it
    /// whole gives (the same run, or the same error), or refuses a suiteDigest that is not
    /// its list's. Never another list.
    func testADamagedFileReadsAsAFullReadOrIsRefused() throws {
        let (_, shared) = try ReportReader.partitionResults(at: try file("p1", partition(1, of: 2)), sharing: nil)
        let original = Array(try Data(contentsOf: try file("p2", partition(2, of: 2))))
        let url = directory.appendingPathComponent("damaged.json")
        var state: UInt64 = 41
        func random(_ n: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(n))
        }
        let bytes = Array(#"[]{},:"\ a0/"#.utf8)
        var cut = 0, cutAndRead = 0
        for _ in 0..<400 {
            var damaged = original
            for _ in 0..<(1 + random(3)) {
                let at = random(damaged.count)
                switch random(3) {
                case 0: damaged[at] = bytes[random(bytes.count)]
                case 1: damaged.removeSubrange(at..<min(damaged.count, at + 1 + random(40)))
                default: damaged.insert(contentsOf: damaged[at..<min(damaged.count, at + 1 + random(40))], at: random(damaged.count))
                }
            }
            try Data(damaged).write(to: url)
            let known = damaged.withUnsafeBytes { d in shared?.json.withUnsafeBytes { SuiteScanner.find(in: d, known: $0) } }?.isKnown == true
            if known { cut += 1 }
            let full = Result { try ReportReader.results(at: url) }
            let read = Result { try ReportReader.partitionResults(at: url, sharing: shared).0 }
            switch (full, read) {
            case (.failure(let f), .failure(let r)):
                XCTAssertEqual("\(r)", "\(f)")
            case (.success(let f), .success(let r)):
                XCTAssertEqual(r, f)
                if known { cutAndRead += 1 }
            case (.success(let f), .failure(let r)):
                let partition = try XCTUnwrap(f.plan?.partition, "\(r)")
                XCTAssertNotEqual(RunPlan.digest(of: partition.suite), partition.suiteDigest, "\(r)")
                XCTAssertTrue("\(r)".contains("is not the digest of the"), "\(r)")
            case (.failure(let f), .success):
                XCTFail("read a file a full read refuses (\(f))")
            }
        }
        // Damaged elsewhere, the suite is still cut out: then the cut copy is what is read.
        XCTAssertGreaterThan(cut, 100)
        XCTAssertGreaterThan(cutAndRead, 5)
    }
}

