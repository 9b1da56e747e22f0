import Foundation
import HTTPClient

/// One element of the page, like `XCUIElement`: a query resolved afresh on every
/// access, so it follows the page as it changes.
///
/// Actions and waits take hidden `function`/`file`/`line` arguments: they name the
/// robot method that called them in `steps.json` and place failures on its line.
public final class WebElement: WebElementTypeQueryProvider, CustomDebugStringConvertible {
    let app: WebApp
    let chain: [QueryStep]

    init(app: WebApp, chain: [QueryStep]) {
        self.app = app
        self.chain = chain
    }

    var target: String { describe(chain) }

    // MARK: - State

    /// Whether a matching element is in the page's accessibility tree now.
    public var exists: Bool {
        app.read("read exists of", target, defaultValue: false) { engine throws(RobotKitError) in
            try engine.run(chain, op: .count).exists
        }
    }

    /// Whether a tap would reach the element (visible, not covered, not `pointer-events: none`).
    public var isHittable: Bool { probe()?.isHittable ?? false }
    /// The accessible name: `aria-label`, `aria-labelledby`, `<label>`, `alt`, text, `title`, `placeholder`.
    public var label: String { probe()?.label ?? "" }
    /// The value: field text, `"1"`/`"0"` for switches and radios, selected option, `aria-valuenow`.
    public var value: Any? { probe()?.value }
    /// `data-testid`, else `id`, else "".
    public var identifier: String { probe()?.identifier ?? "" }
    /// The `placeholder` attribute.
    public var placeholderValue: String? { probe().map(\.placeholder).flatMap { $0.isEmpty ? nil : $0 } }
    /// The `title` attribute.
    public var title: String { probe()?.title ?? "" }
    /// False for `disabled` controls and `aria-disabled="true"` subtrees.
    public var isEnabled: Bool { probe()?.isEnabled ?? false }
    /// `checked`, `selected`, `aria-selected/checked/pressed="true"`, `aria-current`.
    public var isSelected: Bool { probe()?.isSelected ?? false }
    /// Whether the element is `document.activeElement`.
    public var hasFocus: Bool { probe()?.hasFocus ?? false }
    /// The element's box in viewport coordinates (CSS pixels).
    public var frame: CGRect { probe()?.frame ?? .zero }
    /// The element's type as classified by RobotKit.
    public var elementType: ElementType { probe()?.type ?? .any }

    /// The element's subtree of the accessibility tree, as indented text.
    public var debugDescription: String {
        app.read("describe", target, defaultValue: "") { engine throws(RobotKitError) in
            let result = try engine.run(chain, op: .tree)
            return result.exists ? result.tree : "\(target): no matches found"
        }
    }

    // MARK: - Waiting

    /// Waits until the element exists; true when it does within `timeout` seconds.
    ///
    /// Once the test has halted at its first failure this returns true at once, without
    /// looking, so the robot's `XCTAssertTrue(x.waitForExistence(…))` lines that follow add
    /// no failures of their own (on Darwin the test method would have ended).
    public func waitForExistence(
        timeout: TimeInterval, function: String = #function, file: StaticString = #filePath, line: UInt = #line
    ) -> Bool {
        app.operation("wait for", target, defaultValue: app.recorder.isHalted, at: Caller(function: function, file: file, line: line)) {
            engine throws(RobotKitError) in
            try engine.wait(chain, appear: true, timeout: timeout, op: .count).satisfied
        }
    }

    /// Waits until the element no longer exists; true when it is gone within `timeout` seconds
    /// (true at once after the test halted, as ``waitForExistence(timeout:function:file:line:)``).
    public func waitForNonExistence(
        timeout: TimeInterval, function: String = #function, file: StaticString = #filePath, line: UInt = #line
    ) -> Bool {
        app.operation("wait for the disappearance of", target, defaultValue: app.recorder.isHalted,
                      at: Caller(function: function, file: file, line: line)) {
            engine throws(RobotKitError) in
            try engine.wait(chain, appear: false, timeout: timeout, op: .count).satisfied
        }
    }

    // MARK: - Actions

    /// Clicks the element's center with a real pointer (scrolled into view first), once it
    /// exists and nothing covers it (waiting up to `implicitWaitTimeout`).
    public func tap(function: String = #function, file: StaticString = #filePath, line: UInt = #line) {
        app.operation("tap", target, defaultValue: (), at: Caller(function: function, file: file, line: line)) {
            engine throws(RobotKitError) in
            try engine.tap(chain, timeout: app.implicitWaitTimeout)
        }
    }

    /// Two quick clicks (a `dblclick`), once the element exists and nothing covers it.
    public func doubleTap(function: String = #function, file: StaticString = #filePath, line: UInt = #line) {
        app.operation("double-tap", target, defaultValue: (), at: Caller(function: function, file: file, line: line)) {
            engine throws(RobotKitError) in
            try engine.tap(chain, timeout: app.implicitWaitTimeout, count: 2)
        }
    }

    /// Presses on the element's center for `duration` seconds, then releases.
    public func press(
        forDuration duration: TimeInterval, function: String = #function, file: StaticString = #filePath,
        line: UInt = #line
    ) {
        app.operation("press", target, defaultValue: (), at: Caller(function: function, file: file, line: line)) {
            engine throws(RobotKitError) in
            let point = try engine.point(chain, timeout: app.implicitWaitTimeout)
            try engine.driver.pointer([
                .move(x: point.x, y: point.y, duration: 0), .down(clickCount: 1), .pause(duration), .up(clickCount: 1),
            ])
        }
    }

    /// Types `text` into the element (focusing it first), key by key; `"\n"` presses Return.
    public func typeText(
        _ text: String, function: String = #function, file: StaticString = #filePath, line: UInt = #line
    ) {
        act("type into", function, file, line) { engine throws(RobotKitError) in
            try engine.driver.keys(KeyStroke.typing(text), modifiers: [])
        }
    }

    /// Selects the element's text and deletes it with Backspace, so the page sees real input events.
    public func clearText(function: String = #function, file: StaticString = #filePath, line: UInt = #line) {
        act("clear", function, file, line, op: .prepareClear) { engine throws(RobotKitError) in
            try engine.driver.keys([.backspace], modifiers: [])
            // A field that selects nothing (some input types): Backspace from the end, one a character.
            let remaining = try engine.run(chain, op: .probe).info?.value ?? ""
            if !remaining.isEmpty {
                try engine.focus(chain, timeout: 0)
                try engine.driver.keys(Array(repeating: .backspace, count: remaining.count), modifiers: [])
            }
        }
    }

    /// Scrolls the element's scroll container (or the page) down by most of its height, like a finger moving up.
    public func swipeUp(function: String = #function, file: StaticString = #filePath, line: UInt = #line) {
        swipe(.up, function, file, line)
    }

    /// Scrolls up by most of the container's height.
    public func swipeDown(function: String = #function, file: StaticString = #filePath, line: UInt = #line) {
        swipe(.down, function, file, line)
    }

    /// Scrolls right by most of the container's width.
    public func swipeLeft(function: String = #function, file: StaticString = #filePath, line: UInt = #line) {
        swipe(.left, function, file, line)
    }

    /// Scrolls left by most of the container's width.
    public func swipeRight(function: String = #function, file: StaticString = #filePath, line: UInt = #line) {
        swipe(.right, function, file, line)
    }

    // MARK: - Queries

    /// This element's query narrowed to its first match (no uniqueness check).
    public var firstMatch: WebElement {
        guard !chain.isEmpty else { return self }
        var chain = self.chain
        chain[chain.count - 1].selection = .first
        return WebElement(app: app, chain: chain)
    }

    public func descendants(matching type: ElementType) -> WebElementQuery {
        WebElementQuery(app: app, chain: chain + [QueryStep(type: type, identifier: nil)])
    }

    public func children(matching type: ElementType) -> WebElementQuery {
        WebElementQuery(app: app, chain: chain + [QueryStep(type: type, identifier: nil, scope: .children)])
    }

    /// The first descendant of any type with `identifier`, or `nil`.
    public func find(id identifier: String) -> WebElement? {
        let element = descendants(matching: .any).matching(identifier: identifier).firstMatch
        return element.exists ? element : nil
    }

    // MARK: - Internals

    /// The element's attributes, read as one step named after the property read (`#function`
    /// in a getter is the property's name).
    private func probe(_ property: String = #function) -> ElementInfo? {
        app.read("read \(property) of", target, defaultValue: nil) { engine throws(RobotKitError) in
            try engine.run(chain, op: .probe).info
        }
    }

    /// A keyboard action: the element focused (waiting up to `implicitWaitTimeout` for it), then `body`.
    private func act(
        _ verb: String, _ function: String, _ file: StaticString, _ line: UInt, op: QueryOperation = .focus,
        _ body: (Engine) throws(RobotKitError) -> Void
    ) {
        app.operation(verb, target, defaultValue: (), at: Caller(function: function, file: file, line: line)) {
            engine throws(RobotKitError) in
            try engine.focus(chain, timeout: app.implicitWaitTimeout, op: op)
            try body(engine)
        }
    }

    private func swipe(_ direction: QueryOperation.ScrollDirection, _ function: String, _ file: StaticString, _ line: UInt) {
        app.operation("swipe \(direction.rawValue) on", target, defaultValue: (), at: Caller(function: function, file: file, line: line)) {
            engine throws(RobotKitError) in
            if chain.isEmpty {
                _ = try engine.run(chain, op: .scroll(direction))
                return
            }
            let result = try engine.wait(chain, appear: true, timeout: app.implicitWaitTimeout, op: .count)
            guard result.exists else {
                throw .webDriver(code: "no such element", "no matches found for \(target)")
            }
            _ = try engine.run(chain, op: .scroll(direction))
        }
    }
}
