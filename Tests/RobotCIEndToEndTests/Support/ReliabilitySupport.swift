import Foundation
import TestSupport
import XCTest
#if canImport(FoundationXML)
import FoundationXML
#endif
#if canImport(Glibc)
import Glibc
#endif

/// What the reliability tests share: injected faults, background runs, reading results,
/// process and mount probes, the listening-socket table.
func reliabilityRow(_ fault: String, repetitions: Int, _ outcome: String) {
    print("RELIABILITY | \(fault) | \(repetitions) | \(outcome)")
}

/// Polls `condition` every 20 ms for up to `seconds`.
func waitUntil(_ seconds: Double, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if condition() { return true }
        usleep(20_000)
    }
    return condition()
}

/// One fault scenario: a scratch folder (state files, report) and a marker every process
/// of the run inherits, so leftovers are found exactly.
struct Fault {
    let directory: URL
    let state: URL
    let report: URL
    let marker: String

    init(_ label: String) throws {
        directory = E2E.temporaryDirectory("reliability-\(label)")
        state = directory.appendingPathComponent("state")
        report = directory.appendingPathComponent("report")
        marker = "RELIABILITY_RUN=\(label)-\(UUID().uuidString)"
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
    }

    var environment: [String: String] {
        let parts = marker.split(separator: "=", maxSplits: 1).map(String.init)
        return ["RELIABILITY_STATE": state.path, parts[0]: parts[1]]
    }

    /// `robotci run` on the Reliability fixture, in the background.
    func start(_ args: [String], env: [String: String] = [:], package: String = E2E.fixture("Reliability")) throws -> Background {
        try Background(["run", "--package", package, "--skip-build", "--report-dir", report.path] + args,
                       env: environment.merging(env) { _, new in new }, logs: directory)
    }

    /// `robotci list` with the same filters: the tests a run must account for.
    func listed(_ args: [String]) throws -> [String] {
        let r = try E2E.run(["list", "--package", E2E.fixture("Reliability"), "--skip-build"] + args)
        return r.stdout.split(separator: "\n").map(String.init).sorted()
    }

    /// What each live worker process says it is running, and since when.
    func runningTests() -> [(pid: pid_t, test: String, since: Double)] {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: state.path)) ?? []
        return files.compactMap { name in
            guard name.hasPrefix("running-"), let pid = pid_t(name.dropFirst("running-".count)), Proc.isLive(pid),
                  let text = try? String(contentsOf: state.appendingPathComponent(name), encoding: .utf8) else { return nil }
            let parts = text.split(whereSeparator: { $0 == " " || $0 == "\n" })
            guard parts.count == 2, let since = Double(parts[1]) else { return nil }
            return (pid, String(parts[0]), since)
        }
    }

    /// Attempt lines in the journal so far.
    func journalAttempts() -> Int {
        let text = (try? String(contentsOf: report.appendingPathComponent("results.jsonl"), encoding: .utf8)) ?? ""
        return text.components(separatedBy: "\"type\":\"attempt\"").count - 1
    }

    func results() throws -> Results { try Results(report.appendingPathComponent("results.json")) }

    /// Live processes of this run (zombies waiting for init are not running anything).
    func leftovers() -> [String] {
        var found: [String] = []
        _ = waitUntil(3) {
            found = E2E.processes(withEnvironment: marker).filter { !Proc.isZombie($0) }
            return found.isEmpty
        }
        // Never leave them behind for the next test: they are this run's, found by its marker.
        for line in found { if let pid = pid_t(line.split(separator: ":")[0]) { kill(pid, SIGKILL) } }
        return found
    }
}

/// robotci running in the background, its output in files. Spawned with posix_spawn and
/// reaped with waitpid: Foundation's `Process` notices an exit only when every descendant
/// has closed a descriptor the child inherited, which a surviving worker would hold.
final class Background {
    let pid: pid_t
    let stderrURL: URL
    private var status: Int32?
    var stderr: String { (try? String(contentsOf: stderrURL, encoding: .utf8)) ?? "" }

    init(_ args: [String], env: [String: String], logs: URL) throws {
        stderrURL = logs.appendingPathComponent("robotci.stderr")
        let stdoutPath = logs.appendingPathComponent("robotci.stdout").path
        var environment = ProcessInfo.processInfo.environment
        environment["CI"] = "true"
        for (k, v) in env { environment[k] = v }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdoutPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, stderrURL.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let argv = ([E2E.robotci] + args).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var child: pid_t = 0
        let rc = posix_spawn(&child, E2E.robotci, &actions, nil, argv, envp)
        guard rc == 0 else { throw NSError(domain: "posix_spawn robotci: \(String(cString: strerror(rc)))", code: Int(rc)) }
        pid = child
    }

    var isRunning: Bool {
        if status != nil { return false }
        var raw: Int32 = 0
        guard waitpid(pid, &raw, WNOHANG) == pid else { return true }
        status = (raw & 0x7f) == 0 ? (raw >> 8) & 0xff : 128 + (raw & 0x7f)
        return false
    }

    /// Waits for the exit status (SIGKILLs robotci after `timeout`); 128+N when killed by signal N.
    func wait(timeout: Double) -> Int32 {
        let deadline = Date().addingTimeInterval(timeout)
        while isRunning && Date() < deadline { usleep(20_000) }
        if isRunning {
            kill(pid, SIGKILL)
            while isRunning { usleep(10_000) }
        }
        return status ?? -1
    }

    /// Ends robotci if a failed assertion left it running.
    func stop() {
        if isRunning { _ = wait(timeout: 0) }
    }
}

/// `results.json`, parsed with Foundation.
struct Results {
    let json: [String: Any]
    init(_ url: URL) throws {
        json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any], url.path)
    }
    var tests: [[String: Any]] { json["tests"] as? [[String: Any]] ?? [] }
    var ids: [String] { tests.compactMap { E2E.idText($0["id"]) }.sorted() }
    var attempts: [String: [[String: Any]]] {
        Dictionary(tests.map { (E2E.idText($0["id"]) ?? "", $0["attempts"] as? [[String: Any]] ?? []) }, uniquingKeysWith: { a, b in a + b })
    }
    var batches: [[String: Any]] { json["batches"] as? [[String: Any]] ?? [] }
    var metadata: [String: Any] { json["metadata"] as? [String: Any] ?? [:] }
    func outcome(_ id: String) -> String? { tests.first { E2E.idText($0["id"]) == id }?["outcome"] as? String }
}

/// Every `testcase` of a junit.xml (duplicates kept), read with Foundation's XML parser.
struct JUnitCount {
    let ids: [String]
    let verdicts: [String: String]
    init(_ url: URL) throws {
        let doc = try XMLDocument(contentsOf: url, options: [])
        ids = try doc.nodes(forXPath: "//testcase").compactMap { node -> String? in
            guard let el = node as? XMLElement else { return nil }
            return "\(el.attribute(forName: "classname")?.stringValue ?? "")/\(el.attribute(forName: "name")?.stringValue ?? "")"
        }.sorted()
        verdicts = try E2E.junitVerdicts(url).mapValues(\.verdict)
    }
}

/// /proc lookups.
enum Proc {
    static func stat(_ pid: pid_t) -> [Substring]? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = text.lastIndex(of: ")") else { return nil }
        return text[text.index(after: close)...].split(separator: " ")
    }

    /// Exists and is not a zombie.
    static func isLive(_ pid: pid_t) -> Bool {
        guard let fields = stat(pid), let state = fields.first else { return false }
        return state != "Z" && state != "X"
    }

    static func parent(of pid: pid_t) -> pid_t? { stat(pid).flatMap { $0.count > 1 ? pid_t($0[1]) : nil } }

    static func children(of parent: pid_t) -> [pid_t] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap(pid_t.init).filter { Proc.parent(of: $0) == parent && isLive($0) }
    }

    static func commandLine(_ pid: pid_t) -> String {
        guard let data = ProcessTable.contents(of: "/proc/\(pid)/cmdline") else { return "" }
        return String(decoding: data.map { $0 == 0 ? 32 : $0 }, as: UTF8.self)
    }

    /// For `E2E.processes` lines (`"PID: command"`).
    static func isZombie(_ line: String) -> Bool {
        guard let pid = pid_t(line.split(separator: ":")[0]) else { return true }
        return !isLive(pid)
    }
}

/// The main files of a report folder (and the names of everything in it), for "unchanged".
struct Snapshot: Equatable {
    let files: [String: Data]
    init(_ folder: URL) throws {
        var files: [String: Data] = [:]
        for name in ["results.json", "junit.xml", "timings.json", "index.html"] {
            files[name] = try Data(contentsOf: folder.appendingPathComponent(name))
        }
        self.files = files
    }
}

/// Small file systems for faults (root only; callers skip or fall back when they fail).
enum Mount {
    @discardableResult
    static func run(_ tool: String, _ args: [String]) -> Int32 {
        guard let path = [tool, "/bin/" + (tool as NSString).lastPathComponent, "/usr/bin/" + (tool as NSString).lastPathComponent]
            .first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else { return -1 }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: path)
        p.arguments = args
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        guard (try? p.run()) != nil else { return -1 }
        p.waitUntilExit()
        return p.terminationStatus
    }

    static func tmpfs(_ at: URL, size: String) -> Bool { run("/bin/mount", ["-t", "tmpfs", "-o", "size=\(size)", "tmpfs", at.path]) == 0 }
    static func remountReadOnly(_ at: URL) -> Bool { run("/bin/mount", ["-o", "remount,ro", at.path]) == 0 }
    static func unmount(_ at: URL) { run("/bin/umount", ["-l", at.path]) }

    /// Bytes free on the file system of `at` (tmpfs keeps no reserve for root).
    static func available(_ at: URL) -> Int {
        var s = statvfs()
        guard statvfs(at.path, &s) == 0 else { return 0 }
        return Int(s.f_bavail) * Int(s.f_frsize)
    }
}
