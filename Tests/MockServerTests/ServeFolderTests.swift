import Foundation
import Testing
@testable import MockServer

/// `serveFolder` and a scenario's `folders:` over loopback, with raw requests (a client
/// would normalize `..` away before sending it).
@Suite("Serve folder")
struct ServeFolderTests {
    @Test("files with their content types, index.html, redirects and 404s, journaled")
    func servesAFolder() async throws {
        let (app, _) = try StaticFolderTests.makeApp()
        let (server, _) = try await makeServer()
        try await server.serveFolder(app)
        let port = await server.port

        let home = try await fetch(port, "GET", "/")
        #expect(home.status == 200 && home.text == "<h1>home</h1>")
        #expect(home.headers["content-type"] == "text/html; charset=utf-8")
        let script = try await fetch(port, "GET", "/assets/main.js")
        #expect(script.text == "console.log(1)" && script.headers["content-type"] == "text/javascript; charset=utf-8")
        #expect(try await fetch(port, "GET", "/assets/style.css").headers["content-type"] == "text/css; charset=utf-8")
        let redirect = try await fetch(port, "GET", "/docs?x=1")
        #expect(redirect.status == 301 && redirect.headers["location"] == "/docs/?x=1")
        #expect(try await fetch(port, "GET", "/docs/").text == "docs")
        #expect(try await fetch(port, "HEAD", "/assets/main.js").status == 200)
        #expect(try await fetch(port, "GET", "/missing.js").status == 404)
        #expect(try await fetch(port, "GET", "/todos/1").status == 404)
        #expect(try await fetch(port, "POST", "/index.html").status == 404, "a folder answers GET and HEAD only")
        #expect(await server.didReceive(method: .GET, path: "/assets/main.js"), "served files are journaled like other requests")
        await server.stop()
    }

    @Test("no request reads outside the folder", arguments: [
        "/../secret.txt", "/%2e%2e/secret.txt", "/..%2fsecret.txt", "/assets/%2e%2e/%2e%2e/secret.txt",
        "/leak.txt", "/up/secret.txt", "/index.html%00", "/..%5csecret.txt",
    ])
    func traversal(path: String) async throws {
        let (app, _) = try StaticFolderTests.makeApp()
        let (server, _) = try await makeServer()
        try await server.serveFolder(app, spaFallback: true)
        let response = try await fetch(await server.port, "GET", path)
        #expect(response.status == 404 || response.status == 400, "\(path): \(response.status)")
        #expect(!response.text.contains("secret") || response.text.hasPrefix("refused:"), "\(path): \(response.text)")
        #expect(response.text != "secret")
        await server.stop()
    }

    @Test("routes win over the folder whatever the order; the folder wins over a catch-all where it has a file")
    func priority() async throws {
        let (app, _) = try StaticFolderTests.makeApp()
        let (server, _) = try await makeServer()
        await server.registerPrefix(.GET, "/api/") { _ in .json(#"{"items":[]}"#) }
        await server.register(.GET, "/assets/main.js") { _ in .text("exact") }
        try await server.serveFolder(app, spaFallback: true)
        await server.registerCatchAll { _ in .text("catch-all") }
        let port = await server.port
        #expect(try await fetch(port, "GET", "/api/items").text == #"{"items":[]}"#)
        #expect(try await fetch(port, "GET", "/assets/main.js").text == "exact")
        #expect(try await fetch(port, "GET", "/todos/3").text == "<h1>home</h1>", "the single-page app's route")
        #expect(try await fetch(port, "GET", "/nope.css").text == "catch-all", "no file: the catch-all answers")
        #expect(try await fetch(port, "GET", "/").text == "<h1>home</h1>", "a file: the folder answers")
        await server.stop()
    }

    @Test("without a catch-all, a path the folder has nothing at is a 404")
    func missingWithoutCatchAll() async throws {
        let (app, _) = try StaticFolderTests.makeApp()
        let (server, _) = try await makeServer()
        try await server.serveFolder(app)
        let port = await server.port
        #expect(try await fetch(port, "GET", "/nope.css").status == 404)
        #expect(try await fetch(port, "GET", "/%2e%2e/secret.txt").status == 404, "a refusal stays the folder's")
        await server.stop()
    }

    @Test("a folder under a prefix, and a folder that is not one")
    func prefixAndMissingFolder() async throws {
        let (app, parent) = try StaticFolderTests.makeApp()
        let (server, _) = try await makeServer()
        try await server.serveFolder(app, at: "/app/")
        let port = await server.port
        #expect(try await fetch(port, "GET", "/app/assets/main.js").text == "console.log(1)")
        #expect(try await fetch(port, "GET", "/app").headers["location"] == "/app/")
        #expect(try await fetch(port, "GET", "/assets/main.js").status == 404)
        let error = await #expect(throws: MockServerError.self) {
            try await server.serveFolder(parent.appendingPathComponent("secret.txt"))
        }
        #expect(error?.message.contains("is not a folder") == true)
        await server.stop()
    }

    @Test("a scenario's folders: are served, relative to the scenario file")
    func scenarioFolders() async throws {
        let (app, parent) = try StaticFolderTests.makeApp()
        let yaml = """
            folders:
              - path: app
                spa_fallback: true
            routes:
              - path: /api/ping
                text: pong
            """
        let scenario = try ScenarioLoader.parse(yaml, file: parent.appendingPathComponent("scenario.yml"))
        #expect(scenario.folders == [Scenario.Folder(url: app.standardizedFileURL, prefix: "/", spaFallback: true)])
        let (server, _) = try await makeServer()
        await server.load(scenario)
        let port = await server.port
        #expect(try await fetch(port, "GET", "/").text == "<h1>home</h1>")
        #expect(try await fetch(port, "GET", "/list/7").text == "<h1>home</h1>")
        #expect(try await fetch(port, "GET", "/api/ping").text == "pong")
        await server.stop()
    }

    @Test("a scenario's folder must exist and its keys be known", arguments: [
        ("folders:\n  - path: nowhere\n", 2, "folders[0].path", "is not a folder"),
        ("folders:\n  - at: /app/\n", 2, "folders[0]", "a folder needs 'path'"),
        ("folders:\n  - path: .\n    at: app\n", 3, "folders[0].at", "must start with '/'"),
        ("folders:\n  - path: .\n    spa_fallback: maybe\n", 3, "folders[0].spa_fallback", "must be true or false"),
        ("folders:\n  - path: .\n    root: x\n", 3, "folders[0].root", "unknown key 'root'"),
        ("folders: app\n", 1, "folders", "must be a list of folders"),
    ] as [(String, Int, String, String)])
    func scenarioErrors(yaml: String, line: Int, key: String, message: String) throws {
        let error = #expect(throws: MockServerError.self) {
            try ScenarioLoader.parse(yaml, file: URL(fileURLWithPath: "/tmp/scenario.yml"))
        }
        #expect(error?.line == line)
        #expect(error?.key == key)
        #expect(error?.message.contains(message) == true, "\(error?.description ?? "")")
    }
}
