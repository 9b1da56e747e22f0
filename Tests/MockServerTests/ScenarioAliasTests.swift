import Foundation
import Testing
@testable import MockServer

/// YAML aliases in scenarios, within a budget (issue 39).
@Suite("Scenario aliases: reused, never a bomb")
struct ScenarioAliasTests {
    private let file = URL(fileURLWithPath: "/scenarios/bomb.yaml")

    @Test("a billion laughs is refused at once, naming the file and the line")
    func bombRefused() throws {
        let bomb = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/Hostile/alias-bomb.yaml")
        let yaml = try String(contentsOf: bomb, encoding: .utf8)
        let started = Date()
        let error = #expect(throws: MockServerError.self) { try ScenarioLoader.parse(yaml, file: file) }
        #expect(Date().timeIntervalSince(started) < 2)
        let message = "\(error.map { "\($0)" } ?? "")"
        #expect(message.contains("/scenarios/bomb.yaml") && message.contains("alias"), "\(message)")
        #expect(message.contains(":12") || message.contains("line 12"), "the line of the alias past the budget: \(message)")
    }

    @Test("aliases within the budget still load, expanded")
    func reuseLoads() throws {
        let yaml = """
            routes:
              - path: /a
                json: &user {name: Alice, roles: [admin, dev]}
              - path: /b
                json: {users: [*user, *user, *user]}
            """
        let scenario = try ScenarioLoader.parse(yaml, file: file)
        #expect(scenario.routes.count == 2)
    }

    @Test("the budget counts nested expansions, not text")
    func nestedCounted() {
        // *a is 4 nodes (the list and its 3 items); *b is 9 (its list and two of *a).
        #expect(YAMLAliases.lineOverBudget("a: &a [1, 2, 3]\nb: [*a, *a]\n", budget: 8) == nil)
        #expect(YAMLAliases.lineOverBudget("a: &a [1, 2, 3]\nb: [*a, *a]\n", budget: 7) == 2)
        #expect(YAMLAliases.lineOverBudget("a: &a [1, 2, 3]\nb: &b [*a, *a]\nc: [*b]\n", budget: 16) == 3)
    }
}
