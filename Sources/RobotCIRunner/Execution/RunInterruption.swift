import Foundation
import RobotCICore
import RobotCIReport

/// Set once when the run must stop before its queue is empty: robotci received SIGINT or
/// SIGTERM (`bySignal`, exit 130), or it decided to stop early (`--max-failures`, or another
/// machine of the queue did), with the reason every test left without a result is given.
final class RunInterruption: @unchecked Sendable {
    static let shared = RunInterruption()
    private let lock = NSLock()
    private var signalled = false
    private var early: String?

    /// True once the run stops for any reason: running batches are being killed and what they
    /// leave unfinished is not blamed on a test.
    var isInterrupted: Bool { lock.withLock { signalled || early != nil } }
    /// True when a signal stopped the run (the report is partial, exit 130).
    var bySignal: Bool { lock.withLock { signalled } }
    /// Why the run stopped early on its own, if it did.
    var earlyStop: String? { lock.withLock { early } }

    func interrupt() { lock.withLock { signalled = true } }

    /// Stops the run for `reason`; false when it was already stopping.
    @discardableResult
    func stopEarly(_ reason: String) -> Bool {
        lock.withLock {
            guard !signalled && early == nil else { return false }
            early = reason
            return true
        }
    }
}
