import Foundation
import RobotCICore
import RobotCIReport

/// Set once when robotci receives SIGINT/SIGTERM.
final class RunInterruption: @unchecked Sendable {
    static let shared = RunInterruption()
    private let lock = NSLock()
    private var flag = false

    var isInterrupted: Bool { lock.withLock { flag } }
    func interrupt() { lock.withLock { flag = true } }
}
