import Foundation

/// The page-side half of RobotKit: one JavaScript library (`robotkit-page/query.js`, embedded
/// as `QueryScript.library`) that resolves a query chain (type + identifier, scoped by earlier
/// matches) and performs an operation on the result, so each element access costs one
/// round trip through the page's engine.
///
/// Every query calls the library installed in the page (`installedName`) by a short
/// expression (`Call`, `expression`), the library's size less per query than sending it
/// along. A document without it (a new page, a navigation) answers `missing`, and the same
/// call is sent again with the installer in front.
///
/// An identifier matches `data-testid`, then `id`, then the accessible name; the
/// first tier with any match wins. Each element has exactly one type (first rule
/// that applies: explicit ARIA role, then HTML element, then scrollability, then
/// text). Elements that are hidden, `aria-hidden`, or inside a leaf control
/// (button, link, field, image, …) are not part of the tree, as in XCUITest.
enum QueryScript {
    /// The global the installer defines: `{ RK, snapshot }`, named after a hash of the two
    /// scripts, so a page never calls a library of another version.
    static let installedName = "__robotkit_" + fnv1a(library + TraceSnapshot.function)

    /// What a call answers in a document where the library is not installed.
    static let missing = "__robotkit_missing"

    /// Defines `installedName` (read-only, not enumerable) unless the document has it.
    static let install = """
        (() => {
        if (globalThis.\(installedName)) return;
        \(library)
        \(TraceSnapshot.function)
        Object.defineProperty(globalThis, "\(installedName)", { value: Object.freeze({ RK, snapshot: __robotciSnapshot }) });
        })();
        """

    /// The calls on the library: functions of `(k, a)`, `k` the library (`{ RK, snapshot }`)
    /// and `a` the arguments.
    enum Call {
        /// `run(spec, op, argument)`.
        static let run = "(k, a) => k.RK.run(a[0], a[1], a[2])"
        /// `run` with the trace's snapshot: `a[3]` says whether the trace has one.
        static let runTraced = """
            (k, a) => { const reply = k.RK.run(a[0], a[1], a[2]);
              if (reply && typeof reply === "object") {
                const snap = k.snapshot(a[3] === true);
                reply.traceSnapshot = snap === null ? "\(TraceSnapshot.unchanged)" : snap;
              }
              return reply; }
            """
        /// `wait(spec, mode, timeoutMs, op)`, a promise of the reply.
        static let wait = "(k, a) => new Promise((done) => k.RK.wait(a[0], a[1], a[2], a[3], done))"
        /// `wait` with the trace's snapshot taken when it ends: `a[4]` says whether the trace has one.
        static let waitTraced = """
            (k, a) => new Promise((finish) => k.RK.wait(a[0], a[1], a[2], a[3], (reply) => {
              if (reply && typeof reply === "object" && !reply.error) {
                try {
                  const snap = k.snapshot(a[4] === true);
                  reply.traceSnapshot = snap === null ? "\(TraceSnapshot.unchanged)" : snap;
                } catch (e) { /* the page went away: the step takes its own snapshot */ }
              }
              finish(reply);
            }))
            """
        /// The trace's page snapshot alone: `a[0]` says whether the trace has one.
        static let snapshot = "(k, a) => k.snapshot(a[0] === true)"
    }

    /// The expression that applies `call` to the installed library and `arguments` (JSON):
    /// `missing` in a document without the library, unless `install` puts it there first.
    static func expression(_ call: String, _ arguments: [Any], install: Bool) throws(RobotKitError) -> String {
        let json = try PageScript.json(arguments)
        let applied = "((f, k, a) => k ? f(k, a) : \"\(missing)\")(\(call), globalThis.\(installedName), \(json))"
        return install ? Self.install + "\n" + applied : applied
    }

    /// 64-bit FNV-1a of `text`'s UTF-8, in hex: a stable name, not a secret.
    static func fnv1a(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        return String(hash, radix: 16)
    }
}
