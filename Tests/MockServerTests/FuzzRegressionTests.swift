import Foundation
import Testing
@testable import MockServer

/// Inputs found by fuzz/FuzzScenario (libFuzzer; see fuzz/README.md).
@Suite("Fuzz regressions")
struct FuzzRegressionTests {
    private func parse(_ yaml: String) throws -> Scenario {
        try ScenarioLoader.parse(yaml, file: URL(fileURLWithPath: "/tmp/scenario.yml"))
    }

    /// A YAML 1.1 base-60 integer too big for an Int trapped inside Yams (unchecked
    /// arithmetic) when read as `status`, `delay_ms` or a `json:` number.
    @Test("an overflowing base-60 integer is rejected or served as text, not a crash")
    func sexagesimalOverflow() throws {
        let huge = "1:1:1:1:1:1:1:1:1:1:1:1"  // 12 places: 60^11 overflows
        let status = #expect(throws: MockServerError.self) { try parse("routes:\n  - path: /a\n    status: \(huge)\n") }
        #expect(status?.message.contains("between 100 and 599") == true)
        #expect(status?.line == 3)
        let delay = #expect(throws: MockServerError.self) { try parse("routes:\n  - path: /a\n    delay_ms: -\(huge)\n") }
        #expect(delay?.key == "routes[0].delay_ms")
        let scenario = try parse("routes:\n  - path: /a\n    json: {big: \(huge), small: 1:30, digits: 9000000000000000000:00}\n")
        #expect(String(decoding: scenario.routes[0].response.body ?? Data(), as: UTF8.self)
                == #"{"big":"\#(huge)","small":90,"digits":"9000000000000000000:00"}"#)
    }

    /// "\r\n" is one Swift Character, equal to neither "\r" nor "\n", so the header
    /// cleaner let a CRLF in a scenario's header value through: it added a header line.
    @Test("a CRLF in a header value cannot add a header line")
    func headerCRLF() throws {
        let scenario = try parse(#"routes: [{path: /a, headers: {X-A: "a\r\nSet-Cookie: evil=1", "X-\r\nB": "\n\rb"}}]"# + "\n")
        let head = String(buffer: EncodedResponse(scenario.routes[0].response).bytes(keepAlive: true, http10: false, headOnly: true))
        #expect(head.contains("\r\nX-A: aSet-Cookie: evil=1\r\n"))
        #expect(head.contains("\r\nX-B: b\r\n"))
        #expect(!head.contains("\r\nSet-Cookie"))
        #expect(head.components(separatedBy: "\r\n").count == head.utf8.filter { $0 == 10 }.count + 1)
    }

    /// Yams composes recursively, one call per level: a few KB of "{{{{…" overflowed the
    /// stack (fuzz/FuzzScenario crash-a16f3415…, below as it was found).
    @Test("nesting deeper than YAMLDepth.limit is refused before Yams composes it")
    func deepNesting() throws {
        let found = try #require(Data(base64Encoded: Self.deepInput))
        let error = #expect(throws: MockServerError.self) { try parse(String(decoding: found, as: UTF8.self)) }
        #expect(error?.message.hasPrefix("nested more than 128 levels deep") == true, "\(error?.description ?? "")")
        let deep = #expect(throws: MockServerError.self) {
            try parse("routes:\n  - path: /a\n    json: " + String(repeating: "[", count: 100_000) + "\n")
        }
        #expect(deep?.line == 3)
        // 3 levels of scenario + 125 of JSON is the most there may be.
        let json = String(repeating: "[", count: 125) + "1" + String(repeating: "]", count: 125)
        let scenario = try parse("routes:\n  - path: /a\n    json: \(json)\n")
        #expect(String(decoding: scenario.routes[0].response.body ?? Data(), as: UTF8.self) == json)
        #expect(throws: MockServerError.self) { try parse("routes:\n  - path: /a\n    json: [\(json)]\n") }
    }

    static let deepInput = "e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3sgICCQkJCQkJBuLCB7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3sgICAgICAgX210ZXMKMywgYW6QkJCQkJCQkG4sIHt7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7eyAgICAgICBfbXRlcwozLCBhbpCQkJCQkJCQbiwge3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e25JdGVyYXRvcj5uLCBJdGVyLnSQkGFvcpCQkJCQkJCQbiwge3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7ICAgX210ZXMKMywgYW6QkJCQkJCQkG4sIHt7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e0l0ZXJhdG9yLm4sIEl0ZXJhdG9yLm4sIHt7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7ezMsIDB4MUYsZTF6M24sYSAubiBhbi5uejMsIGFuSXRlcmF0b3I+biwgSXRlci50kJBhb3KQkJCQkJCQkG4sIHt7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7eyAgIF9tdGVzCjMsIGFukJCQkJCQkJBuLCB7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7SXRlcmF0b3IubiwgSXRlcmF0b3Iubiwge3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7NiwgMHgxRixlMXozbixhIC5uIGFuLm56MywgYW5JdGVyYXRvci5uLCBJdGVyYXRvci6QkJCQkJCQkJCQbiwge3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e0l0ZXJhdG9yLm4sIEl0ZXJhdG9yLm4sIHt7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e5CQkJBuLCB7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7SXRlcmF0b3IubiwgSXRlcmF0b3Iubiwge3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7NiwgMHgxRixlMXozbixhIC5uIGFuLm56MywgYW5JdGVyYXRvci5uLCBJdGVyYXRvci6QkJCQkJCQkJCQbiwge3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7e3t7N3t7ezMsIDB4MUZuLm4sIH4sIiB+LCJdfQp5QU0gIC0gSW5+LCB5ZXMgIC0zLCAweDFGLHogKmEK"
}
