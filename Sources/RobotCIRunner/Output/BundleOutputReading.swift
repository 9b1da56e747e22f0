import ProcessToolkit
import RobotCICore

/// A reader of one bundle process's output: `XCTestOutputReader` or
/// `SwiftTestingOutputReader`. It only reads: each input, with the time it arrived, gives
/// back what the batch must do (`ReaderEffect`), which `BatchRun.apply` does in order.
protocol BundleOutputReading {
    /// The verdict rules both protocols share; the queries below read it.
    var core: OutputReaderCore { get set }
    /// A line of the process's output (stdout and stderr), at `time` (run clock).
    mutating func read(line: Substring, at time: Double) -> [ReaderEffect]
    /// A line of the event channel (fd 3), at `time`.
    mutating func read(event: Substring, at time: Double) -> [ReaderEffect]
    /// The files the batch moved after `.artifactsDue(test)`: part of the test's attempt.
    mutating func attach(_ artifacts: [Artifact], to test: TestID)
    /// The process ended by itself or was killed at its deadline (`timedOut`), at `now`.
    mutating func finish(end: ChildProcess.Termination, timedOut: Bool, now: Double) -> ReaderFinish
    /// robotci stopped the run early and killed the process.
    mutating func finishStopped(reason: String) -> ReaderFinish
    /// When the process is to be killed (run clock).
    func deadline() -> Double
    /// The test timeout the deadline counts now.
    var timeoutInForce: Double { get }
    /// The batch's tests no line said started.
    var unstarted: [TestID] { get }
    var noTestStarted: Bool { get }
}

extension BundleOutputReading {
    mutating func attach(_ artifacts: [Artifact], to test: TestID) { core.attach(artifacts, to: test) }
    mutating func finishStopped(reason: String) -> ReaderFinish { core.finishStopped(reason: reason) }
    func deadline() -> Double { core.deadline() }
    var timeoutInForce: Double { core.timeoutInForce }
    var unstarted: [TestID] { core.unstarted }
    var noTestStarted: Bool { core.noTestStarted }
}
