import Foundation
import XCTest

/// Hostile inputs given to the built `robotci` (issue 27).
final class HostileInputEndToEndTests: XCTestCase {
    /// Before: this 922-byte file made `robotci merge` expand 10⁹ entities (30 s, then out of
    /// memory under a 4 GB limit). Now: exit 2 naming the file and the DOCTYPE, at once, within
    /// a 256 MB address-space limit.
    func testBillionLaughsMergeIsAClearErrorWithinSmallMemory() throws {
        let bomb = E2E.fixture("Hostile/billion-laughs.xml")
        let out = E2E.temporaryDirectory("bomb").appendingPathComponent("out")
        let started = Date()
        let r = try E2E.run(["merge", bomb, "--output", out.path], timeout: 60,
                            wrapper: ["/usr/bin/prlimit", "--as=\(256 << 20)", "--"])
        let seconds = Date().timeIntervalSince(started)
        XCTAssertEqual(r.status, 2, r.stderr)
        XCTAssertTrue(r.stderr.contains(bomb) && r.stderr.contains("<!DOCTYPE"), r.stderr)
        XCTAssertLessThan(seconds, 5, "refused before any expansion")
        XCTAssertFalse(FileManager.default.fileExists(atPath: out.appendingPathComponent("junit.xml").path))
    }
}
