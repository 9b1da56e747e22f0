import Foundation
import XCTest

/// Tokens a test prints or leaves in its artifacts, known to robotci only by their shape
/// (issue 39): none reaches the report folder, the journal or the console.
final class TokenLeakEndToEndTests: XCTestCase {
    func testTokensInOutputMessagesAndArtifactsAreMasked() throws {
        // Made-up tokens of the published shapes; each tail is what the grep looks for.
        let tails = (0..<5).map { _ in UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(20).uppercased() }
        let github = "ghp_" + tails[0] + "abcdEFGHijklMNOP"
        let aws = "AKIA" + tails[1].prefix(16)
        let slack = "xoxb-1234567890-" + tails[2]
        let gitlab = "glpat-" + tails[3]
        let fromEnvironment = "env-secret-" + tails[4]
        let dir = E2E.temporaryDirectory("token-leak")
        defer { try? FileManager.default.removeItem(at: dir) }
        let package = dir.appendingPathComponent("suite")
        try FileManager.default.createDirectory(at: package, withIntermediateDirectories: true)
        try E2E.commandSuite(at: package, list: "printf 'tok::prints\\ntok::fails\\ntok::param[\(github)]\\n'", script: """
            out="$1"; shift
            echo "console: using \(github) and $DEPLOY_TOKEN"
            printf 'page token %s\\nkey %s\\n' '\(gitlab)' "$DEPLOY_TOKEN" > "$ROBOTCI_ARTIFACTS_DIR/console.log"
            printf '{"auth": "Bearer \(slack)", "aws": "\(aws)"}' > "$ROBOTCI_ARTIFACTS_DIR/mock-requests.json"
            printf '<testsuite name="tok">' > "$out"
            printf '<testcase classname="tok" name="prints"><system-out>aws \(aws) slack \(slack)</system-out></testcase>' >> "$out"
            printf '<testcase classname="tok" name="fails"><failure message="401 for \(github)">gitlab \(gitlab)</failure></testcase>' >> "$out"
            printf '<testcase classname="tok" name="param[\(github)]"><failure message="boom"/></testcase>' >> "$out"
            printf '</testsuite>' >> "$out"
            """)
        let report = dir.appendingPathComponent("report")
        let r = try E2E.run(["run", "--package", package.path, "--retries", "0", "--shards", "1", "--report-dir", report.path],
                            env: ["DEPLOY_TOKEN": fromEnvironment], timeout: 120)
        XCTAssertEqual(r.status, 1, r.stdout + r.stderr)
        let files = FileManager.default.enumerator(atPath: report.path)?.compactMap { $0 as? String } ?? []
        XCTAssertTrue(files.contains { $0.hasSuffix("console.log") }, "the artifact is kept: \(files)")
        for tail in tails {
            XCTAssertFalse(r.stdout.contains(tail) || r.stderr.contains(tail), "console: \(tail)")
            let leaking = files.filter { name in
                FileManager.default.contents(atPath: report.appendingPathComponent(name).path)?.range(of: Data(tail.utf8)) != nil
            }
            XCTAssertEqual(leaking, [], "\(tail) written to these files")
        }
        XCTAssertFalse(files.contains { $0.contains(tails[0]) }, "no file is named after the token: \(files)")
        XCTAssertTrue(r.stderr.contains("FAIL   tok::param[ghp_***]"), "the console names the test masked: \(r.stderr)")
        let results = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: report.appendingPathComponent("results.json"))) as? [String: Any])
        let ids = (results["tests"] as? [[String: Any]] ?? []).compactMap { E2E.idText($0["id"]) }
        XCTAssertEqual(ids.sorted(), ["tok::fails", "tok::param[ghp_***]", "tok::prints"],
                       "every planned test accounted for, under its masked name")
        let html = try String(contentsOf: report.appendingPathComponent("index.html"), encoding: .utf8)
        XCTAssertTrue(html.contains("ghp_***") && html.contains("glpat-***"), "masked, the kind still shown")
    }
}
