import Foundation
import ProcessToolkit
import RobotCICore
import RobotCIReport

/// Set once when the run must stop before its queue is empty: robotci received SIGINT or
/// SIGTERM (`bySignal`, exit 130), or it decided to stop early (`--max-failures`, or another
/// machine of the queue did), with the reason every test left without a result is given.
/// One per run: the `Runner` makes it and hands it to the `AttemptRouter`, which batches
/// read it through; a unit test makes its own (nothing process-wide to reset).
final class RunInterruption: Sendable {
    init() {}

    private struct State {
        var signalled = false
        var early: String?
    }

    private let state = Locked(State())

    /// True once the run stops for any reason: running batches are being killed and what they
    /// leave unfinished is not blamed on a test.
    var isInterrupted: Bool { state.withLock { $0.signalled || $0.early != nil } }
    /// True when a signal stopped the run (the report is partial, exit 130).
    var bySignal: Bool { state.withLock { $0.signalled } }
    /// Why the run stopped early on its own, if it did.
    var earlyStop: String? { state.withLock { $0.early } }

    func interrupt() { state.withLock { $0.signalled = true } }

    /// Stops the run for `reason`; false when it was already stopping.
    @discardableResult
    func stopEarly(_ reason: String) -> Bool {
        state.withLock { s in
            guard !s.signalled && s.early == nil else { return false }
            s.early = reason
            return true
        }
    }
}
