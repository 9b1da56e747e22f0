import Foundation

/// Predicate queries, XCUITest's `matching(_:)`, `containing(_:)` and `element(matching:)`,
/// evaluated in the page (see `ElementPredicate`). A format RobotKit refuses fails the
/// query where it is used, with the refused part and its column in the message.
extension WebElementQuery {
    /// The matches that satisfy `predicate`: `staticTexts.matching(.label(.beginsWith("Total")))`.
    public func matching(_ predicate: ElementPredicate) -> WebElementQuery {
        narrowed { step in step.predicate = step.predicate.map { $0 && predicate } ?? predicate }
    }

    /// The matches that satisfy `predicate`, as XCUITest writes it:
    /// `matching(NSPredicate(format: "label BEGINSWITH %@", "Total"))`.
    public func matching(_ predicate: NSPredicate) -> WebElementQuery {
        matching(ElementPredicate(predicate))
    }

    /// The matches with a descendant (of any type) that satisfies `predicate`.
    public func containing(_ predicate: ElementPredicate) -> WebElementQuery {
        narrowed { $0.containing.append(.init(type: .any, identifier: nil, predicate: predicate)) }
    }

    /// The matches with a descendant (of any type) that satisfies `predicate`, as XCUITest writes it.
    public func containing(_ predicate: NSPredicate) -> WebElementQuery {
        containing(ElementPredicate(predicate))
    }

    /// The single match that satisfies `predicate`.
    public func element(matching predicate: ElementPredicate) -> WebElement {
        matching(predicate).element
    }

    /// The single match that satisfies `predicate`, as XCUITest writes it.
    public func element(matching predicate: NSPredicate) -> WebElement {
        matching(predicate).element
    }
}
