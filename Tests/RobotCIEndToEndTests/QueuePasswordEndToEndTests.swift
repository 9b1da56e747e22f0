import Foundation
import TestSupport
import XCTest

/// Queue passwords holding a character a URL reserves (`# ? / @ : %`), pasted into
/// `redis://:PASSWORD@HOST:PORT/NAME` as they are and percent-encoded, against a real
/// `redis-server` that requires them (issue 39). Whatever robotci does with such a URL, no
/// byte it writes (stdout, stderr, the report folder with its journal, the suite's folder)
/// holds the password or any piece of it.
final class QueuePasswordEndToEndTests: XCTestCase {
    private var cleanups: [() -> Void] = []

    override func tearDown() {
        for cleanup in cleanups.reversed() { cleanup() }
    }

    /// A command-driver suite of two passing tests that print their environment.
    private func suite(in dir: URL) throws -> URL {
        let package = dir.appendingPathComponent("suite")
        try FileManager.default.createDirectory(at: package, withIntermediateDirectories: true)
        try """
            driver: command
            list: printf 'pw::a\\npw::b\\n'
            run: sh run.sh {junit} {tests}
            """.write(to: package.appendingPathComponent("robotci.yml"), atomically: true, encoding: .utf8)
        try """
            out="$1"; shift
            env
            printf '<testsuite name="pw">' > "$out"
            for id in "$@"; do printf '<testcase classname="pw" name="%s"/>' "${id#pw::}" >> "$out"; done
            printf '</testsuite>' >> "$out"
            """.write(to: package.appendingPathComponent("run.sh"), atomically: true, encoding: .utf8)
        return package
    }

    /// Every file under `dir` whose bytes contain `needle`.
    private func files(under dir: URL, containing needle: String) -> [String] {
        let bytes = Data(needle.utf8)
        let paths = FileManager.default.enumerator(atPath: dir.path)?.compactMap { $0 as? String } ?? []
        return paths.filter { path in
            guard let data = FileManager.default.contents(atPath: dir.appendingPathComponent(path).path) else { return false }
            return data.range(of: bytes) != nil
        }
    }

    func testReservedCharactersInTheQueuePasswordNeverLeak() throws {
        // `@` and `:` read unambiguously (the last `@` ends the login, the first `:` ends the
        // user); `# ? /` end a URL's authority and `%` starts an escape, so those are refused.
        let readable: Set<Character> = ["@", ":"]
        for reserved in ["#", "?", "/", "@", ":", "%"] as [Character] {
            // The tail is in nothing but the password: finding it anywhere is a leak, whole or cut.
            let tail = UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(14)
            let password = "Pw\(reserved)x-\(tail)"
            let server = try RedisServer(password: password)
            cleanups.append { server.stop() }
            let dir = E2E.temporaryDirectory("queue-password")
            cleanups.append { try? FileManager.default.removeItem(at: dir) }
            let package = try suite(in: dir)
            let encoded = password.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-")))!

            for (label, written) in [("raw", password), ("encoded", encoded)] {
                let report = dir.appendingPathComponent("report-\(label)")
                let queue = "redis://:\(written)@127.0.0.1:\(server.port)/pw-\(label)"
                let r = try E2E.run(["run", "--package", package.path, "--shards", "2", "--retries", "0", "--test-timeout", "20",
                                     "--queue", queue, "--report-dir", report.path], timeout: 120)
                let what = "password with '\(reserved)', \(label)"
                if label == "encoded" || readable.contains(reserved) {
                    XCTAssertEqual(r.status, 0, "\(what): \(r.stdout)\(r.stderr)")
                    XCTAssertTrue(FileManager.default.fileExists(atPath: report.appendingPathComponent("index.html").path), what)
                    XCTAssertTrue(r.stderr.contains("redis://:***@127.0.0.1:\(server.port)/pw-\(label)"), "\(what): \(r.stderr)")
                } else {
                    XCTAssertEqual(r.status, 2, "\(what): \(r.stdout)\(r.stderr)")
                    XCTAssertTrue(r.stderr.contains("percent-encode"), "\(what): \(r.stderr)")
                    XCTAssertTrue(r.stderr.contains("redis://:***@127.0.0.1:\(server.port)/pw-\(label)"), "\(what): \(r.stderr)")
                }
                XCTAssertFalse(r.stdout.contains(tail), "\(what): stdout \(r.stdout)")
                XCTAssertFalse(r.stderr.contains(tail), "\(what): stderr \(r.stderr)")
            }
            XCTAssertEqual(files(under: dir, containing: String(tail)), [], "password with '\(reserved)' written to these files")
        }
    }
}
