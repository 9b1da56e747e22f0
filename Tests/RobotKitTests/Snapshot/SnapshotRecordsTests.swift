import Foundation
@testable import RobotKit
import SnapshotCompare
import WorkerContract
import XCTest

/// Under `--update-snapshots none` a missing baseline is recorded and its test fails. A retry
/// of that test in the same run compares against what its first attempt just wrote: it must
/// fail as well (the test is failed, not flaky), while the next run passes against it.
final class SnapshotRecordsTests: XCTestCase {
    private func image(_ shade: UInt8) -> RGBAImage {
        var image = RGBAImage(width: 4, height: 3)
        for i in stride(from: 0, to: image.pixels.count, by: 4) {
            image.pixels[i] = shade
            image.pixels[i + 1] = shade
            image.pixels[i + 2] = shade
            image.pixels[i + 3] = 255
        }
        return image
    }

    private func verdict(_ v: SnapshotCheck.Verdict) -> String {
        switch v {
        case .matched: "matched"
        case .recorded: "recorded"
        case .failed(let message, _): "failed: " + message
        }
    }

    func testARetryOfTheRunThatRecordedTheBaselineFailsAndTheNextRunPasses() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("snapshot-records-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let baseline = folder.appendingPathComponent("__Snapshots__/chromium/T/testA.card.png")
        let records = folder.appendingPathComponent("run/snapshots-recorded")
        try FileManager.default.createDirectory(at: records.deletingLastPathComponent(), withIntermediateDirectories: true)
        let location = SnapshotLocation(browser: "chromium", type: "T", test: "testA", name: "card")
        func check(records: URL?, update: SnapshotUpdate = .none) -> SnapshotCheck {
            SnapshotCheck(location: location, baseline: baseline, update: update, tolerance: .standard, records: records)
        }

        let first = verdict(try check(records: records).judge(image(200)))
        XCTAssertTrue(first.hasPrefix("failed: no baseline for snapshot \"card\": recorded"), first)
        XCTAssertTrue(FileManager.default.fileExists(atPath: baseline.path), "the baseline is written")
        XCTAssertEqual(try String(contentsOf: records, encoding: .utf8), baseline.path + "\n", "and listed as this run's")

        let retry = verdict(try check(records: records).judge(image(200)))
        XCTAssertTrue(retry.hasPrefix("failed: no committed baseline for snapshot \"card\""), retry)
        XCTAssertTrue(retry.contains("recorded by an earlier attempt of this run"), retry)

        XCTAssertEqual(verdict(try check(records: records, update: .missing).judge(image(200))), "matched",
                       "--update-snapshots missing accepts what the run recorded")
        let nextRun = folder.appendingPathComponent("run2/snapshots-recorded")
        XCTAssertEqual(verdict(try check(records: nextRun).judge(image(200))), "matched", "the next run passes against it")
        XCTAssertEqual(verdict(try check(records: nil).judge(image(200))), "matched", "outside robotci: no run list")
        XCTAssertTrue(verdict(try check(records: nextRun).judge(image(20))).hasPrefix("failed: snapshot \"card\" does not match"),
                      "and still fails a real difference")
    }
}
