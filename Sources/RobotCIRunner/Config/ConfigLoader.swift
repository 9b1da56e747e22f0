import Foundation
import ProcessToolkit
import RobotCICore
import RobotCIQueue
import WorkerContract
import Yams

/// Layers configuration: defaults < `robotci.yml` < `ROBOTCI_*` environment < flags.
///
/// Every key has the same name in YAML as the flag (`test-timeout`), and in the
/// environment upper-cased with underscores (`ROBOTCI_TEST_TIMEOUT`). What the keys are and
/// how each value is checked is `ConfigKey.all`; this reads the layers and applies them.
public enum ConfigLoader {
    /// A value as given (YAML scalar or list, env string, flag), before typing.
    public enum Value: Equatable, Sendable {
        case scalar(String)
        case list([String])
        /// A list of mappings of scalars (`rules:`), each as field → value.
        case mappings([[String: String]])
    }

    /// Keys robotci understands, with the type each must have (from `ConfigKey.all`).
    public static let keys: [String: ConfigKey.Kind] = ConfigKey.byName.mapValues(\.kind)

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
            if let seq = v.sequence, seq.contains(where: { $0.mapping != nil }) {
                // A list key that takes entries too (`quarantine:`) reads a regex beside them as {match: REGEX}.
                let scalars = keys[key] == .list ? "match" : nil
                out[key] = (.mappings(try mappings(seq, key: key, at: where_, scalarsAs: scalars)), "\(where_) key '\(key)'")
            } else if let seq = v.sequence {
                out[key] = (.list(seq.map { $0.string ?? "" }), "\(where_) key '\(key)'")
            } else if let s = v.scalar {
                out[key] = (.scalar(s.string), "\(where_) key '\(key)'")
            } else {
                throw ConfigError("\(where_): key '\(key)' needs a value or a list, not a mapping")
            }
        }
        return out
    }

    /// A YAML list of mappings whose values are scalars (`rules:`), each as field → value;
    /// errors name the entry (1-based) and its line.
    static func mappings(_ seq: Node.Sequence, key: String, at where_: String, scalarsAs field: String? = nil) throws -> [[String: String]] {
        try seq.enumerated().map { i, item in
            let line = item.mark.map { "\($0.line)" } ?? where_
            if let field, let scalar = item.scalar { return [field: scalar.string] }
            guard let mapping = item.mapping else {
                throw ConfigError("\(where_): key '\(key)', entry \(i + 1) (line \(line)) must be a mapping like {match: REGEX, retries: 0}, not '\(item.string ?? "a list")'")
            }
            var fields: [String: String] = [:]
            for (k, v) in mapping {
                guard let name = k.string, let value = v.scalar?.string else {
                    throw ConfigError("\(where_): key '\(key)', entry \(i + 1) (line \(line)): field '\(k.string ?? "?")' needs one value, not a list or a mapping")
                }
                fields[name] = value
            }
            return fields
        }
    }

    /// Checks that belong to the whole configuration, after every layer is applied.
    public static func validate(_ c: RunConfiguration) throws {
        if c.queue != nil && (c.partition != nil || c.partitionFromCI || c.partitionCount != nil) {
            throw ConfigError("--queue and --partition/--partition-count do not go together: with a queue every machine pulls from the whole suite; drop one of them")
        }
        if c.untilFailure && (c.queue != nil || c.partition != nil || c.partitionFromCI || c.partitionCount != nil) {
            throw ConfigError("--until-failure runs on one machine: it stops starting repetitions at the first failure, which other machines of a --queue or --partition run would not hear of; drop --until-failure, or use --repeat-each N (it runs on many machines)")
        }
        if !c.tags.isEmpty && c.driver == .command {
            throw ConfigError("--tag selects Swift Testing tests by their tags; driver: command lists ids only: select its tests with --filter instead")
        }
        if let cap = c.quarantineCap {
            // Before the build: the live entries alone are too many (regexes count once tests are listed).
            let now = Date().timeIntervalSince1970
            let held = Set(c.quarantineEntries.filter { !$0.isExpired(at: now) }.map { "\($0.test)\($0.browser.map { " [\($0)]" } ?? "")" })
            if held.count > cap {
                throw ConfigError("quarantine-cap is \(cap), and 'quarantine' has entries for \(held.count) tests: fix and release some "
                                  + "(delete their lines from 'quarantine'), or raise quarantine-cap")
            }
        }
        if c.networkIsolation == .on, let grid = c.browsers.first(where: { $0.idName == "webdriver" }) {
            throw ConfigError("--browsers \(grid) and network-isolation on do not go together: a shard's network namespace has no way out to the endpoint; "
                + "set network-isolation to auto (the endpoint's batches run outside the namespaces) or off")
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
        closest(to: key, among: keys.keys, within: 2)
    }

    /// The candidate nearest to `word` within `limit` edits (insert, delete, replace), the
    /// alphabetically first of equals; nil if none is that near.
    static func closest(to word: String, among candidates: some Sequence<String>, within limit: Int) -> String? {
        let a = Array(word)
        func distance(_ b: [Character]) -> Int {
            guard !a.isEmpty, !b.isEmpty else { return max(a.count, b.count) }
            var row = Array(0...b.count)
            for i in 1...a.count {
                var previous = row[0]
                row[0] = i
                for j in 1...b.count {
                    let above = row[j]
                    row[j] = min(row[j] + 1, row[j - 1] + 1, previous + (a[i - 1] == b[j - 1] ? 0 : 1))
                    previous = above
                }
            }
            return row[b.count]
        }
        let scored = candidates.map { ($0, distance(Array($0))) }.filter { $0.1 <= limit }
        return scored.min { $0.1 != $1.1 ? $0.1 < $1.1 : $0.0 < $1.0 }?.0
    }

    /// `ROBOTCI_*` names that are robotci's without being config keys: what it sets for each
    /// worker (`ROBOTCI_RUN_ID` among them), the machine's name in a queue, the queue's
    /// password and the tag of robotci's children.
    static let otherVariables: Set<String> = Set(WorkerVariable.allCases.map(\.name)).union([
        "ROBOTCI_MACHINE", QueueAddress.passwordVariable, ChildRegistry.tagVariable,
    ])

    /// `ROBOTCI_*` variables that name a config key.
    ///
    /// - Throws: `ConfigError` for a variable that is none of robotci's yet one or two letters
    ///   from a config key's (`ROBOTCI_SHRADS`): a setting that would otherwise be dropped
    ///   without a word. Other `ROBOTCI_*` names are taken for the test suite's own (the
    ///   example's `ROBOTCI_DEMO_FAIL`) and left alone; names of up to five letters after the
    ///   prefix are matched within one letter, so `ROBOTCI_BIN` is not `ROBOTCI_RUN`.
    public static func readEnvironment(_ env: [String: String]) throws -> [String: (Value, String)] {
        var out: [String: (Value, String)] = [:]
        for key in ConfigKey.all {
            let name = key.environmentName
            guard let v = env[name] else { continue }
            if key.kind == .list {
                out[key.name] = (.list(v.split(separator: ",").map(String.init)), "environment variable \(name)")
            } else {
                out[key.name] = (.scalar(v), "environment variable \(name)")
            }
        }
        let known = Set(ConfigKey.all.map(\.environmentName))
        let prefix = "ROBOTCI_"
        let suffixes = known.map { String($0.dropFirst(prefix.count)) }
        for name in env.keys.sorted() where name.hasPrefix(prefix) && !known.contains(name) && !otherVariables.contains(name) {
            let suffix = String(name.dropFirst(prefix.count))
            guard let near = closest(to: suffix, among: suffixes, within: suffix.count > 5 ? 2 : 1) else { continue }
            throw ConfigError(
                "environment variable \(name) is not one of robotci's, and \(prefix + near) is: rename it to "
                    + "\(prefix + near) to set the '\(near.lowercased().replacingOccurrences(of: "_", with: "-"))' key, or unset it "
                    + "(robotci reads the ROBOTCI_* variables that name a config key; see docs/configuration.md)")
        }
        return out
    }

    /// Applies layers in order (later wins) onto `config`, then the flags (the last layer).
    public static func apply(_ layers: [[String: (Value, String)]], flags: [FlagSetting] = [], to config: inout RunConfiguration) throws {
        for layer in layers {
            for (key, (value, source)) in layer.sorted(by: { $0.key < $1.key }) {
                try set(key, value, source: source, on: &config)
            }
        }
        for flag in flags { try flag.apply(to: &config) }
    }

    /// A flag's value, read into its key's type when the command line was parsed.
    public struct FlagSetting {
        public let key: ConfigKey
        let value: Any

        /// Where the value came from, as messages name it.
        public var source: String { "--\(key.name)" }

        /// The value as `robotci config` shows it.
        public var shown: Value {
            if let list = value as? [Any] { return .list(list.map(Self.text)) }
            return .scalar(Self.text(value))
        }

        private static func text(_ value: Any) -> String {
            switch value {
            case let choice as any RawRepresentable<String>: choice.rawValue
            case let url as URL: url.isFileURL ? url.relativePath : url.absoluteString
            case let number as Double where number.rounded() == number && abs(number) < 1e15: String(Int(number))
            default: String(describing: value)
            }
        }

        func apply(to config: inout RunConfiguration) throws {
            let stored: Bool
            do { stored = try key.storeRead(value, &config) } catch let e as ConfigError { throw ConfigError("\(source): \(e.message)") }
            guard stored else {
                throw ConfigError("\(source): robotci read this flag as \(type(of: value)), which its key does not take: a bug in robotci, please report it")
            }
        }
    }

    static func set(_ key: String, _ value: Value, source: String, on c: inout RunConfiguration) throws {
        guard let described = ConfigKey.byName[key] else { throw ConfigError("\(source): unknown key '\(key)'") }
        try described.apply(value, source: source, to: &c)
    }
}
