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

    /// `run` with the trace's page snapshot in the reply (`traceSnapshot`): `arguments[3]`
    /// says whether the trace already has one (then an unchanged page answers `unchanged`).
    static let runTraced = library + "\n" + TraceSnapshot.function + """

        const reply = RK.run(arguments[0], arguments[1], arguments[2]);
        if (reply && typeof reply === "object") {
            const snap = __robotciSnapshot(arguments[3] === true);
            reply.traceSnapshot = snap === null ? "\(TraceSnapshot.unchanged)" : snap;
        }
        return reply;
        """
    /// `wait` with the trace's page snapshot in the reply, taken when the wait ends.
    static let waitTraced = library + "\n" + TraceSnapshot.function + """

        const finish = arguments[arguments.length - 1], known = arguments[4] === true;
        RK.wait(arguments[0], arguments[1], arguments[2], arguments[3], (reply) => {
            if (reply && typeof reply === "object" && !reply.error) {
                try {
                    const snap = __robotciSnapshot(known);
                    reply.traceSnapshot = snap === null ? "\(TraceSnapshot.unchanged)" : snap;
                } catch (e) { /* the page went away: the step takes its own snapshot */ }
            }
            finish(reply);
        });
        """
}
