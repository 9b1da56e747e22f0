import Foundation

/// One link of a query chain: "descendants (or children) of the previous matches
/// of this type, with this identifier", optionally narrowed to one element.
struct QueryStep: Sendable, Equatable {
    enum Scope: String, Sendable { case descendants, children }

    enum Selection: Sendable, Equatable {
        /// `query[id]` / `query.element`: one match expected.
        case unique
        /// `firstMatch`.
        case first
        /// `element(boundBy:)`.
        case index(Int)
    }

    /// "Having a descendant of this type (with this identifier) that satisfies this predicate":
    /// XCUITest's `containing(_:identifier:)` and `containing(_:)`.
    struct Containing: Sendable, Equatable {
        var type: WebElement.ElementType
        var identifier: String?
        var predicate: ElementPredicate?
    }

    var type: WebElement.ElementType
    var identifier: String?
    var scope: Scope = .descendants
    /// What every match satisfies (`matching(_:)`; several calls are joined with AND).
    var predicate: ElementPredicate?
    /// Each holds for every match (several `containing` calls narrow in turn, as in XCUITest).
    var containing: [Containing] = []
    var selection: Selection?
    /// The element the accessibility audit marked (`data-robotkit-audit`): an issue's element
    /// that no identifier alone finds.
    var mark: String?

    /// The JSON the page script reads.
    var json: [String: Any] {
        var object: [String: Any] = ["type": type.rawValue, "scope": scope.rawValue]
        object["id"] = identifier as Any? ?? NSNull()
        if let predicate { object["where"] = predicate.json }
        if let mark { object["mark"] = mark }
        if !containing.isEmpty {
            object["containing"] = containing.map { inner in
                var json: [String: Any] = ["type": inner.type.rawValue, "id": inner.identifier as Any? ?? NSNull()]
                if let predicate = inner.predicate { json["where"] = predicate.json }
                return json
            }
        }
        switch selection {
        case nil: break
        case .unique?: object["select"] = ["mode": "unique"]
        case .first?: object["select"] = ["mode": "first"]
        case .index(let index)?: object["select"] = ["mode": "index", "index": index]
        }
        return object
    }

    /// `Button "save"`, `Cells`, `Cell at index 2`, `first Button`, ….
    var summary: String {
        let name = type == .any ? "Element" : type.displayName
        var text: String
        switch selection {
        case nil: text = "\(name)s"
        case .unique?: text = name
        case .first?: text = "first \(name)"
        case .index(let index)?: text = "\(name) at index \(index)"
        }
        if let identifier { text += " \"\(identifier)\"" }
        if let mark { text += " (accessibility audit mark \(mark))" }
        if let predicate { text += " matching \(predicate)" }
        for inner in containing {
            text += " containing \(inner.type.displayName)"
            if let identifier = inner.identifier { text += " \"\(identifier)\"" }
            if let predicate = inner.predicate { text += " matching \(predicate)" }
        }
        return text
    }
}

/// Describes a chain the way XCUITest failure messages do: innermost first.
func describe(_ chain: [QueryStep]) -> String {
    guard let last = chain.last else { return "Application" }
    let parents = chain.dropLast().reversed().map(\.summary)
    return ([last.summary] + parents).joined(separator: " in ")
}
