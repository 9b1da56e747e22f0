import Foundation
import ProcessToolkit
import RobotCICore
import RobotCIReport

/// The one place a run's stop is decided: set once, by the first of SIGINT/SIGTERM
/// (`RunStop.signal`, exit 130), `--max-failures`, or another machine of the queue stopping
/// it. Batches read it to name how they ended (`BatchEnd.stopped`), the runner to write it
/// into the metadata and to give every test left without a result its reason.
/// One per run: the `Runner` makes it and hands it to the `AttemptRouter`, which batches
/// read it through; a unit test makes its own (nothing process-wide to reset).
final class RunInterruption: Sendable {
    init() {}

    private let state = Locked<RunStop?>(nil)

    /// Why the run stopped, once it did: running batches are being killed and what they leave
    /// unfinished is not blamed on a test.
    var stop: RunStop? { state.withLock { $0 } }
    var isInterrupted: Bool { stop != nil }

    /// SIGINT/SIGTERM. A signal after another stop does not change why the run stopped.
    func interrupt() { stop(.signal) }

    /// Stops the run for `reason`; false when it was already stopping.
    @discardableResult
    func stop(_ reason: RunStop) -> Bool {
        state.withLock { s in
            guard s == nil else { return false }
            s = reason
            return true
        }
    }
}
