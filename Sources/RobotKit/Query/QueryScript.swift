/// The page-side half of RobotKit: one JavaScript library (`robotkit-page/query.js`, embedded
/// as `QueryScript.library`) that resolves a query chain (type + identifier, scoped by earlier
/// matches) and performs an operation on the result, so each element access costs one
/// WebDriver round trip.
///
/// An identifier matches `data-testid`, then `id`, then the accessible name; the
/// first tier with any match wins. Each element has exactly one type (first rule
/// that applies: explicit ARIA role, then HTML element, then scrollability, then
/// text). Elements that are hidden, `aria-hidden`, or inside a leaf control
/// (button, link, field, image, …) are not part of the tree, as in XCUITest.
enum QueryScript {
    /// `run(spec, op, argument)`: synchronous.
    static let run = library + "\nreturn RK.run(arguments[0], arguments[1], arguments[2]);"
    /// `wait(spec, mode, timeoutMs, op, done)`: asynchronous, resolves on a DOM change or the deadline.
    /// `mode` is `appear`, `disappear` or `actionable` (present and not covered at its center).
    static let wait =
        library + "\nRK.wait(arguments[0], arguments[1], arguments[2], arguments[3], arguments[arguments.length - 1]);"
}
