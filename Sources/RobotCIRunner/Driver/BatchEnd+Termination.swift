import ProcessToolkit
import RobotCICore

extension BatchEnd {
    /// How a batch's process ended by itself.
    init(_ termination: ChildProcess.Termination) {
        switch termination {
        case .exited(let code): self = .exited(code)
        case .signaled(let signal): self = .signaled(signal)
        }
    }

    /// How a batch ended, decided in this one place for every driver: the run's `stop` when
    /// the run stopped (robotci killed the batch for it, or would have), else robotci's
    /// timeout kill (`timeout`, the driver's kind of timeout), else the process's own end.
    static func deciding(_ end: ChildProcess.Termination, timeout: BatchEnd?, stop: RunStop?) -> BatchEnd {
        if let stop { return .stopped(stop) }
        return timeout ?? BatchEnd(end)
    }
}
