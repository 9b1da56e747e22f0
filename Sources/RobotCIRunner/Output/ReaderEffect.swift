import RobotCICore

/// What a bundle output reader asks its batch to do, in the order it must be done. The
/// reader only reads; `BatchRun.apply` writes the log, moves and deletes files and tells
/// the router.
enum ReaderEffect: Equatable {
    /// A line for the batch's log (every output line, and robotci's own notes).
    case log(Substring)
    /// The test's result line came (its tearDown has run): the files it left are its own.
    /// The batch moves them and hands them back with `attach(_:to:)` before the next input.
    case artifactsDue(TestID)
    /// The output says the test failed; its result is held until the process ends
    /// (`--max-failures` counts it now).
    case provisionalFailure(TestID, Attempt)
    /// The held results are about to be reported.
    case provisionalSettled
    /// A finished attempt for the router.
    case report(TestID, Attempt)
    /// The test gets no result here and will not run again (the run stopped early).
    case notRun(TestID, reason: String)
    /// The attempt runs again alone: its files go, so the new run's are the only ones.
    case discard(TestID)
}
