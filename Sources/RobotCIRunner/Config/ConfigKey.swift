import Foundation
import RobotCICore

/// One configuration key, described once: its name (the flag `--name`, the YAML key `name`,
/// the environment variable `ROBOTCI_NAME`), its type, its default and help, and how a value
/// is checked and stored in `RunConfiguration`. The YAML and environment loader, the flags
/// (their names, help and reading), `robotci config` and the table in docs/configuration.md
/// all come from `ConfigKey.all` (ConfigKeys.swift).
///
/// A new key: a property in `RunConfiguration`, an entry in `ConfigKey.all` (a `Typed` static
/// when it has a flag), and for a flag one property in `RunOptions` named as the key
/// (`testTimeout` for `test-timeout`) whose help and reading are the static's; a test fails
/// when the flag, the sample `config/robotci.yml` or docs/configuration.md's table is missing it.
public struct ConfigKey: Sendable {
    /// How a key's value is written (for the docs; the parser checks it).
    public enum Kind: Sendable { case string, int, number, bool, list, rules }

    /// How `robotci run`/`list` take it on the command line.
    public enum Flag: Sendable, Equatable {
        /// `--name VALUE` (`VALUE` names it in the docs); `repeated`: may be given several times.
        case option(String, repeated: Bool = false)
        /// `--name` alone turns it on.
        case toggle
        /// YAML and environment only.
        case none

        /// The name of the flag's value in its help (`--shards <n>`).
        public var valueName: String? {
            guard case .option(let value, _) = self else { return nil }
            return value.lowercased()
        }
    }

    public let name: String
    public let kind: Kind
    public let flag: Flag
    /// The default as the docs show it.
    public let defaultText: String
    public let help: String
    /// Checks `value` (from `source`, e.g. "robotci.yml:3 key 'shards'") and stores it.
    let store: @Sendable (ConfigValue, inout RunConfiguration) throws -> Void
    /// Stores a flag's value, read into the key's type when the command line was parsed;
    /// false when `value` is not of that type.
    private(set) var storeRead: @Sendable (Any, inout RunConfiguration) throws -> Bool = { _, _ in false }

    /// `ROBOTCI_` + the name upper-cased, `-` → `_`.
    public var environmentName: String { "ROBOTCI_" + name.uppercased().replacingOccurrences(of: "-", with: "_") }

    /// Checks and stores `value` given by `source` into `config`.
    public func apply(_ value: ConfigLoader.Value, source: String, to config: inout RunConfiguration) throws {
        try store(ConfigValue(key: name, value: value, source: source), &config)
    }

    /// A flag's value, already read into this key's type, as a setting to apply.
    public func setting(_ value: Any) -> ConfigLoader.FlagSetting {
        ConfigLoader.FlagSetting(key: self, value: value)
    }
}

extension ConfigKey {
    /// A key of YAML and the environment only: its text is read when it is applied.
    init(_ name: String, _ kind: Kind, flag: Flag = .none, default defaultText: String, help: String,
         store: @escaping @Sendable (ConfigValue, inout RunConfiguration) throws -> Void) {
        self.name = name
        self.kind = kind
        self.flag = flag
        self.defaultText = defaultText
        self.help = help
        self.store = store
    }

    /// A key with a flag, typed: `read` turns text into `Value` (for a flag, once, when the
    /// command line is parsed: ArgumentParser's `transform`), `into` says where it goes. The
    /// flag and the YAML/environment value share the one reading, so they fail alike.
    public struct Typed<Value: Sendable>: Sendable {
        public let name: String
        let kind: Kind
        public let flag: Flag
        let defaultText: String
        let help: String
        let read: @Sendable (ConfigValue) throws -> Value
        var write: @Sendable (Value, inout RunConfiguration) -> Void = { _, _ in }
        var check: @Sendable (Value) throws -> Void = { _ in }

        init(_ name: String, _ kind: Kind, flag: Flag, default defaultText: String, help: String,
             read: @escaping @Sendable (ConfigValue) throws -> Value) {
            (self.name, self.kind, self.flag, self.defaultText, self.help, self.read) = (name, kind, flag, defaultText, help, read)
        }

        /// A check the flag's reading leaves to when the value is applied: for text that may
        /// hold a password, which ArgumentParser's usage error would print as given. It throws
        /// `ConfigError`; the message is prefixed with where the value came from.
        func checkedWhenApplied(_ check: @escaping @Sendable (Value) throws -> Void) -> Self {
            var typed = self
            typed.check = check
            return typed
        }

        /// Stores the value with `write`.
        func into(_ write: @escaping @Sendable (Value, inout RunConfiguration) -> Void) -> Self {
            var typed = self
            typed.write = write
            return typed
        }

        /// Stores the value at `path`.
        func into(_ path: WritableKeyPath<RunConfiguration, Value> & Sendable) -> Self {
            into { value, config in config[keyPath: path] = value }
        }

        /// Stores the value at an optional `path`.
        func into(_ path: WritableKeyPath<RunConfiguration, Value?> & Sendable) -> Self {
            into { value, config in config[keyPath: path] = value }
        }

        /// The key, with both ways in: text (YAML, environment) and a value read from a flag.
        public var key: ConfigKey {
            let (read, check, write) = (self.read, self.check, self.write)
            var key = ConfigKey(name, kind, flag: flag, default: defaultText, help: help) { given, config in
                let value = try read(given)
                do { try check(value) } catch let e as ConfigError { throw given.fail(e.message) }
                write(value, &config)
            }
            key.storeRead = { any, config in
                guard let value = any as? Value else { return false }
                try check(value)
                write(value, &config)
                return true
            }
            return key
        }

        /// Reads a flag's text (ArgumentParser's `transform`); the error is the key's own,
        /// without a source: the parser names the flag and the value.
        public func fromFlag(_ text: String) throws -> Value {
            try read(ConfigValue(key: name, value: .scalar(text), source: ""))
        }
    }
}

extension ConfigKey.Typed where Value == [String] {
    /// Reads one occurrence of a repeatable flag (`--filter A --filter B`): one entry.
    public func oneFromFlag(_ text: String) throws -> String {
        try fromFlag(text).first ?? text
    }
}

extension ConfigKey {
    /// Keys by name.
    public static let byName: [String: ConfigKey] = Dictionary(all.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })

    /// The flag's help text, from the key's description (for `RunOptions`).
    public static func help(_ name: String) -> String {
        guard let key = byName[name] else { return "" }
        return "\(key.help.replacingOccurrences(of: "`", with: "")) (config: \(name); default: \(key.defaultText.replacingOccurrences(of: "`", with: "")))."
    }

    /// The table of keys in docs/configuration.md (flag, key, default, meaning).
    public static func markdownTable() -> String {
        var lines = ["| flag | config key | default | meaning |", "|---|---|---|---|"]
        for key in all {
            let flag: String
            switch key.flag {
            case .option(let value, _): flag = "`--\(key.name) \(value)`"
            case .toggle: flag = "`--\(key.name)`"
            case .none: flag = "—"
            }
            lines.append("| \(flag) | `\(key.name)` | \(key.defaultText) | \(key.help) |")
        }
        lines.append("| `--config FILE` | — | `robotci.yml` if present | YAML config |")
        return lines.joined(separator: "\n")
    }
}
