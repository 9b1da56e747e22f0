import Foundation
@testable import RobotKit
import Testing

/// The page's half of predicates, run under node without a browser: each format is parsed by
/// Swift, sent as the JSON a query sends, and evaluated by query.js's `evaluatePredicate`
/// against plain attributes, as the page does against an element's label, identifier, value.
@Suite(.enabled(if: QueryScriptTests.node != nil, "node is not installed"))
struct PredicateEvaluationTests {
    struct Case {
        var format: String
        var arguments: [Any] = []
        var attributes: [String: String]
        var expected: Bool
    }

    static let total = ["label": "Total: 3 items", "identifier": "footer.count", "value": "", "elementType": "staticText"]

    static var cases: [Case] {
        [
        Case(format: "label == 'Total: 3 items'", attributes: total, expected: true),
        Case(format: "label == 'total: 3 items'", attributes: total, expected: false),
        Case(format: "label ==[c] 'TOTAL: 3 ITEMS'", attributes: total, expected: true),
        Case(format: "label != 'x'", attributes: total, expected: true),
        Case(format: "label BEGINSWITH %@", arguments: ["Total"], attributes: total, expected: true),
        Case(format: "label BEGINSWITH %@", arguments: ["total"], attributes: total, expected: false),
        Case(format: "label BEGINSWITH[c] %@", arguments: ["total"], attributes: total, expected: true),
        Case(format: "label CONTAINS '3 it'", attributes: total, expected: true),
        Case(format: "label ENDSWITH 'items'", attributes: total, expected: true),
        Case(format: "label ENDSWITH 'item'", attributes: total, expected: false),
        Case(format: "label LIKE 'Total: ? items'", attributes: total, expected: true),
        Case(format: "label LIKE 'Total*'", attributes: total, expected: true),
        Case(format: "label LIKE 'Total'", attributes: total, expected: false),
        Case(format: "label LIKE 't*S'", attributes: total, expected: false),
        Case(format: "label LIKE[c] 't*S'", attributes: total, expected: true),
        Case(format: "label LIKE 'a.b(c)+'", attributes: ["label": "a.b(c)+"], expected: true),
        Case(format: "label LIKE 'a.b'", attributes: ["label": "axb"], expected: false),
        Case(format: "label MATCHES 'Total: \\\\d+ items'", attributes: total, expected: true),
        Case(format: "label MATCHES '\\\\d+'", attributes: total, expected: false),
        Case(format: "label MATCHES[c] 'total.*'", attributes: total, expected: true),
        Case(format: "label MATCHES[c] '\\\\D+'", attributes: ["label": "ABC"], expected: true),
        Case(format: "label MATCHES '\\\\p{L}+'", attributes: ["label": "Café"], expected: true),
        Case(format: "label ==[d] 'cafe'", attributes: ["label": "café"], expected: true),
        Case(format: "label ==[d] 'cafe'", attributes: ["label": "Café"], expected: false),
        Case(format: "label ==[cd] 'CAFE'", attributes: ["label": "café"], expected: true),
        Case(format: "label == 'cafe'", attributes: ["label": "café"], expected: false),
        Case(format: "identifier == 'footer.count' AND label BEGINSWITH 'Total'", attributes: total, expected: true),
        Case(format: "identifier == 'x' OR label BEGINSWITH 'Total'", attributes: total, expected: true),
        Case(format: "NOT label BEGINSWITH 'Total'", attributes: total, expected: false),
        Case(format: "!(identifier == 'x' || value == 'y') && label CONTAINS 'Total'", attributes: total, expected: true),
        Case(format: "identifier == 'x' OR label == 'y' AND FALSEPREDICATE", attributes: ["identifier": "x"], expected: true),
        Case(format: "value == ''", attributes: total, expected: true),
        Case(format: "value == %d", arguments: [1], attributes: ["value": "1"], expected: true),
        Case(format: "value == true", attributes: ["value": "0"], expected: false),
        Case(format: "placeholderValue BEGINSWITH 'Your'", attributes: ["placeholderValue": "Your name"], expected: true),
        Case(format: "elementType == 'staticText'", attributes: total, expected: true),
        Case(format: "elementType != 'button'", attributes: total, expected: true),
        ]
    }

    @Test func thePageEvaluatesEachCaseAsNSPredicateWould() throws {
        let node = try #require(QueryScriptTests.node)
        let encoded: [[String: Any]] = try Self.cases.map { item in
            let predicate = try ElementPredicate(format: item.format, argumentArray: item.arguments)
            return ["format": item.format, "node": predicate.json, "attributes": item.attributes, "expected": item.expected]
        }
        let (status, output) = try Self.evaluate(node, encoded)
        #expect(status == 0, "\(output)")
    }

    @Test func aBadRegularExpressionIsRefusedNamingIt() throws {
        let node = try #require(QueryScriptTests.node)
        let predicate = try ElementPredicate(format: "label MATCHES '(unclosed'")
        let encoded: [[String: Any]] = [["format": "bad", "node": predicate.json, "attributes": [:], "expected": false]]
        let (status, output) = try Self.evaluate(node, encoded)
        #expect(status == 4, "\(output)")
        #expect(output.contains("PredicateError: invalid regular expression \"(unclosed\""), "\(output)")
    }

    @Test func aRefusedFormatIsRefusedByThePageWithSwiftsMessage() throws {
        let node = try #require(QueryScriptTests.node)
        let refused = ElementPredicate(NSPredicate(format: "value < 3"))
        let encoded: [[String: Any]] = [["format": "refused", "node": refused.json, "attributes": [:], "expected": false]]
        let (status, output) = try Self.evaluate(node, encoded)
        #expect(status == 4 && output.contains("unsupported operator '<' at column 7"), "\(output)")
    }

    /// Runs every case through query.js: exit 3 when one disagrees (each printed), 4 when
    /// evaluation throws (the error printed).
    static func evaluate(_ node: String, _ cases: [[String: Any]]) throws -> (Int32, String) {
        let program = """
            const RK = new Function(require('fs').readFileSync(process.argv[1], 'utf8') + '\\nreturn RK;')();
            let bad = 0;
            for (const c of JSON.parse(process.argv[2])) {
              let got;
              try { got = RK.evaluatePredicate(c.node, c.attributes); }
              catch (e) { console.log(e.name + ': ' + e.message); process.exit(4); }
              if (got !== c.expected) { bad++; console.log(c.format + ' on ' + JSON.stringify(c.attributes) + ': ' + got); }
            }
            process.exit(bad ? 3 : 0);
            """
        let json = try JSONSerialization.data(withJSONObject: cases)
        let script = QueryScriptTests.folder.appendingPathComponent("query.js").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: node)
        process.arguments = ["-e", program, script, String(decoding: json, as: UTF8.self)]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, output)
    }
}
