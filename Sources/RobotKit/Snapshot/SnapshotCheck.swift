import Foundation
import ProcessToolkit
import SnapshotCompare
import WorkerContract
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Judges a still capture against its baseline under `--update-snapshots`: a match passes; a
/// missing baseline is written (and fails under `none`, saying so); a mismatch fails with the
/// expected, actual and diff images, or under `all` becomes the new baseline.
struct SnapshotCheck {
    let location: SnapshotLocation
    let baseline: URL
    let update: SnapshotUpdate
    let tolerance: SnapshotTolerance
    /// The run's list of baselines its earlier attempts recorded under `none`
    /// (`ROBOTCI_SNAPSHOT_RECORDS`): a retry must not pass against what its own first
    /// attempt just wrote, or a missing baseline would end as a flaky test, not a failed one.
    var records: URL? = nil

    /// What the check decided.
    enum Verdict {
        /// The capture matches the baseline (`differing` pixels, within the tolerance).
        case matched(differing: Int)
        /// The baseline was written (missing, or rewritten under `all`); the check passes.
        case recorded(String)
        /// The check fails with `message`; `evidence` holds the images.
        case failed(String, SnapshotEvidence)
    }

    /// The command that accepts the actual image of this test's snapshots.
    var acceptCommand: String {
        "robotci run --update-snapshots all --filter '\(location.filter)'"
    }

    func judge(_ actual: RGBAImage) throws(RobotKitError) -> Verdict {
        // Encoding costs as much as the capture: only a write or a failure needs the PNG.
        guard let stored = FileManager.default.contents(atPath: baseline.path) else {
            let actualPNG = try Self.png(actual)
            try write(actualPNG)
            guard update == .none else { return .recorded("no baseline: recorded \(baseline.path)") }
            noteRecorded()
            let message = "no baseline for snapshot \"\(location.name)\": recorded \(baseline.path) "
                + "(\(actual.width)×\(actual.height)); look at it and commit it, the test passes from the next run "
                + "(--update-snapshots missing records and passes)"
            return .failed(message, SnapshotEvidence(check: self, kind: .missing, expected: nil, actual: actualPNG, diff: nil,
                                                     result: nil, actualSize: (actual.width, actual.height), expectedSize: nil))
        }
        if update == .none, recordedByThisRun {
            let message = "no committed baseline for snapshot \"\(location.name)\": \(baseline.path) was recorded by an "
                + "earlier attempt of this run; look at it and commit it, the test passes from the next run"
            return .failed(message, SnapshotEvidence(check: self, kind: .missing, expected: nil, actual: try Self.png(actual), diff: nil,
                                                     result: nil, actualSize: (actual.width, actual.height), expectedSize: nil))
        }
        let expected: RGBAImage
        do {
            expected = try RGBAImage(png: stored)
        } catch {
            if update == .all {
                try write(try Self.png(actual))
                return .recorded("unreadable baseline replaced: \(baseline.path)")
            }
            throw .artifacts("the snapshot baseline \(baseline.path) is \(error); delete it or run with --update-snapshots all")
        }
        let result = ImageComparator.compare(expected: expected, actual: actual, tolerance: tolerance)
        if update == .all {
            // Every compared snapshot becomes the baseline; an identical one needs no write.
            guard expected != actual else { return .matched(differing: 0) }
            try write(try Self.png(actual))
            return .recorded("baseline rewritten (\(result.differing) pixels differed): \(baseline.path)")
        }
        if result.matches(tolerance) { return .matched(differing: result.differing) }
        let share = Double(result.differing) / Double(max(result.total, 1)) * 100
        let what = result.sameSize
            ? "\(result.differing) pixels differ (\(String(format: "%.2f", share)) %)"
            : "its size changed from \(expected.width)×\(expected.height) to \(actual.width)×\(actual.height)"
        let message = "snapshot \"\(location.name)\" does not match its baseline: \(what); tolerance: colour "
            + "\(tolerance.color), \(tolerance.pixels) pixels (\(result.antiAliased) anti-aliased pixels ignored). "
            + "Baseline: \(baseline.path). Accept the actual image: \(acceptCommand)"
        let diff = try result.diff.map { image throws(RobotKitError) in try Self.png(image) }
        let actualPNG = try Self.png(actual)
        return .failed(message, SnapshotEvidence(check: self, kind: result.sameSize ? .mismatch : .size, expected: stored,
                                                 actual: actualPNG, diff: diff, result: result,
                                                 actualSize: (actual.width, actual.height),
                                                 expectedSize: (expected.width, expected.height)))
    }

    /// Whether an earlier attempt of this run recorded the baseline (its path is a line of `records`).
    private var recordedByThisRun: Bool {
        guard let records, let text = try? String(contentsOf: records, encoding: .utf8) else { return false }
        return text.split(separator: "\n").contains { $0 == baseline.path }
    }

    /// Adds the baseline to the run's list (one `write` of one line, appended: shards may add at once).
    private func noteRecorded() {
        guard let records else { return }
        appendLine(baseline.path, to: records.path)
    }

    /// Writes `png` as the baseline (its folders made; replaced whole or not at all).
    private func write(_ png: Data) throws(RobotKitError) {
        do {
            try FileManager.default.createDirectory(at: baseline.deletingLastPathComponent(), withIntermediateDirectories: true)
            try png.write(to: baseline, options: .atomic)
        } catch {
            throw .artifacts("could not write the snapshot baseline \(baseline.path): \(error)")
        }
    }

    static func png(_ image: RGBAImage) throws(RobotKitError) -> Data {
        do {
            return try image.png()
        } catch {
            throw .artifacts("could not encode the snapshot: \(error)")
        }
    }
}

/// A failed snapshot's images and what the report says of them: `snapshot-<test>.<name>.json`
/// beside `…-expected.png`, `…-actual.png` and `…-diff.png` in the attempt's artifacts, and
/// the same images in the failing step of its trace.
struct SnapshotEvidence {
    enum Kind: String {
        /// No baseline was there (it has been recorded).
        case missing
        /// Pixels differ beyond the tolerance.
        case mismatch
        /// The image has another size than the baseline.
        case size
    }

    let check: SnapshotCheck
    let kind: Kind
    let expected: Data?
    let actual: Data
    let diff: Data?
    let result: ImageComparator.Result?
    let actualSize: (Int, Int)
    let expectedSize: (Int, Int)?

    /// The images by role, for the artifacts and the trace.
    var images: [(role: String, data: Data)] {
        [("expected", expected), ("actual", actual), ("diff", diff)].compactMap { role, data in data.map { (role, $0) } }
    }

    /// The manifest the report reads (`ArtifactKind.snapshot`); `files` names each image by role.
    func manifest(files: [String: String]) -> [String: Any] {
        var out: [String: Any] = [
            "format": "robotci-snapshot-v1",
            "name": check.location.name, "test": check.location.test, "type": check.location.type,
            "browser": check.location.browser, "baseline": check.baseline.path, "kind": kind.rawValue,
            "tolerance": ["color": check.tolerance.color, "pixels": check.tolerance.pixels],
            "actualSize": [actualSize.0, actualSize.1], "filter": check.location.filter, "command": check.acceptCommand,
        ]
        if let expectedSize { out["expectedSize"] = [expectedSize.0, expectedSize.1] }
        if let result {
            out["differingPixels"] = result.differing
            out["antiAliasedPixels"] = result.antiAliased
            out["totalPixels"] = result.total
        }
        for (role, file) in files { out[role] = file }
        return out
    }

    /// Writes the manifest and the images into `directory`; returns the problems.
    func write(to directory: URL) -> [String] {
        let stem = check.location.artifactStem
        var files: [String: String] = [:]
        var problems: [String] = []
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            for (role, data) in images {
                let name = "\(stem)-\(role).png"
                try data.write(to: directory.appendingPathComponent(name), options: .atomic)
                files[role] = name
            }
            let json = try JSONSerialization.data(withJSONObject: manifest(files: files), options: [.prettyPrinted, .sortedKeys])
            try json.write(to: directory.appendingPathComponent(stem + ".json"), options: .atomic)
        } catch {
            problems.append("could not write the snapshot's images to \(directory.path): \(error)")
        }
        return problems
    }

    /// Where a failed snapshot's images go: the attempt's artifacts under robotci, else one
    /// private folder per test (made at its first failed snapshot, kept for the test's others).
    static func directory(for test: String) -> URL {
        if let directory = WorkerEnvironment().artifactsDirectory { return directory }
        return folders.withLock { known in
            if let folder = known[test] { return folder }
            let folder = FailureEvidence.directory(for: "snapshots.\(test)", fresh: true)
            known[test] = folder
            return folder
        }
    }

    private static let folders = Locked<[String: URL]>([:])
}

/// Appends `line` and a newline to the file at `path` (created 0600) in one `write(2)` on an
/// `O_APPEND` descriptor, so lines of processes appending at once never interleave.
private func appendLine(_ line: String, to path: String) {
    let fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
    guard fd >= 0 else { return }
    defer { close(fd) }
    let bytes = Array((line + "\n").utf8)
    #if canImport(Glibc)
    _ = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
    #else
    _ = bytes.withUnsafeBytes { Darwin.write(fd, $0.baseAddress, $0.count) }
    #endif
}
