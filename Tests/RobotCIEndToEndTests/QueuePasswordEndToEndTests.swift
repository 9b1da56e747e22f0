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
            let package = try E2E.environmentPrintingSuite(in: dir, name: "pw")
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
