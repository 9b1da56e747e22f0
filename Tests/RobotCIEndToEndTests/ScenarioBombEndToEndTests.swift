import Foundation
import XCTest

/// A YAML alias bomb given to `robotci mock` (issue 39).
final class ScenarioBombEndToEndTests: XCTestCase {
    /// Before: the 10⁹ strings of this 600-byte scenario were walked one by one (the process
    /// never finished). Now: exit 2 naming the file and the aliases, at once, within a 512 MB
    /// address-space limit.
    func testAliasBombScenarioIsAClearErrorInBoundedTimeAndMemory() throws {
        let bomb = E2E.fixture("Hostile/alias-bomb.yaml")
        let started = Date()
        let r = try E2E.run(["mock", "--scenario", bomb, "--port", "0"], timeout: 30,
                            wrapper: ["/usr/bin/prlimit", "--as=\(512 << 20)", "--"])
        let seconds = Date().timeIntervalSince(started)
        XCTAssertEqual(r.status, 2, r.stdout + r.stderr)
        XCTAssertTrue(r.stderr.contains(bomb) && r.stderr.contains("alias"), r.stderr)
        XCTAssertLessThan(seconds, 5, "refused before any expansion")
    }
}
