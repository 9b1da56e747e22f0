import Foundation
import XCTest

/// `robotci config`: the configuration keys are described once (`ConfigKey.all`); the flags,
/// the table in docs/configuration.md and `robotci config` must all follow from that list.
final class ConfigCommandEndToEndTests: XCTestCase {
    /// Rows of `robotci config --keys`: (flag column, key).
    private func keyRows() throws -> [(flag: String, key: String)] {
        let r = try E2E.run(["config", "--keys"], cwd: NSTemporaryDirectory())
        XCTAssertEqual(r.status, 0, r.stderr)
        return r.stdout.split(separator: "\n").dropFirst(2).compactMap { line in
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 2, cells[1] != "—" else { return nil }
            return (cells[0], cells[1].trimmingCharacters(in: CharacterSet(charactersIn: "`")))
        }
    }

    func testEveryKeyWithAFlagIsAcceptedAsThatFlagAndReportedAsItsSource() throws {
        let samples = ["N": "3", "SECONDS": "7", "PATH": ".", "DIR": "out", "REGEX": "Mod.A/.*", "K/N": "1/2", "REPORTER": "plain",
                       "P": "20000", "CONFIGURATION": "release", "URL": "redis://127.0.0.1:6379/run-1", "FILE": "cache/history.json",
                       "on/off": "off", "NAME": "smoke", "MODE": "always", "auto/on/off": "on", "context/reset": "reset", "LIST": "chromium,webkit",
                       "none/missing/all": "all", "D": "0.2"]
        let rows = try keyRows()
        XCTAssertGreaterThanOrEqual(rows.count, 20, "the table lists every key")
        var flagged = 0
        for (flag, key) in rows where flag != "—" {
            let parts = flag.trimmingCharacters(in: CharacterSet(charactersIn: "`")).split(separator: " ").map(String.init)
            XCTAssertEqual(parts[0], "--\(key)", "a key's flag has its name")
            var args = ["config", parts[0]]
            if parts.count > 1 { args.append(try XCTUnwrap(samples[parts[1]], "a sample value for \(parts[1])")) }
            let r = try E2E.run(args, cwd: NSTemporaryDirectory())
            XCTAssertEqual(r.status, 0, "\(args): \(r.stderr)")
            let line = r.stdout.split(separator: "\n").first { $0.hasPrefix(key + " ") }
            XCTAssertTrue(line?.hasSuffix("(\(parts[0]))") == true, "\(args) set \(key): \(line ?? "no line")")
            flagged += 1
        }
        XCTAssertGreaterThanOrEqual(flagged, 15)
    }

    func testEnvironmentAndBadValuesAreTheRunsOwn() throws {
        let env = try E2E.run(["config"], env: ["ROBOTCI_TEST_TIMEOUT": "45"], cwd: NSTemporaryDirectory())
        XCTAssertEqual(env.status, 0, env.stderr)
        XCTAssertTrue(env.stdout.contains("45  (environment variable ROBOTCI_TEST_TIMEOUT)"), env.stdout)
        let bad = try E2E.run(["config", "--retries", "many"], cwd: NSTemporaryDirectory())
        XCTAssertEqual(bad.status, 2)
        XCTAssertTrue(bad.stderr.contains("The value 'many' is invalid for '--retries <n>': 'retries' must be an integer ≥ 0, got 'many'"), bad.stderr)
    }

    func testTheREADMEsTableIsTheKeyList() throws {
        let table = try E2E.run(["config", "--keys"], cwd: NSTemporaryDirectory()).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let readme = try String(contentsOf: E2E.root.appendingPathComponent("docs/configuration.md"), encoding: .utf8)
        XCTAssertTrue(readme.contains(table), "docs/configuration.md's table differs from `robotci config --keys`; paste its output:\n\(table)")
        let sample = try String(contentsOf: E2E.root.appendingPathComponent("config/robotci.yml"), encoding: .utf8)
        for (_, key) in try keyRows() {
            let spellings = [key, key.replacingOccurrences(of: "-", with: "_")]
            XCTAssertTrue(spellings.contains { sample.contains("\n\($0):") || sample.contains("\n# \($0):") || sample.hasPrefix("\($0):") },
                          "config/robotci.yml shows '\(key)'")
        }
    }

    /// config/robotci.yml shows every key at its default, commented out: loading it changes nothing.
    func testTheSampleConfigSetsNothing() throws {
        let sample = E2E.root.appendingPathComponent("config/robotci.yml").path
        let r = try E2E.run(["config", "--config", sample], cwd: NSTemporaryDirectory())
        XCTAssertEqual(r.status, 0, r.stderr)
        let keyLines = r.stdout.split(separator: "\n", omittingEmptySubsequences: false).prefix { !$0.isEmpty }
        XCTAssertGreaterThanOrEqual(keyLines.count, 20)
        for line in keyLines { XCTAssertTrue(line.hasSuffix("(default)"), "config/robotci.yml sets a value: \(line)") }
    }

    /// The run id and machine name a run would use, from the environment or made up.
    func testConfigShowsRunIDAndMachine() throws {
        let set = try E2E.run(["config"], env: ["ROBOTCI_RUN_ID": "pipeline-42", "ROBOTCI_MACHINE": "runner-7"], cwd: NSTemporaryDirectory())
        XCTAssertEqual(set.status, 0, set.stderr)
        XCTAssertTrue(set.stdout.contains("ROBOTCI_RUN_ID  pipeline-42  (environment variable ROBOTCI_RUN_ID)"), set.stdout)
        XCTAssertTrue(set.stdout.contains("ROBOTCI_MACHINE  runner-7  (environment variable ROBOTCI_MACHINE)"), set.stdout)
        let unset = try E2E.run(["config"], env: ["ROBOTCI_RUN_ID": "", "ROBOTCI_MACHINE": ""], cwd: NSTemporaryDirectory())
        XCTAssertTrue(unset.stdout.contains("ROBOTCI_RUN_ID  not set: a new id per run, like "), unset.stdout)
        XCTAssertTrue(unset.stdout.contains("ROBOTCI_MACHINE  not set: host name and robotci's pid"), unset.stdout)
    }
}
