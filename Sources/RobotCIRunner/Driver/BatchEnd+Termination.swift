import ProcessToolkit
import RobotCICore

extension BatchEnd {
    /// How a batch's process ended by itself (robotci's kills are named by the driver).
    init(_ termination: ChildProcess.Termination) {
        switch termination {
        case .exited(let code): self = .exited(code)
        case .signaled(let signal): self = .signaled(signal)
        }
    }
}
