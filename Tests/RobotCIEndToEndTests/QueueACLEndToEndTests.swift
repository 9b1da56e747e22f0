import Foundation
import TestSupport
import XCTest

/// The Redis ACL in docs/queue.md, for real, with the queue names and users the GitHub queue template
/// uses (issue 39): the README's example matched `robotci:pipeline-*` while the template's
/// queues are `robotci:<run id>:*`, logged in as `default`.
final class QueueACLEndToEndTests: XCTestCase {
    private var cleanups: [() -> Void] = []

    override func tearDown() {
        for cleanup in cleanups.reversed() { cleanup() }
    }

    /// `text` as GitHub would expand it for an `event` (the two expressions the template uses).
    private func expand(_ text: String, event: String) throws -> String {
        var out = text.replacingOccurrences(of: "${{ github.run_id }}", with: "4242")
        let choice = try NSRegularExpression(pattern: #"\$\{\{ github\.event_name == 'pull_request' && '([^']*)' \|\| '([^']*)' \}\}"#)
        while let m = choice.firstMatch(in: out, range: NSRange(out.startIndex..., in: out)) {
            let pick = event == "pull_request" ? m.range(at: 1) : m.range(at: 2)
            out.replaceSubrange(Range(m.range, in: out)!, with: String(out[Range(pick, in: out)!]))
        }
        return out
    }

    private func redisCLI(_ port: Int, _ password: String, _ arguments: [String]) throws -> String {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/redis-cli")
        p.arguments = ["-p", String(port), "--no-auth-warning", "-a", password] + arguments
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func testTheREADMEsACLServesTheGitHubTemplatesQueues() throws {
        let readme = try String(contentsOf: E2E.root.appendingPathComponent("docs/queue.md"), encoding: .utf8)
        let template = try String(contentsOf: E2E.root.appendingPathComponent("config/ci/github-actions-queue.yml"), encoding: .utf8)
        let aclLines = readme.components(separatedBy: "\n").compactMap { line -> String? in
            guard let start = line.range(of: "ACL SETUSER ") else { return nil }
            return String(line[start.lowerBound...].prefix { $0 != "`" })
        }
        XCTAssertFalse(aclLines.isEmpty, "docs/queue.md documents an ACL")
        let queueLine = try XCTUnwrap(template.components(separatedBy: "\n").first { $0.contains("ROBOTCI_QUEUE:") })
        let queue = String(queueLine[queueLine.range(of: "ROBOTCI_QUEUE:")!.upperBound...]).trimmingCharacters(in: .whitespaces)

        let admin = "admin-\(UUID().uuidString.prefix(8))"
        let server = try RedisServer(password: admin)
        cleanups.append { server.stop() }
        var passwords: [String: String] = [:]
        for line in aclLines {
            var words = line.split(separator: " ").map(String.init)
            let user = words[2]
            let password = "\(user)-\(UUID().uuidString.prefix(12))"
            words = words.map { $0.hasPrefix(">") ? ">" + password : $0 }
            XCTAssertEqual(try redisCLI(server.port, admin, words), "OK", line)
            passwords[user] = password
        }

        let dir = E2E.temporaryDirectory("queue-acl")
        cleanups.append { try? FileManager.default.removeItem(at: dir) }
        let package = dir.appendingPathComponent("suite")
        try FileManager.default.createDirectory(at: package, withIntermediateDirectories: true)
        try E2E.commandSuite(at: package, list: "printf 'acl::a\\nacl::b\\n'", script: """
            out="$1"; shift
            printf '<testsuite name="acl">' > "$out"
            for id in "$@"; do printf '<testcase classname="acl" name="%s"/>' "${id#acl::}" >> "$out"; done
            printf '</testsuite>' >> "$out"
            """)

        func run(_ url: String, user: String, label: String) throws -> E2E.Result {
            try E2E.run(["run", "--package", package.path, "--shards", "2", "--retries", "0", "--queue", url,
                         "--report-dir", dir.appendingPathComponent("report-\(label)").path],
                        env: ["ROBOTCI_QUEUE_PASSWORD": passwords[user] ?? "none"], timeout: 120)
        }
        var urls: [String: (url: String, user: String)] = [:]
        for event in ["push", "pull_request"] {
            let url = try expand(queue, event: event).replacingOccurrences(of: "127.0.0.1:6380", with: "127.0.0.1:\(server.port)")
            let login = url.dropFirst("redis://".count).split(separator: "@", maxSplits: 1)
            let user = login.count == 2 ? String(login[0]) : "default"
            XCTAssertNotNil(passwords[user], "docs/queue.md's ACL creates the user the template logs in as for \(event): '\(user)'")
            let r = try run(url, user: user, label: event)
            XCTAssertEqual(r.status, 0, "\(event), \(url): \(r.stderr)")
            urls[event] = (url, user)
        }
        let report = try E2E.run(["report", "--queue", try XCTUnwrap(urls["push"]).url, "--output", dir.appendingPathComponent("whole").path],
                                 env: ["ROBOTCI_QUEUE_PASSWORD": passwords[urls["push"]?.user ?? ""] ?? "none"], timeout: 60)
        XCTAssertEqual(report.status, 0, report.stderr)

        // A pull request's credential cannot touch the queue of a push run (its public run id).
        let pr = try XCTUnwrap(urls["pull_request"]), push = try XCTUnwrap(urls["push"])
        let pushQueueName = String(push.url.split(separator: "/").last ?? "")
        let intruder = pr.url.replacingOccurrences(of: String(pr.url.split(separator: "/").last ?? ""), with: pushQueueName)
        let refused = try run(intruder, user: pr.user, label: "intruder")
        XCTAssertEqual(refused.status, 2, refused.stderr)
        XCTAssertFalse(refused.stderr.contains(passwords[pr.user] ?? "-"), refused.stderr)
        XCTAssertEqual(try redisCLI(server.port, admin, ["FLUSHALL"]), "OK", "the admin can; the ACL users below cannot")
        for (user, password) in passwords {
            XCTAssertTrue(try redisCLI(server.port, password, ["--user", user, "FLUSHALL"]).contains("NOPERM"), user)
        }
    }
}
