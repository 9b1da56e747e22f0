import Foundation
@testable import RobotKit
import Testing

/// The NSPredicate subset's parser: what it builds, its precedence, and how it refuses.
@Suite struct ElementPredicateTests {
    typealias Node = ElementPredicate.Node

    static func node(_ format: String, _ arguments: any CVarArg...) throws -> Node {
        try ElementPredicate(format: format, argumentArray: arguments).parsed.get()
    }

    static func cmp(_ key: ElementPredicate.Key, _ op: ElementPredicate.Operator, _ text: String,
                    _ options: ElementPredicate.Options = []) -> Node {
        .comparison(key, .init(op, text, options: options))
    }

    @Test(arguments: [
        ("label == \"Save\"", ElementPredicate.Operator.equals), ("label = 'Save'", .equals),
        ("label != 'Save'", .notEquals), ("label <> 'Save'", .notEquals),
        ("label BEGINSWITH 'Save'", .beginsWith), ("label beginswith 'Save'", .beginsWith),
        ("label CONTAINS 'Save'", .contains), ("label ENDSWITH 'Save'", .endsWith),
        ("label LIKE 'Save'", .like), ("label MATCHES 'Save'", .matches),
    ])
    func everyOperator(format: String, op: ElementPredicate.Operator) throws {
        #expect(try Self.node(format) == Self.cmp(.label, op, "Save"))
    }

    @Test func everyKeyAndModifier() throws {
        #expect(try Self.node("identifier ==[c] 'a'") == Self.cmp(.identifier, .equals, "a", .caseInsensitive))
        #expect(try Self.node("value CONTAINS[d] 'a'") == Self.cmp(.value, .contains, "a", .diacriticInsensitive))
        #expect(try Self.node("placeholderValue LIKE[cd] 'a*'") == Self.cmp(.placeholderValue, .like, "a*", [.caseInsensitive, .diacriticInsensitive]))
        #expect(try Self.node("label BEGINSWITH[DC] 'a'") == Self.cmp(.label, .beginsWith, "a", [.caseInsensitive, .diacriticInsensitive]))
        #expect(try Self.node("elementType == 'Button'") == Self.cmp(.elementType, .equals, "button"))
        #expect(try Self.node("elementType != %@", "cell") == .not(Self.cmp(.elementType, .equals, "cell")))
    }

    @Test func substitutionAndLiterals() throws {
        #expect(try Self.node("label BEGINSWITH %@", "Total") == Self.cmp(.label, .beginsWith, "Total"))
        #expect(try Self.node("%K == %@", "identifier", "x") == Self.cmp(.identifier, .equals, "x"))
        #expect(try Self.node("value == %d", 3) == Self.cmp(.value, .equals, "3"))
        #expect(try Self.node("value == %ld", 40) == Self.cmp(.value, .equals, "40"))
        #expect(try Self.node("value == 1.5") == Self.cmp(.value, .equals, "1.5"))
        #expect(try Self.node("value == true") == Self.cmp(.value, .equals, "1"))
        #expect(try Self.node(#"label == "say \"hi\"\n""#) == Self.cmp(.label, .equals, "say \"hi\"\n"))
        #expect(try Self.node(#"label == 'it\'s'"#) == Self.cmp(.label, .equals, "it's"))
        #expect(try Self.node("label == %@", "%@ and 'quotes'") == Self.cmp(.label, .equals, "%@ and 'quotes'"), "arguments are not parsed")
        #expect(try Self.node("TRUEPREDICATE") == .constant(true))
    }

    @Test func precedenceIsNotThenAndThenOr() throws {
        let a = Self.cmp(.label, .equals, "a")
        let b = Self.cmp(.label, .equals, "b")
        let c = Self.cmp(.label, .equals, "c")
        #expect(try Self.node("label == 'a' OR label == 'b' AND label == 'c'") == .or(a, .and(b, c)))
        #expect(try Self.node("label == 'a' AND label == 'b' OR label == 'c'") == .or(.and(a, b), c))
        #expect(try Self.node("(label == 'a' OR label == 'b') AND label == 'c'") == .and(.or(a, b), c))
        #expect(try Self.node("NOT label == 'a' AND label == 'b'") == .and(.not(a), b))
        #expect(try Self.node("!(label == 'a' || label == 'b') && label == 'c'") == .and(.not(.or(a, b)), c))
        #expect(try Self.node("label == 'a' and not label == 'b'") == .and(a, .not(b)), "keywords in any case")
        #expect(try Self.node("label == 'a' OR label == 'b' OR label == 'c'") == .or(.or(a, b), c), "left to right")
    }

    @Test(arguments: [
        ("exists == 1", "unsupported key 'exists' at column 1", "label, identifier, value, placeholderValue or elementType"),
        ("value < 3", "unsupported operator '<' at column 7", "use ==, !=, BEGINSWITH"),
        ("label IN {'a'}", "unsupported operator 'IN' at column 7", "use ==, !="),
        ("label ==[n] 'a'", "unsupported modifier '[n]' at column 9", "use [c], [d] or [cd]"),
        ("label == %@", "placeholder without an argument at column 10", "0 given"),
        ("label == 'a", "unterminated string at column 10", "add the closing '"),
        ("label == 'a' label == 'b'", "unexpected label at column 14", "join conditions with AND or OR"),
        ("(label == 'a'", "expected ) to close the ( at column 1, found the end of the format at column 14", ""),
        ("ANY label == 'a'", "unsupported ANY at column 1", ""),
        ("label.length == 3", "unsupported key path 'label.' at column 1", ""),
        ("value == nil", "unsupported nil at column 10", "compare with that"),
        ("elementType == 'gizmo'", "unknown element type \"gizmo\" at column 16", "use one of any, other, button"),
        ("elementType BEGINSWITH 'b'", "unsupported operator 'BEGINSWITH' for elementType at column 13", "use == or !="),
        ("'Save' == label", "expected a key, found \"Save\" at column 1", ""),
        ("label == %y", "unsupported placeholder '%y' at column 10", "use %@"),
        ("label ~ 'a'", "unexpected character '~' at column 7", ""),
        ("", "missing condition at column 1", ""),
        ("label ==", "missing value at column 9", ""),
        ("label AND", "unsupported operator 'AND' at column 7", ""),
    ])
    func refusalsNameThePartAndItsColumn(format: String, problem: String, hint: String) {
        #expect(throws: ElementPredicate.FormatError.self) { try ElementPredicate(format: format) }
        do {
            _ = try ElementPredicate(format: format)
        } catch {
            #expect(error.message.contains(problem), "\(error.message)")
            #expect(error.message.contains("of \"\(format)\""), "the message quotes the format: \(error.message)")
            #expect(hint.isEmpty || error.message.contains(hint), "\(error.message)")
            #expect(error.message.first?.isLowercase == true)
        }
    }

    @Test func extraArgumentsAreRefused() {
        #expect(throws: ElementPredicate.FormatError.self) { try ElementPredicate(format: "label == 'a'", "b") }
        #expect(throws: ElementPredicate.FormatError.self) { try ElementPredicate(format: "label == %@", argumentArray: [Date()]) }
    }

    @Test func swiftSpellingEqualsTheFormat() throws {
        let native = ElementPredicate.label(.beginsWith("Total", options: .caseInsensitive)) && !.identifier(.equals("x"))
        #expect(native == (try ElementPredicate(format: "label BEGINSWITH[c] 'Total' AND NOT identifier == 'x'")))
        #expect(ElementPredicate.elementType(.button) == (try ElementPredicate(format: "elementType == 'button'")))
    }

    @Test(arguments: [
        "label BEGINSWITH[c] \"Total\"", "label == \"a\" OR value == \"b\" AND identifier != \"c\"",
        "(label == \"a\" OR value == \"b\") AND NOT (identifier == \"c\" OR identifier == \"d\")",
        "NOT label MATCHES[cd] \"x\\\\d\"", "label == \"say \\\"hi\\\"\"", "TRUEPREDICATE",
    ])
    func descriptionParsesBackToTheSameTree(format: String) throws {
        let predicate = try ElementPredicate(format: format)
        #expect(try ElementPredicate(format: predicate.description) == predicate, "\(predicate)")
    }

    @Test func nsPredicateFormatIsParsedByRobotKit() throws {
        let predicate = ElementPredicate(NSPredicate(format: "label BEGINSWITH %@", "Total"))
        #expect(predicate == .label(.beginsWith("Total")))
        #expect(ElementPredicate(NSPredicate(format: "label == %@", argumentArray: ["a"])) == .label(.equals("a")))
        let refused = ElementPredicate(NSPredicate(format: "value < 3"))
        guard case .failure(let error) = refused.parsed else { Issue.record("a refused format parsed"); return }
        #expect(error.message.contains("unsupported operator '<' at column 7"))
        let block = ElementPredicate(NSPredicate { _, _ in true })
        #expect(block.description == #"<refused predicate "NSPredicate(block:)">"#)
        guard case .failure(let blockError) = block.parsed else { Issue.record("a block predicate parsed"); return }
        #expect(blockError.message.contains("a block predicate at column 1"))
    }

    @Test func aStepSendsItsPredicatesToThePage() throws {
        var step = QueryStep(type: .cell, identifier: nil)
        step.predicate = .label(.contains("Milk", options: .caseInsensitive))
        step.containing = [.init(type: .any, identifier: nil, predicate: .value(.equals("1")))]
        let json = step.json
        let predicate = try #require(json["where"] as? [String: Any])
        #expect(predicate["op"] as? String == "compare" && predicate["test"] as? String == "contains")
        #expect(predicate["c"] as? Bool == true && predicate["d"] as? Bool == false)
        let containing = try #require(json["containing"] as? [[String: Any]])
        #expect(containing.count == 1 && (containing[0]["where"] as? [String: Any])?["key"] as? String == "value")
        #expect(step.summary == #"Cells matching label CONTAINS[c] "Milk" containing Any matching value == "1""#)
        let refused = ElementPredicate(refusing: .init("unsupported key 'x'", column: 1, format: "x == 1"))
        #expect(refused.json["op"] as? String == "invalid")
        #expect((refused.json["message"] as? String)?.contains("unsupported key 'x' at column 1") == true)
    }

    @Test func aReplyRefusingTheQueryIsAnInvalidSelectorWithThePagesMessage() {
        let context = QueryReply.Context(operation: .count, waited: false)
        do {
            _ = try QueryReply.decode(["error": "unsupported key 'x' at column 1 of \"x == 1\"", "invalidQuery": true], context)
            Issue.record("a refusal decoded")
        } catch {
            #expect(error.webDriverCode == "invalid selector")
            #expect(error.message == "unsupported key 'x' at column 1 of \"x == 1\"")
        }
        #expect(throws: RobotKitError.pageScript("the page script failed: TypeError: boom")) {
            try QueryReply.decode(["error": "TypeError: boom"], context)
        }
    }
}
