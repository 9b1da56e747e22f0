import ArgumentParser
import Foundation
import RobotCICore
import RobotCIRunner

/// `robotci config`: what `robotci run` would use, each key with where its value came from;
/// `--keys` lists every key (the README's table is this list).
struct Config: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print the configuration robotci run would use (after robotci.yml, ROBOTCI_* and flags), or every key.",
        discussion: "Exit codes: 0 printed, 2 a bad key, value or config file (the same errors robotci run gives)."
    )

    @Flag(help: "List every configuration key (flag, YAML key, default, meaning) as a Markdown table.")
    var keys = false

    @OptionGroup var options: RunOptions

    func run() throws {
        let env = ProcessInfo.processInfo.environment
        ExitStatus.run {
            if keys {
                print(ConfigKey.markdownTable())
                return 0
            }
            let layers = try options.layers(environment: env)
            _ = try RunOptions.configuration(from: layers)  // every value checked, as robotci run would
            var given: [String: (ConfigLoader.Value, String)] = [:]
            for layer in layers { given.merge(layer) { _, later in later } }
            let width = ConfigKey.all.map(\.name.count).max() ?? 0
            for key in ConfigKey.all {
                let name = key.name.padding(toLength: width, withPad: " ", startingAt: 0)
                switch given[key.name] {
                case (.scalar(let v), let from)?: print("\(name)  \(URLCredentials.masked(v))  (\(from))")
                case (.list(let l), let from)?: print("\(name)  [\(l.joined(separator: ", "))]  (\(from))")
                case nil: print("\(name)  \(key.defaultText.replacingOccurrences(of: "`", with: ""))  (default)")
                }
            }
            return 0
        }
    }
}
