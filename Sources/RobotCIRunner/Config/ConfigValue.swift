import Foundation
import RobotCICore
import Yams

/// A value as given for one key, with the typed readings every key shares; errors name the
/// source and the key.
struct ConfigValue {
    let key: String
    let value: ConfigLoader.Value
    let source: String

    /// The error for this value; a flag's (read while the command line is parsed, whose parser
    /// names the flag and the value) has no source.
    func fail(_ message: String) -> ConfigError { ConfigError(source.isEmpty ? message : "\(source): \(message)") }

    func scalar() throws -> String {
        guard case .scalar(let s) = value else { throw fail("'\(key)' takes one value, not a list") }
        return s
    }

    func int(min: Int = 0) throws -> Int {
        let s = try scalar()
        guard let n = Int(s), n >= min else { throw fail("'\(key)' must be an integer ≥ \(min), got '\(s)'") }
        return n
    }

    func seconds() throws -> Double {
        let s = try scalar()
        guard let n = Double(s), n > 0 else { throw fail("'\(key)' must be a positive number of seconds, got '\(s)'") }
        return n
    }

    /// A number from 0 to 1.
    func fraction() throws -> Double {
        let s = try scalar()
        guard let n = Double(s), n >= 0, n <= 1 else { throw fail("'\(key)' must be a number from 0 to 1, got '\(s)'") }
        return n
    }

    func bool() throws -> Bool {
        let s = try scalar().lowercased()
        switch s {
        case "true", "yes", "1", "on": return true
        case "false", "no", "0", "off": return false
        default: throw fail("'\(key)' must be true or false, got '\(s)'")
        }
    }

    func command() throws -> String {
        let s = try scalar().trimmingCharacters(in: .whitespaces)
        guard !s.isEmpty else { throw fail("'\(key)' needs a shell command") }
        return s
    }

    /// One of `choices`, else an error that lists them (`meaning` explains each, optional).
    func choice(_ choices: [String], meaning: String? = nil) throws -> String {
        let s = try scalar()
        guard choices.contains(s) else {
            let listed = meaning ?? choices.dropLast().joined(separator: ", ") + " or " + (choices.last ?? "")
            throw fail("'\(key)' must be \(listed), got '\(s)'")
        }
        return s
    }

    /// One of an enumeration's raw values, else an error that lists them.
    func choice<Choice: RawRepresentable & CaseIterable>(_: Choice.Type, meaning: String? = nil) throws -> Choice
    where Choice.RawValue == String {
        let name = try choice(Choice.allCases.map(\.rawValue), meaning: meaning)
        guard let chosen = Choice(rawValue: name) else { throw fail("'\(key)' cannot be '\(name)'") }
        return chosen
    }

    /// A file or folder path, not empty (`empty` says what to give instead).
    func path(empty: String? = nil) throws -> URL {
        let s = try scalar()
        guard !s.isEmpty else { throw fail(empty ?? "'\(key)' needs a path") }
        return URL(fileURLWithPath: s)
    }

    /// A scalar is a one-element list.
    func list() throws -> [String] {
        switch value {
        case .list(let l): return l
        case .scalar(let s): return [s]
        case .mappings: throw fail("'\(key)' takes regexes (a list of strings), not mappings")
        }
    }

    /// `rules:`: a list of `{match: REGEX, retries: N, test-timeout: S, retry-on: REGEX}`
    /// (from YAML; an environment variable holds the same list in YAML flow style).
    func rules() throws -> [TestRule] {
        var entries: [[String: String]]
        switch value {
        case .mappings(let m): entries = m
        case .list(let l) where l.isEmpty: entries = []
        case .scalar(let text):
            entries = try flowRules(text)
        case .list:
            throw fail("'rules' is a list of mappings, e.g.\n  rules:\n    - {match: 'CheckoutUITests/', retries: 0}\n    - {match: 'Slow', test-timeout: 900}")
        }
        return try entries.enumerated().map { i, fields in
            do { return try TestRule(number: i + 1, fields: fields) } catch let e as ConfigError { throw fail(e.message) }
        }
    }

    /// `[{match: X, retries: 0}, …]` as YAML flow text (`ROBOTCI_RULES`).
    private func flowRules(_ text: String) throws -> [[String: String]] {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.isEmpty { return [] }
        let usage = "'rules' must be a YAML list of mappings, e.g. [{match: 'CheckoutUITests/', retries: 0}]"
        guard let node = try? Yams.compose(yaml: trimmed), let seq = node.sequence else { throw fail(usage) }
        // The entries are read as a file's are: errors name the entry and the field.
        return try ConfigLoader.mappings(seq, key: key, at: source)
    }
}
