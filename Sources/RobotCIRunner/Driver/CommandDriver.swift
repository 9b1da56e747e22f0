import Foundation
import RobotCICore
import RobotCIReport

/// `driver: command`: any test runner, through three shell commands from `robotci.yml`.
///
/// - `build` (optional) runs once first;
/// - `list` prints test ids, one per line, up to the first empty line (pytest's
///   `--collect-only -q` prints its summary after one);
/// - `run` runs a batch: `{tests}` becomes the batch's ids, each shell-quoted, joined by
///   `test_separator`; `{junit}` the path where it must write JUnit XML.
///
/// Commands run under `/bin/sh -c` in the package folder with the worker environment.
struct CommandDriver: Sendable {
    let directory: String
    let list: String
    let run: String
    let build: String?
    let separator: String

    init(config: RunConfiguration) {
        directory = URL(fileURLWithPath: config.package).standardizedFileURL.path
        list = config.listCommand ?? ""
        run = config.runCommand ?? ""
        build = config.buildCommand
        separator = config.testSeparator
    }

    static let shell = "/bin/sh"

    /// Runs `build`, echoing its output; throws when it fails.
    func prepare(environment: [String: String], echo: @escaping (String) -> Void) throws {
        guard let build else { return }
        let (termination, _) = try runCaptured(Self.shell, ["-c", build], environment: environment, workingDirectory: directory, echo: echo)
        guard termination == .exited(0) else {
            throw RunnerError.config("the build command failed (\(termination)): \(build)\nfix it or change 'build' in robotci.yml")
        }
    }

    /// The ids `list` prints. Its stderr is kept apart (warnings are no test ids) and shown on failure.
    func listTests(environment: [String: String]) throws -> [TestID] {
        let errors = FileManager.default.temporaryDirectory.appendingPathComponent("robotci-list-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).err")
        defer { try? FileManager.default.removeItem(at: errors) }
        let script = "( \(list)\n) 2>\(Self.quote(errors.path))"
        let (termination, output) = try runCaptured(Self.shell, ["-c", script], environment: environment, workingDirectory: directory)
        guard termination == .exited(0) else {
            let stderr = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
            throw RunnerError.discoveryFailed("the list command '\(list)' (in \(directory), \(termination))", output + stderr)
        }
        return Self.parseList(output)
    }

    static func parseList(_ output: String) -> [TestID] {
        var seen = Set<String>()
        var ids: [TestID] = []
        for line in output.split(separator: "\n", omittingEmptySubsequences: false) {
            let id = line.trimmingCharacters(in: .whitespacesAndNewlines)
            if id.isEmpty { if ids.isEmpty { continue } else { break } }
            if seen.insert(id).inserted { ids.append(TestID(id)) }
        }
        return ids
    }

    /// `run` with the batch's ids and the JUnit path filled in.
    func command(for tests: [TestID], junit: String) -> (executable: String, arguments: [String]) {
        let ids = tests.map { Self.quote($0.rawValue) }.joined(separator: separator)
        let script = run.replacingOccurrences(of: "{tests}", with: ids).replacingOccurrences(of: "{junit}", with: Self.quote(junit))
        return (Self.shell, ["-c", script])
    }

    /// POSIX shell single quoting: `it's` → `'it'\''s'`.
    static func quote(_ s: String) -> String {
        "'" + s.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }
}

/// Pairs a runner's JUnit `<testcase>`s with the ids `list` printed.
///
/// Runners name tests differently in the two places (pytest lists
/// `tests/ui/test_login.py::TestLogin::test_ok[1]` and writes classname
/// `tests.ui.test_login.TestLogin`, name `test_ok[1]`), so a case matches the id that ends
/// with its name at a separator; several such ids are told apart by how many of the
/// classname's (and file's) parts each contains.
enum JUnitMatcher {
    static func match(_ cases: [JUnitReader.Case], to tests: [TestID]) -> (matched: [(TestID, JUnitReader.Case)], unknown: [JUnitReader.Case]) {
        var taken = Set<TestID>()
        var matched: [(TestID, JUnitReader.Case)] = []
        var unknown: [JUnitReader.Case] = []
        for c in cases {
            let candidates = tests.filter { !taken.contains($0) && endsWithName($0.rawValue, c.name) }
            let best = candidates.max { score($0, c) < score($1, c) }
            if let best {
                taken.insert(best)
                matched.append((best, c))
            } else {
                unknown.append(c)
            }
        }
        return (matched, unknown)
    }

    /// `id` is `name`, or ends with it right after a separator (`::`, `/`, `.`, space…).
    static func endsWithName(_ id: String, _ name: String) -> Bool {
        guard !name.isEmpty, id.hasSuffix(name) else { return false }
        if id.count == name.count { return true }
        let before = id[id.index(id.endIndex, offsetBy: -name.count - 1)]
        return !(before.isLetter || before.isNumber || before == "_")
    }

    private static func parts(_ s: String) -> [Substring] {
        s.split { !($0.isLetter || $0.isNumber || $0 == "_") }
    }

    /// How many of the case's classname and file parts appear in the id (ties: the shorter id).
    private static func score(_ id: TestID, _ c: JUnitReader.Case) -> Double {
        let idParts = Set(parts(String(id.rawValue.dropLast(c.name.count))))
        let wanted = parts(c.classname) + parts(c.file ?? "")
        let hits = wanted.filter { idParts.contains($0) }.count
        return Double(hits) - Double(id.rawValue.count) / 1_000_000
    }
}

/// The last `path:line:` in a traceback (pytest: `tests/test_a.py:12: AssertionError`).
func tracebackLocation(_ text: String) -> (file: String, line: Int)? {
    for raw in text.split(separator: "\n").reversed() {
        let line = raw.trimmingCharacters(in: .whitespaces)
        let parts = line.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, let n = Int(parts[1]), n > 0, parts[2].isEmpty || parts[2].hasPrefix(" "),
              !parts[0].isEmpty, !parts[0].contains(" ") else { continue }
        return (String(parts[0]), n)
    }
    return nil
}
