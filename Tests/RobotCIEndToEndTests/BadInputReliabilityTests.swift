import Foundation
import TestSupport
import XCTest
#if canImport(FoundationXML)
import FoundationXML
#endif
#if canImport(Glibc)
import Glibc
#endif

final class BadInputReliabilityTests: XCTestCase {
    override class func setUp() {
        super.setUp()
        try? E2E.buildFixture("Reliability")
    }

    func testEachBadInputNamesTheCulpritAndExitsTwo() throws {
        let dir = E2E.temporaryDirectory("bad-input")
        let fixture = E2E.fixture("Reliability")
        let config = dir.appendingPathComponent("robotci.yml")
        let out = dir.appendingPathComponent("never-written")

        // A package without a test target, and one whose test bundle lists no tests.
        let noTarget = dir.appendingPathComponent("NoTestTarget")
        try FileManager.default.createDirectory(at: noTarget.appendingPathComponent("Sources/Lib"), withIntermediateDirectories: true)
        try "// swift-tools-version:5.9\nimport PackageDescription\nlet package = Package(name: \"NoTestTarget\", targets: [.target(name: \"Lib\")])\n"
            .write(to: noTarget.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
        try "public let x = 1\n".write(to: noTarget.appendingPathComponent("Sources/Lib/Lib.swift"), atomically: true, encoding: .utf8)
        let empty = dir.appendingPathComponent("EmptySuite")
        try FileManager.default.createDirectory(at: empty.appendingPathComponent(".build/debug"), withIntermediateDirectories: true)
        try "// swift-tools-version:5.9\nimport PackageDescription\nlet package = Package(name: \"EmptySuite\", targets: [.testTarget(name: \"EmptySuiteTests\")])\n"
            .write(to: empty.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
        let bundle = empty.appendingPathComponent(".build/debug/EmptySuitePackageTests.xctest")
        try "#!/bin/sh\n# a built test bundle with no tests: lists nothing\nexit 0\n".write(to: bundle, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: bundle.path)

        // Results from a newer robotci (format v4), as results.json and as a journal.
        let real = dir.appendingPathComponent("real")
        let made = try E2E.run(["run", "--package", fixture, "--skip-build", "--filter", "QuietTests/testA", "--report-dir", real.path])
        XCTAssertEqual(made.status, 0, made.stderr)
        let newerJSON = dir.appendingPathComponent("newer/results.json"), newerJournal = dir.appendingPathComponent("newer/results.jsonl")
        try FileManager.default.createDirectory(at: newerJSON.deletingLastPathComponent(), withIntermediateDirectories: true)
        for (from, to) in [("results.json", newerJSON), ("results.jsonl", newerJournal)] {
            let text = try String(contentsOf: real.appendingPathComponent(from), encoding: .utf8)
            XCTAssertTrue(text.contains("\"format\":\"robotci-results-v3\""), "\(from) carries its format")
            try text.replacingOccurrences(of: "robotci-results-v3", with: "robotci-results-v4").write(to: to, atomically: true, encoding: .utf8)
        }
        let newer = "written by a newer robotci (format 'robotci-results-v4'; this robotci reads up to 'robotci-results-v3')"

        struct Case { var name: String; var yaml: String?; var args: [String]; var env: [String: String] = [:]; var expect: [String] }
        let run = ["run", "--package", fixture, "--skip-build", "--report-dir", out.path]
        let withConfig = run + ["--config", config.path]
        let cases: [Case] = [
            Case(name: "malformed YAML", yaml: "shards: 2\nfilter: [a, b\nretries: 1\n", args: withConfig,
                 expect: ["\(config.path):3:", "invalid YAML: did not find expected ',' or ']'"]),
            Case(name: "unknown key", yaml: "shards: 2\nretires: 1\n", args: withConfig,
                 expect: ["\(config.path):2: unknown key 'retires'; did you mean 'retries'?"]),
            Case(name: "word for an integer", yaml: "shards: many\n", args: withConfig,
                 expect: ["\(config.path):1 key 'shards': 'shards' must be an integer ≥ 1, got 'many'"]),
            Case(name: "list for one value", yaml: "retries: [1, 2]\n", args: withConfig,
                 expect: ["\(config.path):1 key 'retries': 'retries' takes one value, not a list"]),
            Case(name: "mapping for a list", yaml: "filter:\n  a: b\n", args: withConfig,
                 expect: ["\(config.path):1: key 'filter' needs a value or a list, not a mapping"]),
            Case(name: "not a boolean", yaml: "fail-on-flaky: perhaps\n", args: withConfig,
                 expect: ["\(config.path):1 key 'fail-on-flaky': 'fail-on-flaky' must be true or false, got 'perhaps'"]),
            Case(name: "misspelt variable", args: run, env: ["ROBOTCI_SHRADS": "3"],
                 expect: ["environment variable ROBOTCI_SHRADS is not one of robotci's, and ROBOTCI_SHARDS is"]),
            // A flag's value is read when the command line is parsed: ArgumentParser's usage
            // error names the flag, with the key's own message.
            Case(name: "--shards 0", args: run + ["--shards", "0"], expect: ["'--shards <n>': 'shards' must be an integer ≥ 1, got '0'"]),
            Case(name: "--partition 4/3", args: run + ["--partition", "4/3"], expect: ["'--partition <k/n>': partition 4/3 is out of range"]),
            Case(name: "--test-timeout 0", args: run + ["--test-timeout", "0"],
                 expect: ["'--test-timeout <seconds>': 'test-timeout' must be a positive number of seconds"]),
            Case(name: "package without a test target", args: ["run", "--package", noTarget.path, "--skip-build", "--report-dir", out.path],
                 expect: ["no .xctest bundle in", "does the package have a test target?"]),
            Case(name: "package with no tests", args: ["run", "--package", empty.path, "--skip-build", "--report-dir", out.path],
                 expect: ["no tests to run: '\(empty.path)' has no tests"]),
            Case(name: "filter matching nothing", args: run + ["--filter", "NoSuchTest"],
                 expect: ["no tests to run: no test is left by --filter 'NoSuchTest' among 34 tests", "ids look like '"]),
            Case(name: "report: newer results.json", args: ["report", "--results", newerJSON.path, "--output", out.path],
                 expect: ["\(newerJSON.path): \(newer)"]),
            Case(name: "report: newer results.jsonl", args: ["report", "--results", newerJournal.path, "--output", out.path],
                 expect: ["\(newerJournal.path):1: \(newer)"]),
            Case(name: "merge: newer results.json", args: ["merge", newerJSON.path, "--output", out.path],
                 expect: ["\(newerJSON.path): \(newer)"]),
            Case(name: "merge: newer results.jsonl", args: ["merge", newerJournal.path, "--output", out.path],
                 expect: ["\(newerJournal.path):1: \(newer)"]),
        ]
        for c in cases {
            try? FileManager.default.removeItem(at: config)
            if let yaml = c.yaml { try yaml.write(to: config, atomically: true, encoding: .utf8) }
            let r = try E2E.run(c.args, env: c.env)
            XCTAssertEqual(r.status, 2, "\(c.name): \(r.stderr)")
            for text in c.expect { XCTAssertTrue(r.stderr.contains(text), "\(c.name): expected «\(text)» in\n\(r.stderr)") }
            XCTAssertFalse(FileManager.default.fileExists(atPath: out.path), "\(c.name): nothing is written")
            let message = r.stderr.split(separator: "\n").first { $0.lowercased().contains("error") || $0.contains("robotci report:") }
                .map { $0.replacingOccurrences(of: dir.path, with: "…") } ?? ""
            print("RELIABILITY-INPUT | \(c.name) | exit \(r.status) | \(message.prefix(170))")
        }
        reliabilityRow("bad input", repetitions: cases.count, "each exits 2 naming the culprit; nothing written")
    }
}

/// Security: merge keeps attachments inside the report folder, the mock server listens on
/// loopback only, and no environment secret reaches a report.
