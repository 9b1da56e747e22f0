import Foundation
@testable import RobotCIRunner
import TestSupport
import XCTest

/// What `robotci run` asks of SwiftPM, with a `swift` that records how it was called.
final class SwiftPackageTests: FolderTestCase {

    /// SwiftPM leaves a `TemporaryDirectory.*` behind on every call; the build's temporary
    /// folder is one of robotci's own, gone once the build is.
    func testTheBuildKeepsSwiftPMsTemporaryFilesOutOfTheTemporaryFolder() throws {
        let record = folder.appendingPathComponent("called").path
        let fake = folder.appendingPathComponent("swift").path
        let script = """
            #!/bin/sh
            printf '%s\\n%s\\n' "$TMPDIR" "$*" > '\(record)'
            mkdir "$TMPDIR/TemporaryDirectory.left"
            echo 'Build complete!'
            """
        try Data(script.utf8).write(to: URL(fileURLWithPath: fake))
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: fake)
        var lines: [String] = []
        try SwiftPackage(path: "/some/package", configuration: "debug", extraArguments: ["-Xswiftc", "-g"], swift: fake)
            .build { lines.append($0) }
        let called = try String(contentsOfFile: record, encoding: .utf8).split(separator: "\n").map(String.init)
        XCTAssertEqual(called.count, 2, "\(called)")
        let folder = called[0]
        XCTAssertTrue(folder.hasPrefix(FileManager.default.temporaryDirectory.appendingPathComponent("robotci-swiftpm-").path), folder)
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder), "the build's temporary folder is removed with what SwiftPM left in it")
        XCTAssertEqual(called[1], "build --build-tests --package-path /some/package -c debug -Xswiftc -g")
        XCTAssertEqual(lines, ["Build complete!"])
    }
}
