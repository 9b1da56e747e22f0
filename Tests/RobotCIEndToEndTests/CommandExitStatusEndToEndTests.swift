import Foundation
import XCTest

/// `driver: command` checks the run command's exit status against its JUnit file
/// (`Tests/Fixtures/PytestExitStatus`: a plugin makes pytest exit 3 after writing an
/// all-passing file whenever `test_breaks_the_session` ran).
final class CommandExitStatusEndToEndTests: XCTestCase {
    func testANonZeroExitWithAnAllPassingJUnitIsNotGreen() throws {
        let dir = E2E.temporaryDirectory("pytest-exit")
        let r = try E2E.run(["run", "--package", E2E.fixture("PytestExitStatus"), "--shards", "1", "--retries", "0",
                             "--report-dir", dir.path])
        XCTAssertEqual(r.status, 1, "pytest exited 3: the run is not green\n\(r.stderr)")
        let file = "tests/test_exit.py"
        let verdicts = try E2E.junitVerdicts(dir.appendingPathComponent("junit.xml")).mapValues(\.verdict)
        XCTAssertEqual(verdicts, ["\(file)/test_passes": "passed", "\(file)/test_breaks_the_session": "failed",
                                  "\(file)/test_also_passes": "passed"], r.stderr)
        let tests = try E2E.attemptsByTest(in: dir)
        let broken = try XCTUnwrap(tests["\(file)::test_breaks_the_session"])
        let message = ((broken.last?["failures"] as? [[String: Any]])?.first?["message"] as? String) ?? ""
        XCTAssertTrue(message.contains("exit 3") && message.contains("passed"), "the failure names the exit status: \(message)")
    }
}
