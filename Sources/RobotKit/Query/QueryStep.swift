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

    var type: WebElement.ElementType
    var identifier: String?
    var scope: Scope = .descendants
    var containing: (type: WebElement.ElementType, identifier: String?)?
    var selection: Selection?

    static func == (lhs: QueryStep, rhs: QueryStep) -> Bool {
        lhs.type == rhs.type && lhs.identifier == rhs.identifier && lhs.scope == rhs.scope
            && lhs.containing?.type == rhs.containing?.type
            && lhs.containing?.identifier == rhs.containing?.identifier && lhs.selection == rhs.selection
    }

    /// The JSON the page script reads.
    var json: [String: Any] {
        var object: [String: Any] = ["type": type.rawValue, "scope": scope.rawValue]
        object["id"] = identifier as Any? ?? NSNull()
        if let containing {
            object["containing"] = ["type": containing.type.rawValue, "id": containing.identifier as Any? ?? NSNull()]
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
        if let containing {
            text += " containing \(containing.type.displayName)"
            if let identifier = containing.identifier { text += " \"\(identifier)\"" }
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
