import Foundation
import XCTest

/// A command driver's JUnit with a `<system-out>` over 10 MB (issue 39). libxml2 refuses a
/// text node that long unless told otherwise, so the whole file was unreadable and every test
/// of the batch lost its verdict (reported as crashed). Now each keeps its verdict, with its
/// output cut to a head and a tail.
final class HugeOutputEndToEndTests: XCTestCase {
    func testTestsWithOutputOverTenMegabytesKeepTheirVerdicts() throws {
        let dir = E2E.temporaryDirectory("huge-output")
        defer { try? FileManager.default.removeItem(at: dir) }
        let package = dir.appendingPathComponent("suite")
        try FileManager.default.createDirectory(at: package, withIntermediateDirectories: true)
        // 12 MB of output (over libxml2's 10,000,000-byte text limit), lines of text and an entity, in two test cases.
        try E2E.commandSuite(at: package, list: "printf 'huge::quiet\\nhuge::loud\\nhuge::loudfail\\n'", script: """
            out="$1"
            big() { printf 'FIRST-LINE\\n'; head -c 12000000 /dev/zero | tr '\\0' 'x' | fold -w 1000 | sed 's/$/ \\&amp;/'; printf 'LAST-LINE\\n'; }
            {
              printf '<testsuite name="huge">'
              printf '<testcase classname="huge" name="quiet"/>'
              printf '<testcase classname="huge" name="loud"><system-out>'; big; printf '</system-out></testcase>'
              printf '<testcase classname="huge" name="loudfail"><failure message="boom">trace</failure><system-out>'; big
              printf '</system-out></testcase></testsuite>'
            } > "$out"
            """)
        let report = dir.appendingPathComponent("report")
        let r = try E2E.run(["run", "--package", package.path, "--retries", "0", "--shards", "1", "--report-dir", report.path],
                            timeout: 300)
        XCTAssertEqual(r.status, 1, r.stdout + r.stderr)
        let verdicts = try E2E.junitVerdicts(report.appendingPathComponent("junit.xml")).mapValues(\.verdict)
        XCTAssertEqual(verdicts, ["huge/quiet": "passed", "huge/loud": "passed", "huge/loudfail": "failed"], r.stderr)

        let results = try JSONSerialization.jsonObject(with: Data(contentsOf: report.appendingPathComponent("results.json"))) as? [String: Any]
        let tests = try XCTUnwrap(results?["tests"] as? [[String: Any]])
        for name in ["huge::loud", "huge::loudfail"] {
            let test = try XCTUnwrap(tests.first { E2E.idText($0["id"])?.hasSuffix(name.replacingOccurrences(of: "huge::", with: "")) == true },
                                     "\(name) in results.json")
            let output = try XCTUnwrap((test["attempts"] as? [[String: Any]])?.first?["output"] as? String)
            XCTAssertLessThan(output.utf8.count, 1 << 20, "\(name): output cut")
            XCTAssertTrue(output.contains("FIRST-LINE") && output.contains("LAST-LINE") && output.contains("bytes omitted"),
                          String(output.prefix(200)))
        }
    }
}
