import RobotCICore

/// A reader's decision once the process has ended: the effects to apply, then the tests to
/// run again one per process.
struct ReaderFinish: Equatable {
    var effects: [ReaderEffect]
    var isolate: [TestID]
}
