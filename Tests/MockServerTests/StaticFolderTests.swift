import Foundation
import Testing
@testable import MockServer

/// `serveFolder`: which path leads to which file, that none leads outside the folder, and
/// the route served over loopback.
@Suite("Static folder")
struct StaticFolderTests {
    /// A built app with a sibling secret beside it (what `..` would reach) and a symlink out.
    static func makeApp() throws -> (app: URL, outside: URL) {
        let parent = try makeFolder([
            "app/index.html": Data("<h1>home</h1>".utf8),
            "app/assets/main.js": Data("console.log(1)".utf8),
            "app/assets/style.css": Data("h1{}".utf8),
            "app/docs/index.html": Data("docs".utf8),
            "app/empty/.keep": Data(),
            "app/a b.txt": Data("spaced".utf8),
            "secret.txt": Data("secret".utf8),
        ])
        TestFolders.removeAtExit(parent)
        let app = parent.appendingPathComponent("app")
        try FileManager.default.createSymbolicLink(
            atPath: app.appendingPathComponent("leak.txt").path, withDestinationPath: parent.appendingPathComponent("secret.txt").path)
        try FileManager.default.createSymbolicLink(atPath: app.appendingPathComponent("up").path, withDestinationPath: parent.path)
        try FileManager.default.createSymbolicLink(
            atPath: app.appendingPathComponent("inner.js").path, withDestinationPath: app.appendingPathComponent("assets/main.js").path)
        return (app, parent)
    }

    static func real(_ url: URL, _ path: String) -> String {
        (StaticFolder.realPath(url.path) ?? url.path) + path
    }

    @Test("files, index.html for / and folders, a redirect to a folder's slash")
    func lookups() throws {
        let (app, _) = try Self.makeApp()
        let folder = StaticFolder(folder: app, prefix: "/", spaFallback: false)
        #expect(folder.lookup("/") == .file(Self.real(app, "/index.html")))
        #expect(folder.lookup("/assets/main.js") == .file(Self.real(app, "/assets/main.js")))
        #expect(folder.lookup("/docs/") == .file(Self.real(app, "/docs/index.html")))
        #expect(folder.lookup("/docs") == .redirect("/docs/"))
        #expect(folder.lookup("/a%20b.txt") == .file(Self.real(app, "/a b.txt")))
        #expect(folder.lookup("//assets//main.js") == .file(Self.real(app, "/assets/main.js")), "empty segments are no root")
        #expect(folder.lookup("/inner.js") == .file(Self.real(app, "/assets/main.js")), "a symlink inside the folder is fine")
        #expect(folder.lookup("/missing.js") == .notFound)
        #expect(folder.lookup("/empty/") == .notFound, "a folder without index.html")
        #expect(folder.lookup("/todos/42") == .notFound, "no fallback unless asked")
    }

    @Test("no path leaves the folder", arguments: [
        "/../secret.txt", "/assets/../../secret.txt", "/%2e%2e/secret.txt", "/%2E%2E/secret.txt", "/.%2e/secret.txt",
        "/..%2fsecret.txt", "/..%2Fsecret.txt", "/assets%2f..%2f..%2fsecret.txt", "/..%5csecret.txt", "/..\\secret.txt",
        "/index.html%00.js", "/%00", "/%zz", "/./index.html", "/leak.txt", "/up/secret.txt",
    ])
    func refusals(path: String) throws {
        let (app, _) = try Self.makeApp()
        for spaFallback in [false, true] {
            let lookup = StaticFolder(folder: app, prefix: "/", spaFallback: spaFallback).lookup(path)
            guard case .refused = lookup else {
                Issue.record("\(path) (spaFallback: \(spaFallback)) gave \(lookup)")
                continue
            }
        }
    }

    @Test("the single-page-app fallback answers client-side routes, not missing files")
    func spaFallback() throws {
        let (app, _) = try Self.makeApp()
        let folder = StaticFolder(folder: app, prefix: "/", spaFallback: true)
        #expect(folder.lookup("/todos/42") == .file(Self.real(app, "/index.html")))
        #expect(folder.lookup("/empty/") == .file(Self.real(app, "/index.html")))
        #expect(folder.lookup("/missing.js") == .notFound)
        #expect(folder.lookup("/assets/missing.css") == .notFound)
    }

    @Test("a prefix mounts the folder below it")
    func prefix() throws {
        let (app, _) = try Self.makeApp()
        let folder = StaticFolder(folder: app, prefix: "app", spaFallback: false)
        #expect(folder.prefix == "/app/")
        #expect(folder.pattern == .prefix("/app"))
        #expect(folder.lookup("/app/assets/main.js") == .file(Self.real(app, "/assets/main.js")))
        #expect(folder.lookup("/app") == .redirect("/app/"))
        #expect(folder.lookup("/app/") == .file(Self.real(app, "/index.html")))
        guard case .refused = folder.lookup("/application") else { Issue.record("/application is not under /app/"); return }
    }

    @Test("content types by extension")
    func contentTypes() {
        let expected = [
            "a.html": "text/html; charset=utf-8", "a.js": "text/javascript; charset=utf-8", "a.mjs": "text/javascript; charset=utf-8",
            "a.css": "text/css; charset=utf-8", "a.json": "application/json; charset=utf-8", "a.svg": "image/svg+xml",
            "a.png": "image/png", "a.JPG": "image/jpeg", "a.jpeg": "image/jpeg", "a.gif": "image/gif", "a.webp": "image/webp",
            "a.ico": "image/x-icon", "a.woff": "font/woff", "a.woff2": "font/woff2", "a.txt": "text/plain; charset=utf-8",
            "a.js.map": "application/json; charset=utf-8", "a.wasm": "application/wasm", "LICENSE": "application/octet-stream",
        ]
        for (name, type) in expected {
            #expect(MediaType.forExtension(of: name) == type, "\(name)")
        }
    }
}
