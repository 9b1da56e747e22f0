import Foundation
import RobotCICore

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
