import Foundation
@testable import RobotCIReport
import XCTest

/// `SuiteScanner`: where `plan.partition.suite` is, in robotci's compact JSON and in spaced JSON,
/// and nil wherever a decoder could see something else there.
final class SuiteScannerTests: XCTestCase {
    private func find(_ json: String, known: String? = nil) -> (text: String, isKnown: Bool)? {
        let bytes = Array(json.utf8)
        let found = bytes.withUnsafeBytes { b in
            guard let known else { return SuiteScanner.find(in: b) }
            return Array(known.utf8).withUnsafeBytes { SuiteScanner.find(in: b, known: $0) }
        }
        return found.map { (String(decoding: bytes[$0.range], as: UTF8.self), $0.isKnown) }
    }

    func testFindsTheSuiteInCompactAndSpacedJSON() {
        let compact = #"{"format":"robotci-results-v2","plan":{"digest":"d","partition":{"count":2,"index":1,"split":"s","#
            + #""suite":["A.B/a","A.B/b"],"suiteDigest":"x"},"tests":["A.B/a"]},"tests":[{"id":"A.B/a"}]}"#
        XCTAssertEqual(find(compact)?.text, #"["A.B/a","A.B/b"]"#)
        XCTAssertEqual(find(compact)?.isKnown, false)

        // As bench/merge/generate.py (Python's json.dump) writes it; a test's output that
        // spells the key, brackets and quotes is text, not structure.
        let spaced = #"{"batches": [{"tests": ["]", "{"]}], "plan": {"digest": "d", "partition": {"count": 2, "#
            + #""suite": ["A.B/a", "A.B/b"] , "suiteDigest": "x"}}, "tests": [{"output": "\"suite\": [\"evil\"]}}"}]}"#
        XCTAssertEqual(find(spaced)?.text, #"["A.B/a", "A.B/b"]"#)
    }

    func testAKnownArrayIsMatchedByItsBytesOnly() {
        let json = #"{"plan":{"partition":{"suite":["A.B/a","A.B/b"],"suiteDigest":"x"}}}"#
        XCTAssertEqual(find(json, known: #"["A.B/a","A.B/b"]"#)?.isKnown, true)
        XCTAssertEqual(find(json, known: #"["A.B/a","A.B/b"]"#)?.text, #"["A.B/a","A.B/b"]"#)
        // The same list written otherwise (spaces, an escaped slash), or a shorter one: scanned, not known.
        for other in [#"["A.B/a", "A.B/b"]"#, #"["A.B\/a","A.B/b"]"#, #"["A.B/a"]"#] {
            XCTAssertEqual(find(json, known: other)?.isKnown, false, other)
            XCTAssertEqual(find(json, known: other)?.text, #"["A.B/a","A.B/b"]"#, other)
        }
        // Ids with escaped quotes and brackets end where JSON says.
        let escaped = #"{"plan":{"partition":{"suite":["A\"],[\\","B"],"suiteDigest":"x"}}}"#
        XCTAssertEqual(find(escaped)?.text, #"["A\"],[\\","B"]"#)
    }

    /// Wherever a JSON decoder might see another suite than the scan (a key spelt with an
    /// escape, a key twice) or the file is not whole, the scan gives up.
    func testGivesUpWhereTheDecoderMightSeeSomethingElse() {
        let doubts = [
            #"{"plan":{"partition":{"suite":["a"],"s\u0075ite":["b"]}}}"#,
            #"{"plan":{"partition":{"suite":["a"],"suite":["b"]}}}"#,
            #"{"plan":{"partition":{"suite":["a"]}},"plan":{"partition":{"suite":["b"]}}}"#,
            #"{"plan":{"partition":{"suite":["a"]},"partition":{"suite":["b"]}}}"#,
            #"{"pl\u0061n":{"partition":{"suite":["b"]}},"plan":{"partition":{"suite":["a"]}}}"#,
            #"{"plan":{"partition":{"suite":["a"],"suité":["b"]}}}"#,
            #"{"plan":null,"tests":[]}"#,
            #"{"plan":{"partition":{"suite":"a"}}}"#,
            #"{"tests":[{"plan":{"partition":{"suite":["a"]}}}]}"#,
            #"{"plan":{"partition":{"suite":["a","b"#,
            #"{"plan":{"partition":{"suite":["a"]}},"tests":[{"output":"unterminated}]}"#,
            #"["plan"]"#,
            "",
        ]
        for json in doubts {
            XCTAssertNil(find(json), json)
            XCTAssertNil(find(json, known: #"["a"]"#), json)
        }
    }
}
