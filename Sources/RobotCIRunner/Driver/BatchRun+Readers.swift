import Foundation
import RobotCICore

extension ReaderBatch {
    /// What a reader of `batch` needs to know of it.
    init(_ batch: BatchRun) {
        self.init(item: batch.item, shard: batch.shard, logPath: batch.logPath, start: batch.start, rules: batch.rules)
    }
}

extension BatchRun {
    /// Does what `reader` asked, in its order. `.artifactsDue` moves the files the test left
    /// into its attempt folder and hands them back to `reader`.
    func apply<Reader: BundleOutputReading>(_ effects: [ReaderEffect], to reader: inout Reader) {
        for effect in effects {
            switch effect {
            case .log(let line): log.write(line)
            case .artifactsDue(let test): reader.attach(collectArtifacts(of: test), to: test)
            case .provisionalFailure(let test, let attempt): provisionalFailure(test, attempt)
            case .provisionalSettled: provisionalSettled()
            case .report(let test, let attempt): report(test, attempt)
            case .notRun(let test, let reason): notRun(test, reason: reason)
            case .discard(let test): discard(test)
            }
        }
    }

    /// An attempt that will run again alone: its files go, so the new run's are the only ones.
    func discard(_ test: TestID) {
        try? FileManager.default.removeItem(at: layout.directory.appendingPathComponent(attemptDirectory(of: test)))
    }
}
