import Foundation
import SnapshotCompare
import WorkerContract

/// What a run says about snapshots, read once per check from the environment robotci gives
/// the test process: which baselines to write (`ROBOTCI_UPDATE_SNAPSHOTS`), the default
/// tolerance (`ROBOTCI_SNAPSHOT_TOLERANCE`), and where baselines live when not beside the
/// tests (`ROBOTKIT_SNAPSHOTS_DIR`).
struct SnapshotSettings: Equatable {
    var update: SnapshotUpdate = .none
    var tolerance: SnapshotTolerance = .standard
    /// A folder holding `<browser>/<TestType>/<test>.<name>.png`; nil: `__Snapshots__` beside the calling file.
    var root: URL?
    /// The run's list of baselines recorded by its attempts (`ROBOTCI_SNAPSHOT_RECORDS`).
    var records: URL?

    static let rootVariable = "ROBOTKIT_SNAPSHOTS_DIR"

    init(update: SnapshotUpdate = .none, tolerance: SnapshotTolerance = .standard, root: URL? = nil) {
        self.update = update
        self.tolerance = tolerance
        self.root = root
    }

    init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        let worker = WorkerEnvironment(environment)
        update = worker.updateSnapshots
        tolerance = SnapshotTolerance(color: worker.snapshotTolerance ?? SnapshotTolerance.standard.color)
        root = environment[Self.rootVariable].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0, isDirectory: true) }
        records = worker.snapshotRecords
    }
}
