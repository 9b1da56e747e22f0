import Foundation

/// Makes a kept WebKit session look new to the next launch, with what W3C WebDriver allows:
/// other windows closed, the page's origin's storage cleared in the page (local and session
/// storage, IndexedDB, Cache Storage, service workers), every cookie the page can see deleted
/// (`DELETE /cookie`, HttpOnly ones included), then `about:blank`.
///
/// WebDriver reaches storage only through a document of its origin, and going to another
/// origin to clear it would be a request the next test's mock server records. So a launch
/// that stayed on one origin is reset; one that RobotKit sent to a second origin (or that
/// ended on another) is not resettable, and its session is replaced instead (docs/browsers.md).
enum WebKitSessionReset {
    /// Resets `page`'s session, keeping `window` (the session's first window). Throws when the
    /// launch touched storage this cannot reach, or a command failed: the caller then replaces
    /// the session.
    static func reset(_ page: WebDriverPage, window: String) throws(RobotKitError) {
        let session = page.session
        for handle in try session.windowHandles(timeout: 10) where handle != window {
            try session.switchToWindow(handle)
            try session.command("DELETE", "window")
        }
        try session.switchToWindow(window)
        let current = try session.executeScript(clearScript, timeout: 10) as? String ?? "about:blank"
        try deleteCookies(session)
        let origins = page.navigatedOrigins.union(origin(of: current).map { [$0] } ?? [])
        if origins.count > 1 {
            throw .unsupported("the launch used \(origins.sorted().joined(separator: ", ")): WebDriver clears one origin's storage per document")
        }
        try session.navigate(to: "about:blank")
    }

    /// Every cookie of the page: W3C's "delete all cookies", then each one the server still
    /// lists by name (WPE 2.38 keeps a cookie of an IP host such as 127.0.0.1 through the
    /// first). A cookie the page still sees after both fails the reset: the session is replaced.
    private static func deleteCookies(_ session: WebDriverSession) throws(RobotKitError) {
        try session.command("DELETE", "cookie")
        let left = try session.command("GET", "cookie") as? [[String: Any]] ?? []
        for name in left.compactMap({ $0["name"] as? String }) {
            let escaped = name.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? name
            try session.command("DELETE", "cookie/\(escaped)")
        }
        let seen = try session.executeScript(expireScript, timeout: 10) as? String ?? ""
        if !seen.isEmpty { throw .unsupported("cookies outlived WebDriver's delete: \(seen)") }
    }

    /// Expires each cookie the document sees, on every path above the page, and answers what is left.
    static let expireScript = """
        const paths = location.pathname.split("/").map((_, i, parts) => parts.slice(0, i + 1).join("/") || "/");
        for (const pair of document.cookie.split(";")) {
            const name = pair.split("=")[0].trim();
            for (const path of paths) document.cookie = `${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=${path}`;
        }
        return document.cookie;
        """

    /// The origin a URL's storage belongs to (`file://` for every file); nil for `about:` and
    /// `data:` pages, which keep nothing.
    static func origin(of url: String) -> String? {
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased() else { return nil }
        switch scheme {
        case "file": return "file://"
        case "http", "https":
            let port = components.port.map { ":\($0)" } ?? ""
            return "\(scheme)://\(components.host ?? "")\(port)"
        default: return nil
        }
    }

    /// Clears the current document's origin and answers its URL. Each store is optional (an
    /// `about:blank` or `file:` document has no Cache Storage or service workers), and every
    /// deletion is awaited, so the next launch never sees one half done.
    static let clearScript = """
        const settle = (request) => new Promise((done) => {
            request.onsuccess = request.onerror = request.onblocked = () => done();
        });
        return (async () => {
            try { localStorage.clear(); } catch (e) {}
            try { sessionStorage.clear(); } catch (e) {}
            try {
                for (const db of await indexedDB.databases()) await settle(indexedDB.deleteDatabase(db.name));
            } catch (e) {}
            try { for (const key of await caches.keys()) await caches.delete(key); } catch (e) {}
            try {
                for (const r of await navigator.serviceWorker.getRegistrations()) await r.unregister();
            } catch (e) {}
            return location.href;
        })();
        """
}
