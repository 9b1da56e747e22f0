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
        guard swiftTesting else { return command(filter: tests.map(\.rawValue).joined(separator: ",")) }
        // Serial, so the running test is always known; results as JSON events on fd 3, a
        // channel of their own (`ChildProcess.eventFD`): nothing a test prints can inject or
        // hide an event.
        var args = ["--testing-library", "swift-testing", "--no-parallel",
                    "--event-stream-output-path", "/dev/fd/3", "--event-stream-version", "0"]
        for t in tests {
            args += ["--filter", "^" + NSRegularExpression.escapedPattern(for: t.rawValue) + "(/|$)"]
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

    /// Swift Testing's tests (`@Test`), via `--testing-library swift-testing --list-tests`;
    /// empty when the bundle has none or its toolchain cannot list them.
    func listSwiftTestingTests() -> [TestID] {
        #if os(Linux)
        guard let (termination, output) = try? runCaptured(path, ["--testing-library", "swift-testing", "--list-tests"],
                                                           workingDirectory: workingDirectory),
              termination == .exited(0) else { return [] }
        return output.split(separator: "\n").compactMap { line in
            let t = line.trimmingCharacters(in: .whitespaces)
            return t.hasSuffix(")") && !t.contains(" ") ? TestID(t) : nil
        }
        #else
        return []
        #endif
    }

    /// Each Swift Testing test's tags, with its suites' (Swift Testing gives a suite's tags to
    /// every test in it), names without the leading dot (`smoke` for `.smoke`). `--list-tests`
    /// prints no tags; with an event stream (version 0) it also writes one `test` record per
    /// test and suite, whose `_tags` (an experimental field version 0 includes) hold them.
    /// Throws when the toolchain writes no such records.
    func listSwiftTestingTags() throws -> [TestID: Set<String>] {
        #if os(Linux)
        let stream = FileManager.default.temporaryDirectory.appendingPathComponent("robotci-tags-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).jsonl")
        defer { try? FileManager.default.removeItem(at: stream) }
        let (termination, output) = try runCaptured(path, ["--testing-library", "swift-testing", "--list-tests",
                                                           "--event-stream-output-path", stream.path, "--event-stream-version", "0"],
                                                    workingDirectory: workingDirectory)
        let records = (try? RegularFile.read(stream.path, limit: 64 << 20)).map { String(decoding: $0, as: UTF8.self) }
        guard termination == .exited(0), let records else {
            throw RunnerError.discoveryFailed("\(path) (listing Swift Testing tests with their tags: --list-tests --event-stream-output-path)",
                                              output + "\n(this toolchain's Swift Testing wrote no event stream for --list-tests, so --tag cannot see tags; select the tests with --filter instead)")
        }
        return SwiftTestingTags.parse(records)
        #else
        throw ConfigError("--tag needs the Swift Testing event stream of a Linux test bundle; on this platform select tests with --filter")
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
        var tests: [TestID] = []
        for line in output.split(separator: "\n") {
            let t = line.trimmingCharacters(in: .whitespaces)
            // `Module.Class/testName`; skip the "Listing N tests in …" header.
            guard t.contains("/"), !t.contains(" ") else { continue }
            tests.append(TestID(t))
        }
        return tests
    }
}
