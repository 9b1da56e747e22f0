import ArgumentParser
import Foundation
import RobotCICore
import RobotCIRunner

/// `robotci config`: what `robotci run` would use, each key with where its value came from;
/// `--keys` lists every key (docs/configuration.md's table is this list).
struct Config: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print the configuration robotci run would use (after robotci.yml, ROBOTCI_* and flags), or every key.",
        discussion: "Exit codes: 0 printed, 2 a bad key, value or config file (the same errors robotci run gives)."
    )

    @Flag(help: "List every configuration key (flag, YAML key, default, meaning) as a Markdown table.")
    var keys = false

    @OptionGroup var options: RunOptions

    /// `ROBOTCI_RUN_ID  value  (environment variable …)`, or what robotci makes up when it is unset.
    static func identityLine(_ variable: String, _ env: [String: String], unset: String, use: String) -> String {
        if let value = env[variable], !value.isEmpty {
            return "\(variable)  \(value)  (environment variable \(variable)): \(use)"
        }
        return "\(variable)  not set: \(unset)  (default): \(use)"
    }

    func run() throws {
        let env = ProcessInfo.processInfo.environment
        try ExitStatus.run {
            if keys {
                print(ConfigKey.markdownTable())
                return 0
            }
            let layers = try options.layers(environment: env)
            let flags = options.flagSettings
            let resolved = try RunOptions.configuration(from: layers, flags: flags)  // every value checked, as robotci run would
            var given: [String: (ConfigLoader.Value, String)] = [:]
            for layer in layers { given.merge(layer) { _, later in later } }
            for flag in flags { given[flag.key.name] = (flag.shown, flag.source) }
            let width = ConfigKey.all.map(\.name.count).max() ?? 0
            for key in ConfigKey.all {
                let name = key.name.padding(toLength: width, withPad: " ", startingAt: 0)
                switch given[key.name] {
                case (.scalar(let v), let from)?: print("\(name)  \(URLCredentials.masked(v))  (\(from))")
                case (.list(let l), let from)?: print("\(name)  [\(l.joined(separator: ", "))]  (\(from))")
                case (.mappings, let from)? where key.name == "quarantine":
                    let n = resolved.quarantine.count, e = resolved.quarantineEntries.count
                    print("\(name)  \(n) regex\(n == 1 ? "" : "es"), \(e) entr\(e == 1 ? "y" : "ies")  (\(from))")
                case (.mappings, let from)?: print("\(name)  \(resolved.rules.count) rule\(resolved.rules.count == 1 ? "" : "s")  (\(from))")
                case nil: print("\(name)  \(key.defaultText.replacingOccurrences(of: "`", with: ""))  (default)")
                }
            }
            if !resolved.rules.isEmpty {
                // Each rule as it applies (first match wins), its unset fields the global values.
                print("")
                print("rules (first match wins; a field left out is the global one: retries \(resolved.retries), test-timeout \(Int(resolved.testTimeout)) s):")
                for (i, rule) in resolved.rules.enumerated() { print("  \(i + 1). \(rule.summary)") }
            }
            if !resolved.quarantineEntries.isEmpty {
                // Each entry with whether it applies today (an expired one quarantines nothing).
                let now = Date().timeIntervalSince1970
                print("")
                print("quarantine entries:")
                for e in resolved.quarantineEntries {
                    print("  \(e.test)\(e.browser.map { " [\($0)]" } ?? ""): \(e.note)\(e.isExpired(at: now) ? " (expired: no longer applies)" : "")")
                }
            }
            // Not keys (they name a run, not configure it) but read from the environment the same way.
            print("")
            print(Self.identityLine("ROBOTCI_RUN_ID", env, unset: "a new id per run, like \(Runner.makeRunID())",
                                    use: "the run id in results.json, history.json and the workers' environment; one value on every machine folds their partitions into one run"))
            print(Self.identityLine("ROBOTCI_MACHINE", env, unset: "host name and robotci's pid, like \(Runner.machineID([:]))",
                                    use: "this machine's name in a --queue run"))
            return 0
        }
    }
}
