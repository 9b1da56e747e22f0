import Foundation
import RobotCICore
import RobotCIQueue
import Yams

/// Layers configuration: defaults < `robotci.yml` < `ROBOTCI_*` environment < flags.
///
/// Every key has the same name in YAML as the flag (`test-timeout`), and in the
/// environment upper-cased with underscores (`ROBOTCI_TEST_TIMEOUT`).
public enum ConfigLoader {
    /// A value as given (YAML scalar or list, env string, flag), before typing.
    public enum Value: Equatable, Sendable {
        case scalar(String)
        case list([String])
    }

    /// Keys robotci understands, with the type each must have.
    public static let keys: [String: Kind] = [
        "package": .string, "shards": .int, "retries": .int, "test-timeout": .number, "report-dir": .string,
        "skip-build": .bool, "filter": .list, "skip": .list, "fail-on-flaky": .bool, "quarantine": .list,
        "partition": .string, "partition-count": .int, "reporter": .string, "base-port": .int,
        "configuration": .string, "build-arguments": .list, "max-batch-size": .int,
        "driver": .string, "list": .string, "run": .string, "build": .string, "test-separator": .string,
        "queue": .string, "queue-lease-timeout": .number,
    ]

    public enum Kind: Sendable { case string, int, number, bool, list }

    /// Reads a YAML file into raw values; errors name the file, line and key.
    public static func readYAML(at path: String) throws -> [String: (Value, String)] {
        let text: String
        do { text = try String(contentsOfFile: path, encoding: .utf8) } catch {
            throw ConfigError("cannot read config file \(path): \(error.localizedDescription)")
        }
        let node: Node?
        do { node = try Yams.compose(yaml: text) } catch let e as YamlError {
            throw ConfigError(describe(e, in: path, text: text))
        }
        guard let root = node else { return [:] }
        guard let mapping = root.mapping else {
            throw ConfigError("\(path):\(root.mark?.line ?? 1): the config must be a mapping of keys (e.g. 'shards: 8')")
        }
        var out: [String: (Value, String)] = [:]
        for (k, v) in mapping {
            let line = k.mark?.line ?? 1  // Yams marks are 1-based
            let where_ = "\(path):\(line)"
            // `test_separator` and `test-separator` are the same key.
            guard let key = k.string?.replacingOccurrences(of: "_", with: "-") else { throw ConfigError("\(where_): keys must be strings") }
            guard keys[key] != nil else {
                let hint = closestKey(to: key).map { "did you mean '\($0)'? " } ?? ""
                throw ConfigError("\(where_): unknown key '\(key)'; \(hint)known keys: \(keys.keys.sorted().joined(separator: ", "))")
            }
            if let seq = v.sequence {
                out[key] = (.list(seq.map { $0.string ?? "" }), "\(where_) key '\(key)'")
            } else if let s = v.scalar {
                out[key] = (.scalar(s.string), "\(where_) key '\(key)'")
            } else {
                throw ConfigError("\(where_): key '\(key)' needs a value or a list, not a mapping")
            }
        }
        return out
    }

    /// Checks that belong to the whole configuration, after every layer is applied.
    public static func validate(_ c: RunConfiguration) throws {
        if c.queue != nil && (c.partition != nil || c.partitionCount != nil) {
            throw ConfigError("--queue and --partition/--partition-count do not go together: with a queue every machine pulls from the whole suite; drop one of them")
        }
        guard c.driver == .command else { return }
        let missing = [("list", c.listCommand), ("run", c.runCommand)].filter { $0.1 == nil }.map(\.0)
        if !missing.isEmpty {
            throw ConfigError("driver: command needs \(missing.map { "'\($0)'" }.joined(separator: " and ")) in robotci.yml, e.g.\n  list: python3 -m pytest --collect-only -q tests\n  run: python3 -m pytest -q {tests} --junitxml={junit}")
        }
    }

    /// `robotci.yml:3:7: invalid YAML: did not find expected ',' or ']' (while parsing a flow
    /// sequence at line 2)`, then the offending line with a caret.
    static func describe(_ error: YamlError, in path: String, text: String) -> String {
        switch error {
        case .scanner(let context, let problem, let mark, _), .parser(let context, let problem, let mark, _),
             .composer(let context, let problem, let mark, _):
            let while_ = context.map { " (\($0.text) at line \($0.mark.line))" } ?? ""
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            var where_ = ""
            if mark.line >= 1 && mark.line <= lines.count {
                where_ = "\n  \(lines[mark.line - 1])\n  " + String(repeating: " ", count: max(0, mark.column - 1)) + "^"
            }
            return "\(path):\(mark.line):\(mark.column): invalid YAML: \(problem)\(while_)\(where_)"
        default:
            return "\(path): invalid YAML: \(error)"
        }
    }

    /// The known key nearest to a misspelt one (edit distance ≤ 2).
    static func closestKey(to key: String) -> String? {
        func distance(_ a: [Character], _ b: [Character]) -> Int {
            var row = Array(0...b.count)
            for i in 1...max(1, a.count) where !a.isEmpty {
                var prev = row[0]
                row[0] = i
                for j in 1...max(1, b.count) where !b.isEmpty {
                    let cur = row[j]
                    row[j] = min(row[j] + 1, row[j - 1] + 1, prev + (a[i - 1] == b[j - 1] ? 0 : 1))
                    prev = cur
                }
            }
            return row[b.count]
        }
        let scored = keys.keys.map { ($0, distance(Array(key), Array($0))) }.filter { $0.1 <= 2 }
        return scored.min { $0.1 != $1.1 ? $0.1 < $1.1 : $0.0 < $1.0 }?.0
    }

    /// `ROBOTCI_*` variables that name a config key.
    public static func readEnvironment(_ env: [String: String]) -> [String: (Value, String)] {
        var out: [String: (Value, String)] = [:]
        for key in keys.keys {
            let name = "ROBOTCI_" + key.uppercased().replacingOccurrences(of: "-", with: "_")
            guard let v = env[name] else { continue }
            if keys[key] == .list {
                out[key] = (.list(v.split(separator: ",").map(String.init)), "environment variable \(name)")
            } else {
                out[key] = (.scalar(v), "environment variable \(name)")
            }
        }
        return out
    }

    /// Applies layers in order (later wins) onto `config`.
    public static func apply(_ layers: [[String: (Value, String)]], to config: inout RunConfiguration) throws {
        for layer in layers {
            for (key, (value, source)) in layer.sorted(by: { $0.key < $1.key }) {
                try set(key, value, source: source, on: &config)
            }
        }
    }

    static func set(_ key: String, _ value: Value, source: String, on c: inout RunConfiguration) throws {
        func scalar() throws -> String {
            guard case .scalar(let s) = value else { throw ConfigError("\(source): '\(key)' takes one value, not a list") }
            return s
        }
        func int(min: Int = 0) throws -> Int {
            let s = try scalar()
            guard let n = Int(s), n >= min else { throw ConfigError("\(source): '\(key)' must be an integer ≥ \(min), got '\(s)'") }
            return n
        }
        func number() throws -> Double {
            let s = try scalar()
            guard let n = Double(s), n > 0 else { throw ConfigError("\(source): '\(key)' must be a positive number of seconds, got '\(s)'") }
            return n
        }
        func bool() throws -> Bool {
            let s = try scalar().lowercased()
            switch s {
            case "true", "yes", "1", "on": return true
            case "false", "no", "0", "off": return false
            default: throw ConfigError("\(source): '\(key)' must be true or false, got '\(s)'")
            }
        }
        func command() throws -> String {
            let s = try scalar().trimmingCharacters(in: .whitespaces)
            guard !s.isEmpty else { throw ConfigError("\(source): '\(key)' needs a shell command") }
            return s
        }
        func list() -> [String] {
            switch value {
            case .list(let l): return l
            case .scalar(let s): return [s]
            }
        }
        switch key {
        case "package": c.package = try scalar()
        case "shards": c.shards = try int(min: 1)
        case "retries": c.retries = try int()
        case "test-timeout": c.testTimeout = try number()
        case "report-dir": c.reportDir = try scalar()
        case "skip-build": c.skipBuild = try bool()
        case "filter": c.filter = list()
        case "skip": c.skip = list()
        case "fail-on-flaky": c.failOnFlaky = try bool()
        case "quarantine": c.quarantine = list()
        case "partition":
            let text = try scalar()
            do { c.partition = try Partition(parsing: text) } catch let e as ConfigError {
                throw ConfigError("\(source): \(e.message)")
            }
        case "partition-count": c.partitionCount = try int(min: 1)
        case "reporter":
            let r = try scalar()
            guard ["github", "plain", "auto"].contains(r) else { throw ConfigError("\(source): 'reporter' must be github, plain or auto, got '\(r)'") }
            c.reporter = r
        case "base-port":
            let p = try int(min: 1024)
            guard p < 65000 else { throw ConfigError("\(source): 'base-port' must be below 65000") }
            c.basePort = p
        case "configuration":
            let v = try scalar()
            guard v == "debug" || v == "release" else { throw ConfigError("\(source): 'configuration' must be debug or release, got '\(v)'") }
            c.buildConfiguration = v
        case "build-arguments": c.buildArguments = list()
        case "max-batch-size": c.maxBatchSize = try int(min: 1)
        case "driver":
            let v = try scalar()
            guard let d = RunConfiguration.Driver(rawValue: v) else {
                throw ConfigError("\(source): 'driver' must be swift (XCTest and Swift Testing) or command (any runner that writes JUnit), got '\(v)'")
            }
            c.driver = d
        case "list": c.listCommand = try command()
        case "run":
            let v = try command()
            for placeholder in ["{tests}", "{junit}"] where !v.contains(placeholder) {
                throw ConfigError("\(source): the 'run' command must contain \(placeholder) (robotci puts the batch's test ids in {tests} and reads JUnit from {junit}), got '\(v)'")
            }
            c.runCommand = v
        case "build": c.buildCommand = try command()
        case "test-separator": c.testSeparator = try scalar()
        case "queue":
            let v = try scalar()
            do { _ = try QueueAddress(parsing: v) } catch let e as QueueError { throw ConfigError("\(source): \(e.message)") }
            c.queue = v
        case "queue-lease-timeout": c.queueLeaseTimeout = try number()
        default: throw ConfigError("\(source): unknown key '\(key)'")
        }
    }
}
