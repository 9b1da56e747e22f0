import Foundation
import ProcessToolkit
import RobotCICore
import RobotCIReport

/// A built XCTest bundle and how to run a subset of it.
struct TestBundle: Sendable {
    /// On Linux, the `.xctest` executable; on macOS, the `.xctest` bundle folder.
    let path: String
    let workingDirectory: String

    /// The command that runs `tests`, all of one library.
    func command(for tests: [TestID], swiftTesting: Bool) -> (executable: String, arguments: [String]) {
        guard swiftTesting else { return command(filter: tests.map(\.test).joined(separator: ",")) }
        // Serial, so the running test is always known; results as JSON events on fd 3, a
        // channel of their own (`ChildProcess.eventFD`): nothing a test prints can inject or
        // hide an event.
        var args = ["--testing-library", "swift-testing", "--no-parallel",
                    "--event-stream-output-path", "/dev/fd/3", "--event-stream-version", "0"]
        for t in tests {
            args += ["--filter", "^" + NSRegularExpression.escapedPattern(for: t.test) + "(/|$)"]
        }
        if let stdbuf = TestBundle.stdbuf { return (stdbuf, ["-oL", "-eL", path] + args) }
        return (path, args)
    }

    func command(filter: String) -> (executable: String, arguments: [String]) {
        #if os(macOS)
        return ("/usr/bin/xcrun", ["xctest", "-XCTest", filter, path])
        #else
        // Line-buffer the test's stdout (it is a pipe, so stdio would buffer fully):
        // output printed just before a crash is not lost, and results stream as they happen.
        if let stdbuf = TestBundle.stdbuf { return (stdbuf, ["-oL", "-eL", path, filter]) }
        return (path, [filter])
        #endif
    }

    private static let stdbuf: String? = ["/usr/bin/stdbuf", "/bin/stdbuf"].first { FileManager.default.isExecutableFile(atPath: $0) }

    /// Swift Testing's tests (`@Test`) and their tags, via `--testing-library swift-testing
    /// --list-tests` with an event stream (version 0): its `test` records are the structured
    /// list (`_tags` holds the tags, an experimental field version 0 includes), the printed
    /// names what `--filter` takes (`TestListing.swiftTesting` matches the two). None when the
    /// bundle's toolchain cannot list Swift Testing tests at all.
    func listSwiftTesting() throws -> TestListing.SwiftTesting {
        #if os(Linux)
        let stream = FileManager.default.temporaryDirectory.appendingPathComponent("robotci-list-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).jsonl")
        defer { try? FileManager.default.removeItem(at: stream) }
        guard let (termination, output) = try? runCaptured(path, ["--testing-library", "swift-testing", "--list-tests",
                                                                 "--event-stream-output-path", stream.path, "--event-stream-version", "0"],
                                                           workingDirectory: workingDirectory),
              termination == .exited(0) else { return TestListing.SwiftTesting(tests: [], tags: [:]) }
        let records = (try? RegularFile.read(stream.path, limit: 64 << 20)).map { String(decoding: $0, as: UTF8.self) } ?? ""
        do {
            return try TestListing.swiftTesting(listing: output, records: records)
        } catch {
            throw RunnerError.unplannable(path, error.description)
        }
        #else
        return TestListing.SwiftTesting(tests: [], tags: [:])
        #endif
    }

    /// The tests the bundle contains, via `--list-tests`.
    func listTests() throws -> [TestID] {
        #if os(macOS)
        let (termination, output) = try runCaptured("/usr/bin/xcrun", ["xctest", "-XCTest", "All", "-l", path], workingDirectory: workingDirectory)
        #else
        let (termination, output) = try runCaptured(path, ["--list-tests"], workingDirectory: workingDirectory)
        #endif
        guard termination == .exited(0) else { throw RunnerError.discoveryFailed(path, output) }
        do {
            return try TestListing.xctest(output)
        } catch {
            throw RunnerError.unplannable(path, error.description)
        }
    }
}
