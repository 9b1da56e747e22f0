import Foundation
import TestSupport
import XCTest
#if canImport(FoundationXML)
import FoundationXML
#endif
#if canImport(Glibc)
import Glibc
#endif

/// Runs the built `robotci` binary and fixture packages for end-to-end tests.
enum E2E {
    /// Root of the robotci repository.
    static let root: URL = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func fixture(_ name: String) -> String { root.appendingPathComponent("Tests/Fixtures/\(name)").path }

    /// `robotci`, built next to the test bundle by `swift build --build-tests`.
    static var robotci: String {
        let candidates = [
            Bundle.main.bundleURL.appendingPathComponent("robotci").path,
            Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("robotci").path,
            root.appendingPathComponent(".build/debug/robotci").path,
        ]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) } ?? candidates.last!
    }

    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs robotci to completion (with a generous safety timeout); with `wrapper` (e.g.
    /// `["/usr/bin/prlimit", "--as=…", "--"]`), through that command.
    @discardableResult
    static func run(_ args: [String], env: [String: String] = [:], cwd: String? = nil, timeout: Double = 600,
                    wrapper: [String] = []) throws -> Result {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: wrapper.first ?? robotci)
        p.arguments = wrapper.isEmpty ? args : Array(wrapper.dropFirst()) + [robotci] + args
        var environment = ProcessInfo.processInfo.environment
        environment["CI"] = "true"
        for (k, v) in env { environment[k] = v }
        p.environment = environment
        if let cwd { p.currentDirectoryURL = URL(fileURLWithPath: cwd) }
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        // Drain both pipes while waiting so a chatty run cannot block.
        let group = DispatchGroup()
        nonisolated(unsafe) var outData = Data(), errData = Data()
        group.enter(); DispatchQueue.global().async { outData = out.fileHandleForReading.readDataToEndOfFile(); group.leave() }
        group.enter(); DispatchQueue.global().async { errData = err.fileHandleForReading.readDataToEndOfFile(); group.leave() }
        let deadline = Date().addingTimeInterval(timeout)
        while p.isRunning && Date() < deadline { usleep(50_000) }
        if p.isRunning { p.terminate(); usleep(500_000); kill(p.processIdentifier, SIGKILL) }
        p.waitUntilExit()
        group.wait()
        return Result(status: p.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                      stderr: String(decoding: errData, as: UTF8.self))
    }

    /// Builds a fixture package (a no-op when its build is current).
    static func buildFixture(_ name: String) throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["swift", "build", "--build-tests", "--package-path", fixture(name)]
        p.standardOutput = FileHandle.nullDevice
        try p.run()
        p.waitUntilExit()
        if p.terminationStatus != 0 { throw NSError(domain: "fixture build failed: \(name)", code: 1) }
    }

    /// Starts `count` robotci processes as queue machines `m1`…`mN` (`ROBOTCI_MACHINE`, `CI=true`,
    /// plus `env`), each with `arguments(m)`, output to `dir/mM.log`; returns them with their logs.
    /// The caller waits for them (and kills the ones still running when it fails).
    static func startMachines(
        _ count: Int, in dir: URL, env: [String: String] = [:], arguments: (Int) -> [String]
    ) throws -> [(process: Process, log: URL)] {
        var machines: [(process: Process, log: URL)] = []
        for m in 1...count {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: robotci)
            p.arguments = arguments(m)
            var environment = ProcessInfo.processInfo.environment.merging(env) { $1 }
            environment["ROBOTCI_MACHINE"] = "m\(m)"
            environment["CI"] = "true"
            p.environment = environment
            let log = dir.appendingPathComponent("m\(m).log")
            try Data().write(to: log)
            let handle = try FileHandle(forWritingTo: log)
            p.standardOutput = handle
            p.standardError = handle
            try p.run()
            machines.append((p, log))
        }
        return machines
    }

    /// A new folder for the running test: removed when the test passes, kept (and named in
    /// the output) when it fails, for a look at what the run left there.
    static func temporaryDirectory(_ label: String) -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("robotci-e2e-\(label)-\(UUID().uuidString.prefix(8))")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        TestFolders.shared.add(url)
        return url
    }

    /// A command-driver suite in `package`: robotci.yml lists the tests with the shell command
    /// `list` and runs `sh run.sh {junit} {tests}`; run.sh is `script`.
    static func commandSuite(at package: URL, list: String, script: String) throws {
        try FileManager.default.createDirectory(at: package, withIntermediateDirectories: true)
        try """
            driver: command
            list: \(list)
            run: sh run.sh {junit} {tests}
            """.write(to: package.appendingPathComponent("robotci.yml"), atomically: true, encoding: .utf8)
        try script.write(to: package.appendingPathComponent("run.sh"), atomically: true, encoding: .utf8)
    }

    /// A command-driver suite in `dir/suite` of two passing tests, `<name>::a` and `<name>::b`,
    /// that print their whole environment (as some runners do): where a secret robotci holds
    /// would leak if tests were given it.
    static func environmentPrintingSuite(in dir: URL, name: String) throws -> URL {
        let package = dir.appendingPathComponent("suite")
        try E2E.commandSuite(at: package, list: "printf '\(name)::a\\n\(name)::b\\n'", script: """
            out="$1"; shift
            env
            printf '<testsuite name="\(name)">' > "$out"
            for id in "$@"; do printf '<testcase classname="\(name)" name="%s"/>' "${id#\(name)::}" >> "$out"; done
            printf '</testsuite>' >> "$out"
            """)
        return package
    }

    /// Processes whose command line mentions `needle` (to prove nothing was left running).
    static func processes(matching needle: String) -> [String] {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return [] }
        var found: [String] = []
        for e in entries where Int(e) != nil {
            guard let data = ProcessTable.contents(of: "/proc/\(e)/cmdline"), !data.isEmpty else { continue }
            let cmd = String(decoding: data.map { $0 == 0 ? 32 : $0 }, as: UTF8.self)
            if cmd.contains(needle) && !cmd.contains("robotci-e2e-probe") { found.append("\(e): \(cmd)") }
        }
        return found
    }

    /// Live processes whose environment contains `entry` (e.g. `ROBOTCI_RUN_ID=…`).
    static func processes(withEnvironment entry: String) -> [String] {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return [] }
        let needle = Data(entry.utf8)
        var found: [String] = []
        for e in entries where Int(e) != nil && Int32(e) != getpid() {
            guard let env = ProcessTable.contents(of: "/proc/\(e)/environ"), env.range(of: needle) != nil,
                  let cmd = ProcessTable.contents(of: "/proc/\(e)/cmdline") else { continue }
            found.append("\(e): " + String(decoding: cmd.map { $0 == 0 ? 32 : $0 }, as: UTF8.self))
        }
        return found
    }

    /// JUnit verdicts by `classname/name`, parsed with Foundation's XML parser (not libxml2
    /// through robotci's own code), so the file is proven readable by another parser.
    static func junitVerdicts(_ path: URL) throws -> [String: (verdict: String, elements: [String])] {
        let doc = try XMLDocument(contentsOf: path, options: [])
        var out: [String: (String, [String])] = [:]
        for node in try doc.nodes(forXPath: "//testcase") {
            guard let el = node as? XMLElement else { continue }
            let cls = el.attribute(forName: "classname")?.stringValue ?? ""
            let name = el.attribute(forName: "name")?.stringValue ?? ""
            let children = (el.children ?? []).compactMap { ($0 as? XMLElement)?.name }
            let verdict: String
            if children.contains("failure") { verdict = (el.elements(forName: "failure").first?.attribute(forName: "type")?.stringValue) ?? "failed" }
            else if children.contains("skipped") { verdict = "skipped" }
            else if children.contains("flakyFailure") { verdict = "flaky" }
            else { verdict = "passed" }
            out["\(cls)/\(name)"] = (verdict, children)
        }
        return out
    }
}

/// The folders `E2E.temporaryDirectory` makes: one made in a test is removed at its end if it
/// passed; one made outside a test (a class's `setUp`, shared by its tests) at the end of the
/// class's suite if all passed. A failure keeps them, named in the output, for a look at what
/// the run left. Registered with XCTest on first use.
final class TestFolders: NSObject, XCTestObservation, @unchecked Sendable {
    static let shared: TestFolders = {
        let folders = TestFolders()
        XCTestObservationCenter.shared.addTestObserver(folders)
        return folders
    }()

    private struct State {
        var inTest = false
        var test: [URL] = []
        var suite: [URL] = []
    }

    private let lock = NSLock()
    private var state = State()

    func add(_ url: URL) {
        lock.withLock { state.inTest ? state.test.append(url) : state.suite.append(url) }
    }

    func testCaseWillStart(_ testCase: XCTestCase) {
        lock.withLock { state.inTest = true }
    }

    func testCaseDidFinish(_ testCase: XCTestCase) {
        let folders = lock.withLock { () -> [URL] in
            defer { state.inTest = false; state.test = [] }
            return state.test
        }
        settle(folders, passed: testCase.testRun?.hasSucceeded ?? false, of: testCase.name)
    }

    func testSuiteDidFinish(_ testSuite: XCTestSuite) {
        let folders = lock.withLock { () -> [URL] in
            defer { state.suite = [] }
            return state.suite
        }
        settle(folders, passed: testSuite.testRun?.hasSucceeded ?? false, of: testSuite.name)
    }

    private func settle(_ folders: [URL], passed: Bool, of name: String) {
        guard !folders.isEmpty else { return }
        if passed {
            for folder in folders { try? FileManager.default.removeItem(at: folder) }
        } else {
            print("robotci-e2e: \(name) failed; its folders are kept: \(folders.map(\.path).joined(separator: ", "))")
        }
    }
}
