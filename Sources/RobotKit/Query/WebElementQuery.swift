import Foundation

/// A lazily evaluated set of elements, like `XCUIElementQuery`: nothing touches
/// the page until you ask for `count` or act on an element taken from it.
public final class WebElementQuery: WebElementTypeQueryProvider, CustomDebugStringConvertible {
    let app: WebApp
    let chain: [QueryStep]

    init(app: WebApp, chain: [QueryStep]) {
        self.app = app
        self.chain = chain
    }

    /// The single element whose identifier (`data-testid`, then `id`, then accessible name) is `identifier`.
    public subscript(identifier: String) -> WebElement {
        element(selecting: .unique, identifier: identifier)
    }

    /// The only element of the query (acting on it fails when there are several).
    public var element: WebElement { element(selecting: .unique, identifier: nil) }

    /// The first match, without checking that it is the only one.
    public var firstMatch: WebElement { element(selecting: .first, identifier: nil) }

    /// The match at `index`, in document order.
    public func element(boundBy index: Int) -> WebElement { element(selecting: .index(index), identifier: nil) }

    /// The single match of `type` with `identifier`, among this query's matches.
    public func element(matching type: WebElement.ElementType, identifier: String?) -> WebElement {
        matching(type, identifier: identifier).element
    }

    /// The matches whose identifier is `identifier`.
    public func matching(identifier: String) -> WebElementQuery {
        narrowed { $0.identifier = identifier }
    }

    /// The matches that are also of `type` (and have `identifier`, when given).
    public func matching(_ type: WebElement.ElementType, identifier: String?) -> WebElementQuery {
        narrowed { step in
            if step.type == .any { step.type = type }
            if let identifier { step.identifier = identifier }
        }
    }

    /// The matches that have a descendant of `type` (with `identifier`, when given).
    public func containing(_ type: WebElement.ElementType, identifier: String?) -> WebElementQuery {
        narrowed { $0.containing.append(.init(type: type, identifier: identifier)) }
    }

    /// How many elements match now.
    public var count: Int {
        app.read("count", describe(chain), defaultValue: 0) { engine throws(RobotKitError) in
            try engine.run(chain, op: .count).count
        }
    }

    /// One element per current match, each bound to its index.
    public var allElementsBoundByIndex: [WebElement] {
        (0..<count).map { element(boundBy: $0) }
    }

    public func descendants(matching type: WebElement.ElementType) -> WebElementQuery {
        WebElementQuery(app: app, chain: chain + [QueryStep(type: type, identifier: nil)])
    }

    public func children(matching type: WebElement.ElementType) -> WebElementQuery {
        WebElementQuery(app: app, chain: chain + [QueryStep(type: type, identifier: nil, scope: .children)])
    }

    /// What this query matches, for messages: `Buttons in NavigationBars`.
    public var debugDescription: String { describe(chain) }

    private func element(selecting selection: QueryStep.Selection, identifier: String?) -> WebElement {
        var chain = self.chain
        if let identifier { chain[chain.count - 1].identifier = identifier }
        chain[chain.count - 1].selection = selection
        return WebElement(app: app, chain: chain)
    }

    func narrowed(_ change: (inout QueryStep) -> Void) -> WebElementQuery {
        var chain = self.chain
        change(&chain[chain.count - 1])
        return WebElementQuery(app: app, chain: chain)
    }
}
