/// The accessibility audit's page script (`robotkit-page/audit.js`, embedded as
/// `AuditScript.library`), installed in a document only when an audit first runs there:
/// tests that never audit never send it. It reads the page through the query library's element
/// model (`RK.inspect`), so the two are installed together and an issue's element is one a
/// query finds.
enum AuditScript {
    /// The global the installer defines, named after a hash of the script, so a page never
    /// calls an audit of another version.
    static let installedName = "__robotkit_audit_" + QueryScript.fnv1a(library)

    /// Defines `installedName` (read-only, not enumerable) unless the document has it.
    static let install = """
        (() => {
        if (globalThis.\(installedName)) return;
        \(library)
        Object.defineProperty(globalThis, "\(installedName)", { value: Object.freeze(RKAudit) });
        })();
        """

    /// The calls on the audit: functions of `(k, a, args)`, `k` the query library
    /// (`{ RK, snapshot }`), `a` the audit and `args` the arguments.
    enum Call {
        /// `run(RK, types)`: `{ issues: [...] }`.
        static let run = "(k, a, args) => a.run(k.RK, args[0])"
        /// `outline(entries)`: draws a numbered box around each marked element.
        static let outline = "(k, a, args) => a.outline(args[0])"
        /// `clear()`: removes the outlines.
        static let clear = "(k, a, args) => a.clear()"
    }

    /// The expression that applies `call` to both installed libraries and `arguments` (JSON):
    /// `QueryScript.missing` in a document without them, unless `install` puts them there first.
    static func expression(_ call: String, _ arguments: [Any], install: Bool) throws(RobotKitError) -> String {
        let json = try PageScript.json(arguments)
        let applied = "((f, k, a, args) => k && a ? f(k, a, args) : \"\(QueryScript.missing)\")"
            + "(\(call), globalThis.\(QueryScript.installedName), globalThis.\(installedName), \(json))"
        return install ? QueryScript.install + "\n" + Self.install + "\n" + applied : applied
    }
}

extension Engine {
    /// `call` (an `AuditScript.Call`) on the audit installed in the page, installing it (and
    /// the query library) first in a document that has none.
    func audit(_ call: String, _ arguments: [Any]) throws(RobotKitError) -> Any? {
        let value = try driver.evaluate(AuditScript.expression(call, arguments, install: false), awaitPromise: false, timeout: nil)
        guard value as? String == QueryScript.missing else { return value }
        return try driver.evaluate(AuditScript.expression(call, arguments, install: true), awaitPromise: false, timeout: nil)
    }
}
