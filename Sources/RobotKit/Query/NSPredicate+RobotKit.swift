import Foundation

/// XCUITest's spelling, `NSPredicate(format: "label BEGINSWITH %@", "Total")`, on Linux.
///
/// swift-corelibs-foundation marks `NSPredicate(format:)` unavailable (it has no predicate
/// parser), so these initializers with the same signatures are the ones a file importing
/// RobotKit gets. They parse with `ElementPredicate` at once and keep the result inside a
/// block predicate (an `NSPredicate` has no room of its own, and an extension cannot add
/// stored properties); `WebElementQuery.matching(_:)` reads it back out with `evaluate(with:)`.
/// Such a predicate is for element queries: evaluated with anything else, it is false.
extension NSPredicate {
    public convenience init(format predicateFormat: String, _ args: any CVarArg...) {
        self.init(parsing: predicateFormat, args)
    }

    public convenience init(format predicateFormat: String, argumentArray arguments: [Any]?) {
        self.init(parsing: predicateFormat, arguments ?? [])
    }

    private convenience init(parsing format: String, _ arguments: [Any]) {
        let predicate: ElementPredicate
        do throws(ElementPredicate.FormatError) {
            predicate = try ElementPredicate(format: format, argumentArray: arguments)
        } catch {
            predicate = ElementPredicate(refusing: error)
        }
        self.init { object, _ in
            (object as? PredicateExtraction)?.found = predicate
            return false
        }
    }
}

/// The probe `ElementPredicate(_: NSPredicate)` evaluates a predicate with to get its tree.
/// Used by one thread at a time, inside one call.
private final class PredicateExtraction: @unchecked Sendable {
    var found: ElementPredicate?
}

extension ElementPredicate {
    /// The predicate an `NSPredicate(format:)` made with RobotKit holds; a block predicate of
    /// the test's own is refused (its Swift closure cannot run in the page).
    public init(_ predicate: NSPredicate) {
        let extraction = PredicateExtraction()
        _ = predicate.evaluate(with: extraction)
        self = extraction.found ?? ElementPredicate(
            refusing: .init(
                "a block predicate", column: 1, hint: "queries run in the page: use NSPredicate(format:) or ElementPredicate",
                format: "NSPredicate(block:)"))
    }
}
