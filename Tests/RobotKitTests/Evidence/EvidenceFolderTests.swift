import Foundation
@testable import RobotKit
import XCTest

/// Where failure evidence goes outside robotci (issue 39). It was
/// `$TMPDIR/robotkit-artifacts/TEST`, a fixed name any local user could create first (and so
/// own, or point elsewhere with a symlink) and whose files everyone could read (0755/0644).
/// Now each test gets a fresh `mkdtemp` folder, mode 0700.
final class EvidenceFolderTests: XCTestCase {
    private let test = "EvidenceFolderTests.probe\(UUID().uuidString.prefix(8))"
    private var made: [URL] = []

    override func tearDown() {
        for url in made { try? FileManager.default.removeItem(at: url) }
    }

    private func mode(_ url: URL) throws -> Int {
        try XCTUnwrap(FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int)
    }

    func testEvidenceFolderIsPrivateAndUnpredictable() throws {
        try XCTSkipIf(WorkerEnvironment().artifactsDirectory != nil, "under robotci the attempt's folder is used")
        let first = FailureEvidence.directory(for: test, fresh: true)
        made.append(first)
        XCTAssertEqual(try mode(first) & 0o777, 0o700, first.path)
        let second = FailureEvidence.directory(for: test, fresh: true)
        made.append(second)
        XCTAssertEqual(try mode(second) & 0o777, 0o700, second.path)
        XCTAssertNotEqual(first.standardizedFileURL, second.standardizedFileURL, "a fresh folder is a new name")
        XCTAssertFalse(first.path.contains("/robotkit-artifacts/"), "not the fixed, shared parent folder: \(first.path)")
        var isDirectory: ObjCBool = false
        XCTAssertTrue(FileManager.default.fileExists(atPath: second.path, isDirectory: &isDirectory) && isDirectory.boolValue)
        XCTAssertFalse(FileManager.default.fileExists(atPath: first.path), "the test's older folder is cleared")
    }

    /// Another user's folder at the old fixed path is neither used nor followed.
    func testAPreparedFolderAtTheOldPathIsNotUsed() throws {
        try XCTSkipIf(WorkerEnvironment().artifactsDirectory != nil, "under robotci the attempt's folder is used")
        let trap = FileManager.default.temporaryDirectory.appendingPathComponent("robotkit-trap-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: trap, withIntermediateDirectories: true)
        made.append(trap)
        let parent = FileManager.default.temporaryDirectory.appendingPathComponent("robotkit-artifacts")
        try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
        let safe = String(test.map { $0.isLetter || $0.isNumber || $0 == "." || $0 == "_" ? $0 : "_" })
        let planted = parent.appendingPathComponent(safe)
        try FileManager.default.createSymbolicLink(at: planted, withDestinationURL: trap)
        made.append(planted)
        let directory = FailureEvidence.directory(for: test, fresh: true)
        made.append(directory)
        XCTAssertFalse(directory.resolvingSymlinksInPath().path.hasPrefix(trap.resolvingSymlinksInPath().path), directory.path)
        XCTAssertEqual(try mode(directory) & 0o777, 0o700)
    }
}
