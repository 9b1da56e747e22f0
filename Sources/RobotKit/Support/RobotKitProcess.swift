import Foundation
import ProcessToolkit
import XCTest

/// What RobotKit keeps for the life of one test process, in one place with one owner: the
/// chromedriver it starts when robotci has not given it one, the warm browser, the failure
/// evidence and step-trace recorders, the XCTest observer, and what the process's exit must
/// stop. Each piece is made here and handed the others it uses; nothing else in RobotKit is
/// process-wide, so a piece can be built alone in a test (`SharedBrowser(driver:)`,
/// `TraceRecorder(mode:)`).
///
/// It is process-wide because what it owns is: one browser serves every test of the process
/// (and, under robotci, of the shard), the observer is registered once with XCTest, and an
/// `atexit` handler can reach nothing else.
final class RobotKitProcess: Sendable {
    static let current = RobotKitProcess()

    let exit: ExitCleanup
    let driver: ChromeDriverService
    let browser: SharedBrowser
    let evidence: FailureEvidence
    let trace: TraceRecorder
    private let registeredObserver = Locked<RobotKitTestObserver?>(nil)

    private init(environment: WorkerEnvironment = WorkerEnvironment()) {
        exit = ExitCleanup()
        driver = ChromeDriverService(exit: exit)
        browser = SharedBrowser(driver: driver)
        evidence = FailureEvidence()
        trace = TraceRecorder(mode: environment.trace)
    }

    /// The observer, registered with XCTest on first use (an app's launch, `XCUIApplication()`,
    /// a test setting `executionTimeAllowance`).
    var observer: RobotKitTestObserver {
        registeredObserver.withLock { registered in
            if let registered { return registered }
            let observer = RobotKitTestObserver(evidence: evidence, trace: trace)
            XCTestObservationCenter.shared.addTestObserver(observer)
            registered = observer
            return observer
        }
    }
}
