import Foundation

extension WebElement {
    /// Waits until the element's attribute at `keyPath` equals `expectedValue`, as Xcode 15's
    /// `XCUIElement.wait(for:toEqual:timeout:)`; true when it does within `timeout` seconds.
    /// The wait runs in the page (it wakes on every change of the document), so however long
    /// it waits it is one round trip and one trace step, which records what was expected, what
    /// was last seen and how long it took. Attributes: `label`, `identifier`, `title`,
    /// `placeholderValue`, `isEnabled`, `isSelected`, `isHittable`, `hasFocus`, `exists`;
    /// `value` has its own overload (its type is `Any?`).
    @discardableResult
    public func wait<V: Equatable>(
        for keyPath: KeyPath<WebElement, V>, toEqual expectedValue: V, timeout: TimeInterval,
        function: String = #function, file: StaticString = #filePath, line: UInt = #line
    ) -> Bool {
        guard let attribute = Self.attributeNames[keyPath] else {
            app.operation("wait for", target, defaultValue: (), at: Caller(function: function, file: file, line: line)) {
                _ throws(RobotKitError) in
                throw .webDriver(code: "invalid argument",
                                 "RobotKit waits in the page for \(Self.attributeNames.values.sorted().joined(separator: ", ")); "
                                    + "this key path is none of them (poll it with app.wait(until:timeout:))")
            }
            return false
        }
        return waitInPage(attribute, expected: expectedValue, timeout: timeout, at: Caller(function: function, file: file, line: line))
    }

    /// Waits until the element's `value` (a field's text, a switch's `"1"`/`"0"`, a picker's
    /// selection) equals `expectedValue`; one step, as the other attribute waits.
    @discardableResult
    public func wait(
        for keyPath: KeyPath<WebElement, Any?>, toEqual expectedValue: String, timeout: TimeInterval,
        function: String = #function, file: StaticString = #filePath, line: UInt = #line
    ) -> Bool {
        waitInPage("value", expected: expectedValue, timeout: timeout, at: Caller(function: function, file: file, line: line))
    }

    /// The page script's names of the attributes a wait can compare. Key paths to read-only
    /// properties of a final class: nothing in them changes.
    nonisolated(unsafe) private static let attributeNames: [PartialKeyPath<WebElement>: String] = [
        \WebElement.label: "label", \WebElement.identifier: "identifier", \WebElement.title: "title",
        \WebElement.placeholderValue: "placeholderValue", \WebElement.isEnabled: "isEnabled",
        \WebElement.isSelected: "isSelected", \WebElement.isHittable: "isHittable", \WebElement.hasFocus: "hasFocus",
        \WebElement.exists: "exists",
    ]

    func waitInPage<V>(
        _ attribute: String, expected: V, timeout: TimeInterval, at caller: Caller
    ) -> Bool {
        let shown = Self.json(expected)
        var outcome: (satisfied: Bool, seen: String, seconds: Double)?
        let describe = { () -> [String] in
            guard let outcome else { return ["expected \(shown)"] }
            return ["expected \(shown)", "last seen \(outcome.seen)",
                    String(format: outcome.satisfied ? "after %.2f s" : "timed out after %.2f s", outcome.seconds)]
        }
        let satisfied = app.operation(
            "wait for \(attribute) == \(shown) of", target, defaultValue: app.recorder.isHalted, at: caller,
            arguments: describe
        ) { engine throws(RobotKitError) in
            let started = Date()
            let reply = try engine.wait(chain, until: .equals(attribute: attribute, expected: expected as Any),
                                        timeout: timeout, op: .count)
            outcome = (reply.satisfied, reply.seen ?? "null", Date().timeIntervalSince(started))
            return reply.satisfied
        }
        return satisfied
    }

    /// A value as JSON text, for the trace (`"1 item left"`, `true`, `3`).
    static func json<V>(_ value: V) -> String {
        (try? PageScript.json([value as Any])).map { String($0.dropFirst().dropLast()) } ?? "\(value)"
    }
}

extension WebElementQuery {
    /// Waits until the query's `count` equals `expectedValue` (the only attribute a query has);
    /// one step in the page, as an element's waits.
    @discardableResult
    public func wait(
        for keyPath: KeyPath<WebElementQuery, Int>, toEqual expectedValue: Int, timeout: TimeInterval,
        function: String = #function, file: StaticString = #filePath, line: UInt = #line
    ) -> Bool {
        WebElement(app: app, chain: chain)
            .waitInPage("count", expected: expectedValue, timeout: timeout, at: Caller(function: function, file: file, line: line))
    }
}
