import Foundation
import TestSupport
import XCTest
#if canImport(FoundationXML)
import FoundationXML
#endif
#if canImport(Glibc)
import Glibc
#endif

final class SecurityReliabilityTests: XCTestCase {
    override class func setUp() {
        super.setUp()
        try? E2E.buildFixture("Reliability")
    }

    /// `robotci merge` given results.json whose attachments lead outside their report folder
    /// (`../`, absolute, a symlink out): refused with the path, exit 2, nothing written; a
    /// well-behaved attachment in the same place is merged (so the check is not blanket).
    func testMergeRefusesAttachmentPathsOutsideTheReport() throws {
        let dir = E2E.temporaryDirectory("merge-escape")
        let real = dir.appendingPathComponent("real")
        let made = try E2E.run(["run", "--package", E2E.fixture("Reliability"), "--skip-build", "--filter", "QuietTests/testA", "--report-dir", real.path])
        XCTAssertEqual(made.status, 0, made.stderr)
        let original = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: real.appendingPathComponent("results.json"))) as? [String: Any])

        /// A report folder whose one attempt has `artifact` as an attachment (kind console: inlined by the report).
        func input(_ name: String, artifact: String, link: String? = nil) throws -> URL {
            let folder = dir.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: folder.appendingPathComponent("attachments"), withIntermediateDirectories: true)
            try "a console line\n".write(to: folder.appendingPathComponent("attachments/ok.txt"), atomically: true, encoding: .utf8)
            if let link { try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent(link).path, withDestinationPath: "/etc/passwd") }
            var json = original
            var tests = json["tests"] as? [[String: Any]] ?? []
            var attempts = tests[0]["attempts"] as? [[String: Any]] ?? []
            attempts[0]["artifacts"] = [["kind": "console", "path": artifact]]
            tests[0]["attempts"] = attempts
            json["tests"] = tests
            try JSONSerialization.data(withJSONObject: json).write(to: folder.appendingPathComponent("results.json"))
            return folder
        }

        let good = try input("good", artifact: "attachments/ok.txt")
        let merged = dir.appendingPathComponent("merged-good")
        let ok = try E2E.run(["merge", good.path, "--output", merged.path])
        XCTAssertEqual(ok.status, 0, ok.stderr)
        let copied = FileManager.default.enumerator(atPath: merged.appendingPathComponent("attachments").path)?.compactMap { $0 as? String } ?? []
        XCTAssertTrue(copied.contains { $0.hasSuffix("ok.txt") }, "a proper attachment is merged: \(copied)")

        var refused: [String] = []
        for (name, path, link) in [("dotdot", "../../etc/passwd", nil), ("absolute", "/etc/passwd", nil),
                                   ("inner-dotdot", "attachments/../../../outside.txt", nil),
                                   ("symlink", "attachments/link.txt", "attachments/link.txt")] as [(String, String, String?)] {
            let folder = try input(name, artifact: path, link: link)
            let out = dir.appendingPathComponent("merged-\(name)")
            let r = try E2E.run(["merge", folder.path, "--output", out.path])
            XCTAssertEqual(r.status, 2, "\(name): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains("attachment '\(path)' of ReliabilityTests.QuietTests/testA_Passes (attempt 1) leads outside the report folder"), "\(name): \(r.stderr)")
            XCTAssertFalse(FileManager.default.fileExists(atPath: out.path), "\(name): nothing written")
            XCTAssertFalse(FileManager.default.fileExists(atPath: dir.appendingPathComponent("etc/passwd").path))
            refused.append(path)
            if link != nil {
                // `robotci report` over the same folder must not inline what the link points at.
                let r2 = try E2E.run(["report", "--results", folder.appendingPathComponent("results.json").path, "--output", folder.path])
                XCTAssertEqual(r2.status, 0, r2.stderr)
                let html = try String(contentsOf: folder.appendingPathComponent("index.html"), encoding: .utf8)
                XCTAssertFalse(html.contains("root:x:0:0"), "a symlink out of the report folder is not read into index.html")
            }
        }
        reliabilityRow("merge: attachment paths out of the report folder", repetitions: refused.count,
                       "refused (exit 2, nothing written): \(refused.joined(separator: ", ")); control attachments/ok.txt merged; report does not inline a symlink to /etc/passwd")
    }

    /// `robotci mock` listens on 127.0.0.1 / ::1 only: the kernel's socket table shows no
    /// listener on its port at any other address (0.0.0.0 included).
    func testMockServerListensOnLoopbackOnly() throws {
        let dir = E2E.temporaryDirectory("mock-loopback")
        let scenario = dir.appendingPathComponent("scenario.yml")
        try "routes:\n  - method: GET\n    path: /hello\n    json: {ok: true}\n".write(to: scenario, atomically: true, encoding: .utf8)
        let port = try XCTUnwrap(Loopback.freePort())
        let mock = try Background(["mock", "--scenario", scenario.path, "--port", String(port)], env: [:], logs: dir)
        defer { kill(mock.pid, SIGTERM); _ = mock.wait(timeout: 10) }
        var listeners: [String] = []
        // The server binds 127.0.0.1 and then ::1: wait for the first before checking them all.
        XCTAssertTrue(waitUntil(20) {
            listeners = SocketTable.listeners(port: port)
            return listeners.contains("127.0.0.1")
        }, "robotci mock listens on 127.0.0.1:\(port) (saw \(listeners)): \(mock.stderr)")
        XCTAssertTrue(listeners.contains("127.0.0.1"), "\(listeners)")
        for address in listeners { XCTAssertTrue(address == "127.0.0.1" || address == "::1", "listening on \(address)") }
        reliabilityRow("mock server binding", repetitions: 1, "robotci mock on port \(port) listens on \(listeners.sorted().joined(separator: " and ")) only (from /proc/net/tcp{,6})")
    }

    /// Secrets in robotci's environment never reach a report file, the GitHub step summary
    /// or the console, while a non-secret variable a test prints does (the search works).
    func testNoEnvironmentSecretInTheReport() throws {
        let dir = E2E.temporaryDirectory("secrets")
        let report = dir.appendingPathComponent("report")
        let summary = dir.appendingPathComponent("step-summary.md")
        let secrets = ["s3cr3t-value-\(UUID().uuidString)", "AKIA" + UUID().uuidString.replacingOccurrences(of: "-", with: "")]
        let publicProbe = "public-\(UUID().uuidString)"
        let r = try E2E.run(["run", "--package", E2E.fixture("Reliability"), "--skip-build", "--filter", "QuietTests", "--retries", "0",
                             "--reporter", "github", "--report-dir", report.path],
                            env: ["ROBOTCI_SECRET_PROBE": secrets[0], "AWS_SECRET_ACCESS_KEY": secrets[1],
                                  "RELIABILITY_PUBLIC_PROBE": publicProbe, "RELIABILITY_STATE": dir.path,
                                  "GITHUB_STEP_SUMMARY": summary.path, "GITHUB_ACTIONS": "true"])
        XCTAssertEqual(r.status, 1, "one test fails and one crashes: \(r.stderr)")
        var files = (FileManager.default.enumerator(atPath: report.path)?.compactMap { $0 as? String } ?? [])
            .map { report.appendingPathComponent($0) }
            .filter { (try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true }
        files.append(summary)
        var searched = 0
        var publicFound = false
        for file in files {
            let data = try Data(contentsOf: file)
            searched += data.count
            for secret in secrets { XCTAssertNil(data.range(of: Data(secret.utf8)), "\(file.path) contains a secret") }
            if data.range(of: Data(publicProbe.utf8)) != nil { publicFound = true }
        }
        for secret in secrets {
            XCTAssertFalse(r.stdout.contains(secret) || r.stderr.contains(secret), "the console shows a secret")
        }
        XCTAssertTrue(publicFound, "the printed non-secret variable is in the report, so the search would find a leak")
        XCTAssertTrue(files.contains { $0.lastPathComponent == "index.html" } && FileManager.default.fileExists(atPath: summary.path))
        let html = try String(contentsOf: report.appendingPathComponent("index.html"), encoding: .utf8)
        XCTAssertTrue(html.contains("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; script-src 'sha256-"), "the report carries its CSP")
        reliabilityRow("environment secrets in the report", repetitions: secrets.count,
                       "ROBOTCI_SECRET_PROBE and AWS_SECRET_ACCESS_KEY values in 0 of \(files.count) files (\(searched) bytes: report folder + GitHub step summary) and not on the console; a printed public variable found; index.html has its CSP")
    }
}

/// Free ports and the kernel's table of listening TCP sockets.
