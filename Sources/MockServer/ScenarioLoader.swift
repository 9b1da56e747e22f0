import Foundation
@preconcurrency import Yams

/// Reads a YAML scenario file into a ``Scenario``, rejecting mistakes with file, line and key:
///
/// ```yaml
/// routes:
///   - method: GET
///     path: /character                  # or pattern: /character/:id, or prefix: /avatar/
///     status: 200                       # default 200
///     json: {results: [{id: 1}]}        # or text:, html:, body:, file: (relative, inside the folder)
///     headers: {X-Reason: locked}
///     delay_ms: 150
/// default: {status: 404}
/// ```
public enum ScenarioLoader {
    /// Reads and checks the scenario at `url`.
    public static func load(contentsOf url: URL) throws -> Scenario {
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw MockServerError.invalidScenario(
                "no such scenario file; check the path (relative paths start at the current folder)",
                file: url.path, line: nil, key: nil)
        }
        let text: String
        do {
            text = try String(contentsOf: url, encoding: .utf8)
        } catch {
            throw MockServerError.invalidScenario(
                "cannot read the scenario file: \(error.localizedDescription)", file: url.path, line: nil, key: nil)
        }
        return try parse(text, file: url)
    }

    /// Checks scenario `yaml` as if it were the file at `file` (whose folder `file:` paths are relative to).
    public static func parse(_ yaml: String, file: URL) throws -> Scenario {
        let reader = ScenarioReader(file: file)
        if let line = YAMLDepth.lineTooDeep(yaml) {
            throw MockServerError.invalidScenario(
                "nested more than \(YAMLDepth.limit) levels deep; a scenario needs far fewer", file: file.path, line: line, key: nil)
        }
        if let line = YAMLAliases.lineOverBudget(yaml) {
            throw MockServerError.invalidScenario(
                "its aliases (*name) expand to more than \(YAMLAliases.budget) nodes, an alias bomb; a scenario needs far "
                    + "fewer: write the repeated part out, or reuse it fewer times", file: file.path, line: line, key: nil)
        }
        let root: Node?
        do {
            root = try Yams.compose(yaml: yaml)
        } catch let error as YamlError {
            throw reader.syntaxError(error)
        }
        guard let root else { return Scenario() }
        return try reader.scenario(from: root)
    }
}
