import Foundation
import TestSupport
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// `robotci init` as a new team uses it: an empty folder outside the checkout, init, run.
/// One test method on purpose: the generated package builds robotci and its dependencies
/// (swift-nio, Yams, ArgumentParser) from scratch, minutes on 2 cores, so it is paid once.
/// The build folder is a fixed one under the checkout's `.build/` (`--scratch-path`, through
/// `ROBOTCI_BUILD_ARGUMENTS`), so a later run of this test rebuilds only the generated target.
final class InitEndToEndTests: XCTestCase {
    func testInitThenRunIsGreenInAFreshFolderAndASecondInitChangesNothing() throws {
        try skipUnlessThePackageMirrorAnswers()
        // A fixed folder name (so a fixed package and bundle name) in a fresh temporary folder:
        // the shared build folder then holds one bundle of this test, not one per run.
        let parent = E2E.temporaryDirectory("init")
        defer { try? FileManager.default.removeItem(at: parent) }
        let folder = parent.appendingPathComponent("team-app")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        XCTAssertFalse(folder.path.hasPrefix(E2E.root.path + "/"), "the team's folder is outside robotci's checkout")

        // init
        let t0 = Date()
        let first = try E2E.run(["init", "--robotci", E2E.root.path], cwd: folder.path, timeout: 60)
        let initSeconds = Date().timeIntervalSince(t0)
        XCTAssertEqual(first.status, 0, first.stderr)
        for path in ["Package.swift", "robotci.yml", ".github/workflows/ui-tests.yml", "sample-app/index.html"] {
            XCTAssertTrue(first.stdout.contains("wrote       \(path)"), "init wrote \(path):\n\(first.stdout)")
        }
        let manifest = try String(contentsOf: folder.appendingPathComponent("Package.swift"), encoding: .utf8)
        // The checkout's path as written: absolute, or relative to the team's folder when the
        // two share more than `/` (a checkout under /tmp, as CI's may be).
        let written = RobotCIDependencyPath.path(in: manifest)
        XCTAssertNotNil(written, manifest)
        if let written {
            let resolved = written.hasPrefix("/") ? URL(fileURLWithPath: written) : folder.appendingPathComponent(written)
            XCTAssertEqual(resolved.standardizedFileURL.resolvingSymlinksInPath().path,
                           E2E.root.standardizedFileURL.resolvingSymlinksInPath().path, manifest)
        }

        // run, right after init
        let runID = "init-e2e-\(UUID().uuidString.prefix(8))"
        let scratch = E2E.root.appendingPathComponent(".build/e2e-init-scratch").path
        let t1 = Date()
        let run = try E2E.run(["run", "--shards", "2"],
                              env: ["ROBOTCI_BUILD_ARGUMENTS": "--scratch-path,\(scratch)", "ROBOTCI_RUN_ID": runID],
                              cwd: folder.path, timeout: 1200)
        let runSeconds = Date().timeIntervalSince(t1)
        XCTAssertEqual(run.status, 0, "robotci run after init:\n\(run.stderr.suffix(4000))")

        let report = folder.appendingPathComponent("robotci-report")
        XCTAssertTrue(FileManager.default.fileExists(atPath: report.appendingPathComponent("index.html").path), "the HTML report")
        let verdicts = try E2E.junitVerdicts(report.appendingPathComponent("junit.xml"))
        let robotTests = verdicts.filter { $0.key.hasPrefix("TeamAppUITests.HomeUITests/") }
        XCTAssertGreaterThanOrEqual(robotTests.count, 2, "\(verdicts.keys)")
        XCTAssertTrue(robotTests.values.allSatisfy { $0.verdict == "passed" }, "\(robotTests.mapValues(\.verdict))")

        // Through Chromium: each test's robot steps ran in the page and the page called the mock.
        let attachments = try FileManager.default.subpathsOfDirectory(atPath: report.appendingPathComponent("attachments").path)
        let steps = attachments.filter { $0.hasSuffix("steps.json") }
        let journals = attachments.filter { $0.hasSuffix("mock-requests.json") }
        XCTAssertGreaterThanOrEqual(steps.count, 2)
        for journal in journals {
            let text = try String(contentsOf: report.appendingPathComponent("attachments/\(journal)"), encoding: .utf8)
            XCTAssertTrue(text.contains("\"/greeting\""), "the sample page asked the mock for /greeting: \(journal)")
        }
        XCTAssertGreaterThanOrEqual(journals.count, 2)
        for step in steps {
            let text = try String(contentsOf: report.appendingPathComponent("attachments/\(step)"), encoding: .utf8)
            XCTAssertTrue(text.contains("\"robot\" : \"HomeRobot\"") && text.contains("\"status\" : \"passed\""), text)
        }

        // No browser left: nothing running in that folder or carrying this run's id.
        var left: [String] = []
        for _ in 0..<20 {
            left = Self.processes(inside: folder.path) + E2E.processes(withEnvironment: "ROBOTCI_RUN_ID=\(runID)")
            if left.isEmpty { break }
            usleep(250_000)
        }
        XCTAssertEqual(left, [], "processes outlived the run")

        // A second init changes no file.
        let before = try Self.snapshot(folder)
        let second = try E2E.run(["init", "--robotci", E2E.root.path], cwd: folder.path, timeout: 60)
        XCTAssertEqual(second.status, 0, second.stderr)
        XCTAssertFalse(second.stdout.contains("wrote "), second.stdout)
        XCTAssertTrue(second.stdout.contains("left alone  Package.swift"), second.stdout)
        XCTAssertTrue(second.stdout.contains("Nothing to do"), second.stdout)
        XCTAssertEqual(try Self.snapshot(folder), before, "a second init changed files")

        print(String(format: "INIT-E2E | init %.2f s | run (build + %d tests) %.1f s | %d files, none changed by a second init",
                     initSeconds, robotTests.count, runSeconds, before.count))
    }

    /// Every file (not the report or the build) with its bytes and modification time.
    private static func snapshot(_ folder: URL) throws -> [String: String] {
        var out: [String: String] = [:]
        let fm = FileManager.default
        for path in try fm.subpathsOfDirectory(atPath: folder.path)
        where !path.hasPrefix("robotci-report") && !path.hasPrefix(".build") {
            let url = folder.appendingPathComponent(path)
            var isDirectory: ObjCBool = false
            guard fm.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue else { continue }
            let attributes = try fm.attributesOfItem(atPath: url.path)
            let modified = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
            out[path] = "\(modified) \(try Data(contentsOf: url).base64EncodedString())"
        }
        return out
    }

    /// Processes whose working folder is `folder` or below it (chromedriver, Chromium, test bundles).
    private static func processes(inside folder: String) -> [String] {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return [] }
        return entries.compactMap { pid -> String? in
            guard Int32(pid) != nil, Int32(pid) != getpid(),
                  let cwd = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/cwd"),
                  cwd == folder || cwd.hasPrefix(folder + "/"),
                  let cmd = ProcessTable.contents(of: "/proc/\(pid)/cmdline") else { return nil }
            return "\(pid): " + String(decoding: cmd.map { $0 == 0 ? 32 : $0 }, as: UTF8.self)
        }
    }

    /// The generated package resolves robotci's dependencies by their GitHub URLs; without
    /// network that works only through the local package mirror (git's URL rewrite).
    private func skipUnlessThePackageMirrorAnswers() throws {
        let git = Process()
        git.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        git.arguments = ["git", "ls-remote", "--exit-code", "https://github.com/apple/swift-nio", "HEAD"]
        git.standardOutput = FileHandle.nullDevice
        git.standardError = FileHandle.nullDevice
        var environment = ProcessInfo.processInfo.environment
        environment["GIT_TERMINAL_PROMPT"] = "0"
        git.environment = environment
        try git.run()
        let deadline = Date().addingTimeInterval(30)
        while git.isRunning && Date() < deadline { usleep(100_000) }
        if git.isRunning { git.terminate() }
        git.waitUntilExit()
        if git.terminationStatus != 0 {
            throw XCTSkip("https://github.com/apple/swift-nio does not answer (no network and no local package mirror): the package robotci init writes cannot resolve robotci's dependencies here")
        }
    }
}

/// The `path:` of the `.package(name: "robotci", path: …)` line of a manifest.
enum RobotCIDependencyPath {
    static func path(in manifest: String) -> String? {
        guard let start = manifest.range(of: ".package(name: \"robotci\", path: \"") else { return nil }
        let rest = manifest[start.upperBound...]
        guard let end = rest.firstIndex(of: "\"") else { return nil }
        return String(rest[..<end])
    }
}
