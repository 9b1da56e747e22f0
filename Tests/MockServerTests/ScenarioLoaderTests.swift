import Foundation
import Testing
@testable import MockServer

@Suite("Scenario loader")
struct ScenarioLoaderTests {
    /// The scenario of issue 4, exactly as written there.
    static let example = """
        routes:
          - method: GET
            path: /character
            json: {results: [{id: 1, name: Rick Sanchez, status: Alive}]}
          - method: GET
            pattern: /character/:id
            status: 404
            json: {error: Character not found}
          - prefix: /avatar/
            file: fixtures/avatar.png        # relative to the scenario file; never outside it
          - method: POST
            path: /login
            status: 401
            delay_ms: 150
            headers: {X-Reason: locked}
        default: {status: 404}
        """

    @Test("the issue's example loads and is served exactly as written")
    func example() async throws {
        let folder = try makeFolder(["fixtures/avatar.png": pngBytes, "scenario.yml": Data(Self.example.utf8)])
        defer { try? FileManager.default.removeItem(at: folder) }
        let scenario = try ScenarioLoader.load(contentsOf: folder.appendingPathComponent("scenario.yml"))
        #expect(scenario.routes.count == 4)
        #expect(scenario.routes.map(\.line) == [2, 5, 9, 11])

        let (server, _) = try await makeServer()
        await server.load(scenario)
        let port = await server.port

        let list = try await fetch(port, "GET", "/character")
        #expect(list.status == 200)
        #expect(list.text == #"{"results":[{"id":1,"name":"Rick Sanchez","status":"Alive"}]}"#)
        #expect(list.headers["content-type"] == "application/json; charset=utf-8")

        let detail = try await fetch(port, "GET", "/character/2")
        #expect(detail.status == 404)
        #expect(detail.text == #"{"error":"Character not found"}"#)

        let avatar = try await fetch(port, "GET", "/avatar/1.png")
        #expect(avatar.status == 200)
        #expect(avatar.body == pngBytes)
        #expect(avatar.headers["content-type"] == "image/png")

        let clock = ContinuousClock()
        var login: RawResponse?
        let elapsed = try await clock.measure { login = try await fetch(port, "POST", "/login", body: "{}") }
        #expect(login?.status == 401)
        #expect(login?.headers["x-reason"] == "locked")
        #expect(elapsed >= .milliseconds(150))

        let unmatched = try await fetch(port, "GET", "/location")
        #expect(unmatched.status == 404)
        #expect(await server.requests.last?.matchedRoute == nil)
        #expect(await server.didReceive(method: .GET, path: "/location"))
        await server.stop()
    }

    @Test("JSON values keep their types and key order; text, html, body and content_type work")
    func bodies() throws {
        let yaml = """
            routes:
              - path: /types
                json: {z: 1, a: 2.5, t: true, n: null, s: "42", list: [1, two], nested: {q: "x\\"y"}}
              - path: /text
                text: hello
              - path: /html
                html: <p>hi</p>
              - path: /raw
                body: raw bytes
                content_type: application/x-raw
            """
        let scenario = try ScenarioLoader.parse(yaml, file: URL(fileURLWithPath: "/tmp/s.yml"))
        let bodies = scenario.routes.map { String(decoding: $0.response.body ?? Data(), as: UTF8.self) }
        #expect(bodies[0] == #"{"z":1,"a":2.5,"t":true,"n":null,"s":"42","list":[1,"two"],"nested":{"q":"x\"y"}}"#)
        #expect(bodies[1] == "hello")
        #expect(scenario.routes[2].response.headers["Content-Type"] == "text/html; charset=utf-8")
        #expect(scenario.routes[3].response.headers["Content-Type"] == "application/x-raw")
        #expect(scenario.routes[0].method == nil)
    }

    @Test("mistakes are rejected with file, line and key", arguments: [
        ("routes:\n  - path: /a\n    stauts: 200\n", 3, "routes[0].stauts", "unknown key 'stauts'"),
        ("routes:\n  - path: /a\n    status: 999\n", 3, "routes[0].status", "between 100 and 599"),
        ("routes:\n  - method: GET\n", 2, "routes[0]", "exactly one of 'path', 'pattern' or 'prefix'"),
        ("routes:\n  - path: /a\n    prefix: /b\n", 2, "routes[0]", "found 'path' and 'prefix'"),
        ("routes:\n  - path: a\n", 2, "routes[0].path", "must start with '/'"),
        ("routes:\n  - method: FETCH\n    path: /a\n", 2, "routes[0].method", "unknown method 'FETCH'"),
        ("routes:\n  - path: /a\n    text: x\n    json: {}\n", 4, "routes[0].json", "only one of"),
        ("routes:\n  - path: /a\n    delay_ms: -5\n", 3, "routes[0].delay_ms", "milliseconds"),
        ("routes:\n  - path: /a\n    headers: [a, b]\n", 3, "routes[0].headers", "mapping of header names"),
        ("routes: /a\n", 1, "routes", "must be a list"),
        ("default: {status: 200, colour: red}\n", 1, "default.colour", "unknown key 'colour'"),
        ("- just a list\n", 1, nil, "must be a mapping with 'routes'"),
        ("routes:\n  - path: /a\n  status: [\n", 3, nil, "invalid YAML"),
        ("routes:\n  - path: /a\n    json: {x: .inf}\n", 3, "routes[0].json", "no JSON form"),
    ] as [(String, Int, String?, String)])
    func errors(yaml: String, line: Int, key: String?, message: String) throws {
        let error = #expect(throws: MockServerError.self) {
            try ScenarioLoader.parse(yaml, file: URL(fileURLWithPath: "/tmp/scenario.yml"))
        }
        #expect(error?.code == .invalidScenario)
        #expect(error?.file == "/tmp/scenario.yml")
        #expect(error?.line == line)
        #expect(error?.key == key)
        #expect(error?.message.contains(message) == true, "\(error?.description ?? "")")
        #expect(error?.description.hasPrefix("/tmp/scenario.yml:\(line): ") == true)
    }

    @Test("a file: that escapes the scenario's folder is refused", arguments: [
        "../secret.txt", "fixtures/../../secret.txt", "/etc/hostname", "link/secret.txt",
    ])
    func escapingFile(path: String) throws {
        let outside = try makeFolder(["secret.txt": Data("secret".utf8)])
        let folder = try makeFolder(["fixtures/ok.txt": Data("ok".utf8)])
        defer {
            try? FileManager.default.removeItem(at: folder)
            try? FileManager.default.removeItem(at: outside)
        }
        try FileManager.default.createSymbolicLink(at: folder.appendingPathComponent("link"), withDestinationURL: outside)
        let yaml = "routes:\n  - path: /a\n    file: \(path)\n"
        let error = #expect(throws: MockServerError.self) {
            try ScenarioLoader.parse(yaml, file: folder.appendingPathComponent("scenario.yml"))
        }
        #expect(error?.line == 3)
        #expect(error?.key == "routes[0].file")
        #expect(error?.message.contains("outside the scenario's folder") == true)
    }

    @Test("a missing file: and a missing scenario file are reported")
    func missingFiles() throws {
        let folder = try makeFolder([:])
        defer { try? FileManager.default.removeItem(at: folder) }
        let missingFixture = #expect(throws: MockServerError.self) {
            try ScenarioLoader.parse("routes:\n  - path: /a\n    file: nope.png\n", file: folder.appendingPathComponent("s.yml"))
        }
        #expect(missingFixture?.message.contains("cannot read 'nope.png'") == true)
        let missingScenario = #expect(throws: MockServerError.self) {
            try ScenarioLoader.load(contentsOf: folder.appendingPathComponent("absent.yml"))
        }
        #expect(missingScenario?.message.contains("no such scenario file") == true)
    }

    @Test("an empty file is an empty scenario")
    func empty() throws {
        let scenario = try ScenarioLoader.parse("", file: URL(fileURLWithPath: "/tmp/empty.yml"))
        #expect(scenario.routes.isEmpty)
        #expect(scenario.defaultResponse == nil)
    }
}
