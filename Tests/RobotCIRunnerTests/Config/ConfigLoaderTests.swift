import Foundation
import RobotCICore
@testable import RobotCIRunner
import TestSupport
import WorkerContract
import XCTest

final class ConfigLoaderTests: FolderTestCase {
    private var directory: URL { folder }

    private func write(_ yaml: String) throws -> String {
        let url = directory.appendingPathComponent("robotci.yml")
        try yaml.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    private func values(_ raw: [String: (ConfigLoader.Value, String)]) -> [String: ConfigLoader.Value] {
        raw.mapValues(\.0)
    }

    private func configError(_ body: () throws -> Void, file: StaticString = #filePath, line: UInt = #line) -> String? {
        do {
            try body()
            XCTFail("expected a ConfigError", file: file, line: line)
            return nil
        } catch let e as ConfigError {
            return e.message
        } catch {
            XCTFail("expected a ConfigError, got \(error)", file: file, line: line)
            return nil
        }
    }

    private func applying(_ layer: [String: ConfigLoader.Value], source: String = "src") throws -> RunConfiguration {
        var c = RunConfiguration(shards: 2)
        try ConfigLoader.apply([layer.mapValues { ($0, source) }], to: &c)
        return c
    }

    // MARK: readYAML

    static let everyKey = """
        # robotci configuration
        package: ./app
        shards: 8
        retries: 0
        test-timeout: 12.5
        report-dir: out/report
        skip-build: yes
        filter:
          - Mod.A/.*
          - Mod.B/test1
        skip: [Slow, "Mod.C/testHuge"]
        fail-on-flaky: true
        quarantine: Mod.C/testFlaky
        partition: 2/4
        partition-count: 4
        reporter: github
        base-port: 20000
        configuration: release
        build-arguments: ["-Xswiftc", "-warnings-as-errors"]
        max-batch-size: 50
        driver: command
        list: python3 -m pytest --collect-only -q
        run: python3 -m pytest {tests} --junitxml={junit}
        build: pip install -r requirements.txt
        test_separator: ","
        queue: redis://127.0.0.1:6379/run-1
        queue-lease-timeout: 4.5
        history: cache/history.json
        partition-timings: cache/timings.json
        max-failures: 5
        last-failed: true
        last-failed-with-flaky: true
        adaptive-concurrency: false
        trace: always
        network-isolation: on
        browsers: [chromium, webkit]
        isolation: reset
        tag: [smoke, .slow]
        repeat-each: 3
        until-failure: true
        update-snapshots: missing
        snapshot-tolerance: 0.2
        rules:
          - match: CheckoutUITests/
            retries: 0
          - {match: Slow, test-timeout: 900, retry-on: "timed out|ECONNRESET"}
        fail-on-new-flaky: true
        allow-likely-flaky: true
        quarantine-cap: 3
        quarantine-release-after: 5
        """

    func testReadsEveryKeyWithItsLine() throws {
        let path = try write(Self.everyKey)
        let raw = try ConfigLoader.readYAML(at: path)
        XCTAssertEqual(Set(raw.keys), Set(ConfigLoader.keys.keys), "the sample covers every key")
        XCTAssertEqual(raw["shards"]?.0, .scalar("8"))
        XCTAssertEqual(raw["shards"]?.1, "\(path):3 key 'shards'")
        XCTAssertEqual(raw["filter"]?.0, .list(["Mod.A/.*", "Mod.B/test1"]))
        XCTAssertEqual(raw["filter"]?.1, "\(path):8 key 'filter'")
        XCTAssertEqual(raw["skip"]?.0, .list(["Slow", "Mod.C/testHuge"]))
        XCTAssertEqual(raw["quarantine"]?.0, .scalar("Mod.C/testFlaky"))
        XCTAssertEqual(raw["max-batch-size"]?.1, "\(path):20 key 'max-batch-size'")
    }

    func testEveryKeyIsTypedCorrectly() throws {
        var c = RunConfiguration(shards: 2)
        try ConfigLoader.apply([try ConfigLoader.readYAML(at: try write(Self.everyKey))], to: &c)
        var expected = RunConfiguration(shards: 8)
        expected.package = "./app"
        expected.retries = 0
        expected.testTimeout = 12.5
        expected.reportDir = "out/report"
        expected.history = "cache/history.json"
        expected.skipBuild = true
        expected.filter = ["Mod.A/.*", "Mod.B/test1"]
        expected.skip = ["Slow", "Mod.C/testHuge"]
        expected.failOnFlaky = true
        expected.quarantine = ["Mod.C/testFlaky"]
        expected.failOnNewFlaky = true
        expected.allowLikelyFlaky = true
        expected.quarantineCap = 3
        expected.quarantineReleaseAfter = 5
        expected.partition = try Partition(index: 2, count: 4)
        expected.partitionCount = 4
        expected.partitionTimings = "cache/timings.json"
        expected.reporter = .github
        expected.basePort = 20000
        expected.buildConfiguration = .release
        expected.buildArguments = ["-Xswiftc", "-warnings-as-errors"]
        expected.maxBatchSize = 50
        expected.driver = .command
        expected.listCommand = "python3 -m pytest --collect-only -q"
        expected.runCommand = "python3 -m pytest {tests} --junitxml={junit}"
        expected.buildCommand = "pip install -r requirements.txt"
        expected.testSeparator = ","
        expected.queue = "redis://127.0.0.1:6379/run-1"
        expected.queueLeaseTimeout = 4.5
        expected.maxFailures = 5
        expected.lastFailed = true
        expected.lastFailedWithFlaky = true
        expected.adaptiveConcurrency = false
        expected.trace = .always
        expected.networkIsolation = .on
        expected.browsers = [.chromium, .webkit]
        expected.isolation = .reset
        expected.updateSnapshots = .missing
        expected.snapshotTolerance = 0.2
        expected.tags = ["smoke", "slow"]
        expected.repeatEach = 3
        expected.untilFailure = true
        expected.rules = [TestRule(match: "CheckoutUITests/", retries: 0),
                          TestRule(match: "Slow", testTimeout: 900, retryOn: "timed out|ECONNRESET")]
        XCTAssertEqual(c, expected)
    }

    // MARK: rules

    func testRulesAreAListOfMappingsInOrder() throws {
        let path = try write("retries: 1\nrules:\n  - match: A\n    retries: 0\n  - {match: B, test_timeout: 5}\n")
        let raw = try ConfigLoader.readYAML(at: path)
        XCTAssertEqual(raw["rules"]?.0, .mappings([["match": "A", "retries": "0"], ["match": "B", "test_timeout": "5"]]))
        XCTAssertEqual(raw["rules"]?.1, "\(path):2 key 'rules'")
        var c = RunConfiguration(shards: 2)
        try ConfigLoader.apply([raw], to: &c)
        XCTAssertEqual(c.rules, [TestRule(match: "A", retries: 0), TestRule(match: "B", testTimeout: 5)])
        XCTAssertEqual(try applying(["rules": .list([])]).rules, [], "rules: [] is no rules")
    }

    func testABadRuleNamesTheFileTheKeyTheRuleAndTheFix() throws {
        let path = try write("rules:\n  - {match: A, retries: 0}\n  - {match: Slow, retry-on: 'timed out (unclosed'}\n")
        var c = RunConfiguration(shards: 2)
        let layer = try ConfigLoader.readYAML(at: path)
        XCTAssertEqual(configError { try ConfigLoader.apply([layer], to: &c) },
                       "\(path):1 key 'rules': rule 2 (match 'Slow'): 'retry-on' 'timed out (unclosed' is not a valid regular expression: fix it (NSRegularExpression syntax, e.g. 'timed out|ECONNRESET'; escape ( ) [ ] . with a backslash to match them as text)")
        let notAMapping = try write("rules:\n  - {match: A, retries: 0}\n  - Slow\n")
        XCTAssertEqual(configError { _ = try ConfigLoader.readYAML(at: notAMapping) },
                       "\(notAMapping):1: key 'rules', entry 2 (line 3) must be a mapping like {match: REGEX, retries: 0}, not 'Slow'")
        let nested = try write("rules:\n  - {match: A, retries: [1, 2]}\n")
        XCTAssertEqual(configError { _ = try ConfigLoader.readYAML(at: nested) },
                       "\(nested):1: key 'rules', entry 1 (line 2): field 'retries' needs one value, not a list or a mapping")
        XCTAssertEqual(configError { _ = try self.applying(["rules": .list(["A"])]) }?.hasPrefix("src: 'rules' is a list of mappings, e.g."), true)
        XCTAssertEqual(configError { _ = try self.applying(["filter": .mappings([["match": "A"]])]) },
                       "src: 'filter' takes regexes (a list of strings), not mappings")
    }

    func testRulesFromTheEnvironmentAreYAMLFlowText() throws {
        let env = try ConfigLoader.readEnvironment(["ROBOTCI_RULES": "[{match: Slow, test-timeout: 60}, {match: Net, retry-on: ECONNRESET}]"])
        var c = RunConfiguration(shards: 2)
        try ConfigLoader.apply([env], to: &c)
        XCTAssertEqual(c.rules, [TestRule(match: "Slow", testTimeout: 60), TestRule(match: "Net", retryOn: "ECONNRESET")])
        let bad = try ConfigLoader.readEnvironment(["ROBOTCI_RULES": "Slow"])
        XCTAssertEqual(configError { try ConfigLoader.apply([bad], to: &c) },
                       "environment variable ROBOTCI_RULES: 'rules' must be a YAML list of mappings, e.g. [{match: 'CheckoutUITests/', retries: 0}]")
    }

    func testRepetitionAndTagKeys() throws {
        XCTAssertEqual(try applying(["repeat-each": .scalar("4")]).repetitions, 4)
        XCTAssertEqual(try applying(["until-failure": .scalar("true")]).repetitions, RunConfiguration.untilFailureCap, "the default cap")
        XCTAssertEqual(try applying(["until-failure": .scalar("true"), "repeat-each": .scalar("7")]).repetitions, 7, "--repeat-each is the cap")
        XCTAssertEqual(RunConfiguration(shards: 1).repetitions, 1)
        XCTAssertEqual(configError { _ = try self.applying(["repeat-each": .scalar("0")]) }, "src: 'repeat-each' must be an integer ≥ 1, got '0'")
        XCTAssertEqual(try applying(["tag": .list([".smoke", "ui"])]).tags, ["smoke", "ui"], "`.smoke` as Swift writes it is `smoke`")

        var untilFailure = try applying(["until-failure": .scalar("true"), "queue": .scalar("redis://h/x")])
        XCTAssertEqual(configError { try ConfigLoader.validate(untilFailure) }?.hasPrefix("--until-failure runs on one machine"), true)
        untilFailure.queue = nil
        untilFailure.partition = try Partition(index: 1, count: 2)
        XCTAssertEqual(configError { try ConfigLoader.validate(untilFailure) }?.hasPrefix("--until-failure runs on one machine"), true)
        untilFailure.partition = nil
        XCTAssertNoThrow(try ConfigLoader.validate(untilFailure))
        var repeated = try applying(["repeat-each": .scalar("3"), "queue": .scalar("redis://h/x")])
        XCTAssertNoThrow(try ConfigLoader.validate(repeated), "--repeat-each runs on many machines")
        repeated.driver = .command
        repeated.listCommand = "ls"
        repeated.runCommand = "run {tests} {junit}"
        repeated.tags = ["smoke"]
        XCTAssertEqual(configError { try ConfigLoader.validate(repeated) }?.hasPrefix("--tag selects Swift Testing tests"), true)
    }

    func testEmptyFileIsNoSettings() throws {
        XCTAssertTrue(try ConfigLoader.readYAML(at: try write("")).isEmpty)
        XCTAssertTrue(try ConfigLoader.readYAML(at: try write("# only a comment\n")).isEmpty)
    }

    func testUnknownKeyNamesFileLineAndSuggests() throws {
        let path = try write("shards: 4\nretries: 1\nshard: 4\n")
        let message = configError { _ = try ConfigLoader.readYAML(at: path) }
        let known = ConfigLoader.keys.keys.sorted().joined(separator: ", ")
        XCTAssertEqual(message, "\(path):3: unknown key 'shard'; did you mean 'shards'? known keys: \(known)")
        XCTAssertTrue(known.hasPrefix("adaptive-concurrency, allow-likely-flaky, base-port, browsers, build, build-arguments, configuration, driver, fail-on-flaky, fail-on-new-flaky, filter, history, isolation, last-failed, last-failed-with-flaky, list, max-batch-size"), known)
    }

    func testUnknownKeyFarFromAnyHasNoSuggestion() throws {
        let path = try write("timeout: 30\n")
        let message = configError { _ = try ConfigLoader.readYAML(at: path) }
        XCTAssertEqual(message, "\(path):1: unknown key 'timeout'; known keys: \(ConfigLoader.keys.keys.sorted().joined(separator: ", "))")
    }

    func testClosestKey() {
        XCTAssertEqual(ConfigLoader.closestKey(to: "test_timeout"), "test-timeout")
        XCTAssertEqual(ConfigLoader.closestKey(to: "skipbuild"), "skip-build")
        XCTAssertEqual(ConfigLoader.closestKey(to: "shrads"), "shards")
        XCTAssertEqual(ConfigLoader.closestKey(to: "fitler"), "filter")
        XCTAssertEqual(ConfigLoader.closestKey(to: "reporter"), "reporter")
        XCTAssertEqual(ConfigLoader.closestKey(to: "max-batch"), nil)
        XCTAssertEqual(ConfigLoader.closestKey(to: "retry"), nil, "three edits away from 'retries'")
        XCTAssertEqual(ConfigLoader.closestKey(to: ""), nil)
        XCTAssertEqual(ConfigLoader.closestKey(to: "x"), nil)
    }

    func testMappingValueIsRejected() throws {
        let path = try write("shards: 2\nfilter:\n  a: 1\n")
        XCTAssertEqual(configError { _ = try ConfigLoader.readYAML(at: path) },
                       "\(path):2: key 'filter' needs a value or a list, not a mapping")
    }

    func testRootMustBeAMapping() throws {
        let path = try write("- shards\n- 2\n")
        XCTAssertEqual(configError { _ = try ConfigLoader.readYAML(at: path) },
                       "\(path):1: the config must be a mapping of keys (e.g. 'shards: 8')")
    }

    func testInvalidYAML() throws {
        let path = try write("shards: 4\nretries: [1, 2\nfilter: x\n")
        let message = configError { _ = try ConfigLoader.readYAML(at: path) } ?? ""
        XCTAssertTrue(message.hasPrefix("\(path):3:7: invalid YAML: did not find expected ',' or ']'"), message)
        XCTAssertTrue(message.contains("line 2"), "names where the list began: \(message)")
        XCTAssertTrue(message.hasSuffix("\n  filter: x\n        ^"), message)
    }

    func testMissingFile() {
        let path = directory.appendingPathComponent("missing.yml").path
        let message = configError { _ = try ConfigLoader.readYAML(at: path) } ?? ""
        XCTAssertTrue(message.hasPrefix("cannot read config file \(path): "), message)
    }

    func testWrongTypesFromYAMLNameTheLineAndKey() throws {
        let path = try write("retries: 1\nshards: many\n")
        var c = RunConfiguration(shards: 2)
        let layer = try ConfigLoader.readYAML(at: path)
        XCTAssertEqual(configError { try ConfigLoader.apply([layer], to: &c) },
                       "\(path):2 key 'shards': 'shards' must be an integer ≥ 1, got 'many'")
    }

    func testListWhereOneValueIsExpected() throws {
        let path = try write("shards: [1, 2]\n")
        var c = RunConfiguration(shards: 2)
        let layer = try ConfigLoader.readYAML(at: path)
        XCTAssertEqual(configError { try ConfigLoader.apply([layer], to: &c) },
                       "\(path):1 key 'shards': 'shards' takes one value, not a list")
    }

    func testScalarWhereAListIsExpectedIsAOneElementList() throws {
        XCTAssertEqual(try applying(["filter": .scalar("Mod.A/.*")]).filter, ["Mod.A/.*"])
        XCTAssertEqual(try applying(["build-arguments": .scalar("-v")]).buildArguments, ["-v"])
        XCTAssertEqual(try applying(["skip": .list([])]).skip, [])
    }

    func testTypeErrors() {
        let cases: [(String, ConfigLoader.Value, String)] = [
            ("shards", .scalar("0"), "src: 'shards' must be an integer ≥ 1, got '0'"),
            ("shards", .scalar("2.5"), "src: 'shards' must be an integer ≥ 1, got '2.5'"),
            ("retries", .scalar("-1"), "src: 'retries' must be an integer ≥ 0, got '-1'"),
            ("test-timeout", .scalar("0"), "src: 'test-timeout' must be a positive number of seconds, got '0'"),
            ("test-timeout", .scalar("soon"), "src: 'test-timeout' must be a positive number of seconds, got 'soon'"),
            ("skip-build", .scalar("Maybe"), "src: 'skip-build' must be true or false, got 'maybe'"),
            ("fail-on-flaky", .list(["true"]), "src: 'fail-on-flaky' takes one value, not a list"),
            ("partition", .scalar("5/4"), "src: partition 5/4 is out of range: use K/N with 1 ≤ K ≤ N, e.g. 2/4"),
            ("partition", .scalar("half"), "src: partition 'half' is not K/N: write e.g. --partition 2/4 (the 2nd of 4 machines), or --partition auto (K/N from the CI's parallel-job variables)"),
            ("partition-count", .scalar("0"), "src: 'partition-count' must be an integer ≥ 1, got '0'"),
            ("reporter", .scalar("fancy"), "src: 'reporter' must be github, plain or auto, got 'fancy'"),
            ("base-port", .scalar("80"), "src: 'base-port' must be an integer ≥ 1024, got '80'"),
            ("base-port", .scalar("65000"), "src: 'base-port' must be below 65000"),
            ("configuration", .scalar("Release"), "src: 'configuration' must be debug or release, got 'Release'"),
            ("max-batch-size", .scalar("0"), "src: 'max-batch-size' must be an integer ≥ 1, got '0'"),
            ("package", .list(["a", "b"]), "src: 'package' takes one value, not a list"),
            ("bogus", .scalar("1"), "src: unknown key 'bogus'"),
        ]
        for (key, value, message) in cases {
            XCTAssertEqual(configError { _ = try applying([key: value]) }, message, key)
        }
    }

    func testBooleanSpellings() throws {
        for s in ["true", "YES", "1", "On"] { XCTAssertEqual(try applying(["skip-build": .scalar(s)]).skipBuild, true, s) }
        for s in ["false", "No", "0", "OFF"] {
            var c = RunConfiguration(shards: 1)
            c.skipBuild = true
            try ConfigLoader.apply([["skip-build": (.scalar(s), "src")]], to: &c)
            XCTAssertEqual(c.skipBuild, false, s)
        }
    }

    func testBoundaryValuesAccepted() throws {
        XCTAssertEqual(try applying(["base-port": .scalar("1024")]).basePort, 1024)
        XCTAssertEqual(try applying(["base-port": .scalar("64999")]).basePort, 64999)
        XCTAssertEqual(try applying(["retries": .scalar("0")]).retries, 0)
        XCTAssertEqual(try applying(["test-timeout": .scalar("0.001")]).testTimeout, 0.001)
        XCTAssertEqual(try applying(["reporter": .scalar("auto")]).reporter, .auto)
        XCTAssertEqual(try applying(["configuration": .scalar("debug")]).buildConfiguration, .debug)
    }

    // MARK: readEnvironment

    func testReadEnvironmentMapsROBOTCIVariables() throws {
        let env = [
            "ROBOTCI_TEST_TIMEOUT": "30", "ROBOTCI_FILTER": "Mod.A/.*,Mod.B/test1", "ROBOTCI_SKIP_BUILD": "1",
            "ROBOTCI_MAX_BATCH_SIZE": "10", "ROBOTCI_BUILD_ARGUMENTS": "-Xswiftc,-g", "ROBOTCI_PARTITION": "1/2",
            "PATH": "/usr/bin", "ROBOTCI_BOGUS": "x", "robotci_shards": "3", "ROBOTCI_WORKER_INDEX": "0",
        ]
        let raw = try ConfigLoader.readEnvironment(env)
        XCTAssertEqual(values(raw), [
            "test-timeout": .scalar("30"), "filter": .list(["Mod.A/.*", "Mod.B/test1"]), "skip-build": .scalar("1"),
            "max-batch-size": .scalar("10"), "build-arguments": .list(["-Xswiftc", "-g"]), "partition": .scalar("1/2"),
        ])
        XCTAssertEqual(raw["test-timeout"]?.1, "environment variable ROBOTCI_TEST_TIMEOUT")
        XCTAssertEqual(raw["max-batch-size"]?.1, "environment variable ROBOTCI_MAX_BATCH_SIZE")
    }

    /// A `ROBOTCI_*` variable one or two letters from a key's is a misspelt setting: an error
    /// naming the variable and the key, not a setting dropped without a word.
    func testAMisspeltVariableIsAnErrorNamingTheKey() {
        for (typo, meant) in [("ROBOTCI_SHRADS", "ROBOTCI_SHARDS"), ("ROBOTCI_RETIRES", "ROBOTCI_RETRIES"),
                              ("ROBOTCI_TEST_TIMOUT", "ROBOTCI_TEST_TIMEOUT"), ("ROBOTCI_FILTERS", "ROBOTCI_FILTER"),
                              ("ROBOTCI_RUNS", "ROBOTCI_RUN")] {
            XCTAssertThrowsError(try ConfigLoader.readEnvironment([typo: "3", "PATH": "/usr/bin"]), typo) { error in
                let message = String(describing: error)
                XCTAssertTrue(message.contains("environment variable \(typo) is not one of robotci's"), message)
                XCTAssertTrue(message.contains("rename it to \(meant)"), message)
            }
        }
    }

    /// What is robotci's without being a key (the worker variables, the machine name, the
    /// queue password) and what is plainly the suite's own is left alone, short names
    /// included (`ROBOTCI_BIN` is two letters from `ROBOTCI_RUN`).
    func testOtherVariablesAreNotTakenForTypos() throws {
        var env = ["ROBOTCI_MACHINE": "m1", "ROBOTCI_QUEUE_PASSWORD": "p",
                   "ROBOTCI_PROCESS_TAG": "1-2", "ROBOTCI_BIN": "/usr/bin/robotci", "ROBOTCI_DEMO_FAIL": "1",
                   "ROBOTCI_SECRET_PROBE": "x", "ROBOTCI_KEEP_REPORT": "/tmp/r", "ROBOTCI_URL": "http://x"]
        for variable in WorkerVariable.allCases { env[variable.name] = "1" }
        // ROBOTCI_TRACE, ROBOTCI_ISOLATION and the snapshot settings are both keys and what each
        // worker gets; the rest set nothing.
        XCTAssertEqual(Set(try ConfigLoader.readEnvironment(env).keys), ["trace", "isolation", "update-snapshots", "snapshot-tolerance"])
    }

    func testEveryKeyHasAnEnvironmentVariable() throws {
        var env: [String: String] = [:]
        for key in ConfigLoader.keys.keys { env["ROBOTCI_" + key.uppercased().replacingOccurrences(of: "-", with: "_")] = "v" }
        XCTAssertEqual(Set(try ConfigLoader.readEnvironment(env).keys), Set(ConfigLoader.keys.keys))
    }

    func testEnvironmentListsDropEmptyItems() throws {
        XCTAssertEqual(values(try ConfigLoader.readEnvironment(["ROBOTCI_SKIP": "a,,b,"])), ["skip": .list(["a", "b"])])
        XCTAssertEqual(values(try ConfigLoader.readEnvironment(["ROBOTCI_QUARANTINE": ""])), ["quarantine": .list([])])
        XCTAssertEqual(values(try ConfigLoader.readEnvironment(["ROBOTCI_SHARDS": ""])), ["shards": .scalar("")])
    }

    func testEnvironmentErrorNamesTheVariable() throws {
        var c = RunConfiguration(shards: 2)
        let layer = try ConfigLoader.readEnvironment(["ROBOTCI_SHARDS": "0"])
        XCTAssertEqual(configError { try ConfigLoader.apply([layer], to: &c) },
                       "environment variable ROBOTCI_SHARDS: 'shards' must be an integer ≥ 1, got '0'")
    }

    // MARK: apply

    func testLaterLayersWin() throws {
        let yaml = try ConfigLoader.readYAML(at: try write("shards: 4\nretries: 1\nfilter: [a]\ntest-timeout: 60\n"))
        let env = try ConfigLoader.readEnvironment(["ROBOTCI_SHARDS": "6", "ROBOTCI_FILTER": "b,c", "ROBOTCI_TEST_TIMEOUT": "30"])
        let flags: [String: (ConfigLoader.Value, String)] = ["shards": (.scalar("8"), "--shards")]
        var c = RunConfiguration(shards: 2)
        try ConfigLoader.apply([yaml, env, flags], to: &c)
        XCTAssertEqual(c.shards, 8)
        XCTAssertEqual(c.retries, 1, "only the YAML sets it")
        XCTAssertEqual(c.filter, ["b", "c"], "a later list replaces, it does not append")
        XCTAssertEqual(c.testTimeout, 30)
        XCTAssertEqual(c.reportDir, "robotci-report", "defaults survive")

        var reversed = RunConfiguration(shards: 2)
        try ConfigLoader.apply([flags, env, yaml], to: &reversed)
        XCTAssertEqual(reversed.shards, 4)
        XCTAssertEqual(reversed.filter, ["a"])
    }

    func testNoLayersKeepsDefaults() throws {
        var c = RunConfiguration(shards: 3)
        try ConfigLoader.apply([], to: &c)
        try ConfigLoader.apply([[:]], to: &c)
        XCTAssertEqual(c, RunConfiguration(shards: 3))
    }

    func testErrorInALayerStopsAndNamesItsSource() throws {
        let good: [String: (ConfigLoader.Value, String)] = ["shards": (.scalar("4"), "a")]
        let bad: [String: (ConfigLoader.Value, String)] = ["retries": (.scalar("x"), "environment variable ROBOTCI_RETRIES")]
        var c = RunConfiguration(shards: 2)
        XCTAssertEqual(configError { try ConfigLoader.apply([good, bad], to: &c) },
                       "environment variable ROBOTCI_RETRIES: 'retries' must be an integer ≥ 0, got 'x'")
        XCTAssertEqual(c.shards, 4, "earlier layers were applied")
    }

    func testDefaults() {
        let c = RunConfiguration(shards: 4)
        XCTAssertEqual(c.package, ".")
        XCTAssertEqual(c.retries, 2)
        XCTAssertEqual(c.testTimeout, 300)
        XCTAssertEqual(c.reportDir, "robotci-report")
        XCTAssertEqual(c.maxBatchSize, 2_000)
        XCTAssertEqual(c.buildConfiguration, .debug)
        XCTAssertNil(c.partition)
        XCTAssertNil(c.basePort)
    }

    func testQueueKeysFromTheEnvironmentAndTheirErrors() throws {
        let env = try ConfigLoader.readEnvironment(["ROBOTCI_QUEUE": "redis://10.1.2.3:6380/run-7", "ROBOTCI_QUEUE_LEASE_TIMEOUT": "5"])
        var c = RunConfiguration(shards: 2)
        try ConfigLoader.apply([env], to: &c)
        XCTAssertEqual(c.queue, "redis://10.1.2.3:6380/run-7")
        XCTAssertEqual(c.queueLeaseTimeout, 5)
        XCTAssertEqual(RunConfiguration(shards: 1).queueLeaseTimeout, 30)
        let bad = try ConfigLoader.readEnvironment(["ROBOTCI_QUEUE": "redis://10.1.2.3:6380"])
        XCTAssertEqual(configError { try ConfigLoader.apply([bad], to: &c) },
                       "environment variable ROBOTCI_QUEUE: queue 'redis://10.1.2.3:6380' has no NAME: write redis://HOST:PORT/NAME (NAME is the run, the same on every machine), e.g. redis://127.0.0.1:6379/pipeline-1234")
        XCTAssertNotNil(configError { _ = try self.applying(["queue-lease-timeout": .scalar("0")]) })
        var both = try applying(["queue": .scalar("redis://h/x"), "partition": .scalar("1/2")])
        XCTAssertEqual(configError { try ConfigLoader.validate(both) }?.contains("--queue and --partition"), true)
        both.partition = nil
        XCTAssertNoThrow(try ConfigLoader.validate(both))
    }
}
