import Foundation
import RobotKit
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// Run *through* robotci by `RobotCIEndToEndTests.ReliabilityTests` (both tests in one
/// process): the first test kills its chromedriver (the shard's, which robotci runs)
/// mid-test and must fail with a message that says so; the second must get a fresh driver
/// (RobotKit starts its own when the shard's is gone) and pass. Outside that run (no
/// `ROBOTCI_DRIVER_DEATH_E2E`) they skip.
final class DriverDeathUnderRobotCITests: UITestCase {
    override var appURL: URL? { Fixture.url("elements.html") }

    override func setUp() async throws {
        guard ProcessInfo.processInfo.environment["ROBOTCI_DRIVER_DEATH_E2E"] == "1" else {
            throw XCTSkip("runs only under robotci, from ReliabilityTests")
        }
        try await super.setUp()
    }

    func testA_ChromedriverIsKilledMidTest() {
        launch()
        XCTAssertTrue(app.buttons.firstMatch.waitForExistence(timeout: 10))
        let drivers = Self.chromedrivers()
        print("driver-death: killing chromedriver \(drivers.map(String.init).joined(separator: ",")) of process \(getpid())")
        XCTAssertFalse(drivers.isEmpty, "this process runs a chromedriver")
        for pid in drivers { kill(pid, SIGKILL) }
        usleep(200_000)
        app.buttons.firstMatch.tap()  // fails: the driver is gone
    }

    func testB_NextTestGetsAFreshDriver() {
        launch()
        XCTAssertTrue(app.buttons.firstMatch.waitForExistence(timeout: 10))
        print("driver-death: chromedriver now \(Self.chromedrivers().map(String.init).joined(separator: ",")) in process \(getpid())")
    }

    /// The live chromedrivers this test's browser goes through: the shard's (robotci's,
    /// `ROBOTCI_WEBDRIVER_PID`) and this process's own children (setpriv execs chromedriver in place).
    static func chromedrivers() -> [pid_t] {
        let me = getpid()
        let shard = ProcessInfo.processInfo.environment["ROBOTCI_WEBDRIVER_PID"].flatMap { pid_t($0) }
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap(pid_t.init).filter { pid in
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                  let open = stat.firstIndex(of: "("), let close = stat.lastIndex(of: ")") else { return false }
            let name = stat[stat.index(after: open)..<close]
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            return name == "chromedriver" && fields.count > 1 && fields[0] != "Z" && (pid_t(fields[1]) == me || pid == shard)
        }
    }
}
