// Fuzzes ScenarioLoader/ScenarioReader (Yams), what `robotci mock --scenario FILE` runs,
// and the pre-encoding of each loaded response (EncodedResponse), which is what a
// scenario's values end up as on the wire.
//
// Invariants beyond "no crash": nesting past YAMLDepth.limit and aliases past YAMLAliases.budget
// are refused for that reason; a rejected file is an `invalidScenario` error naming the
// file, with a line inside it when there is one; a loaded route has a line and a path
// starting with "/" and a status in 100...599; any YAML value YAMLToJSON takes (what
// `json:` serves) comes out as valid JSON; and every
// encoded response head is well-formed HTTP/1.1 (no line break smuggled in by a header).
import Foundation
import FuzzSupport
@testable import MockServer
@preconcurrency import Yams

/// A scenario folder with fixtures, so `file:` values can succeed.
private let folder: URL = {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("robotci-fuzz-scenario-\(getpid())")
    try? FileManager.default.createDirectory(at: url.appendingPathComponent("fixtures"), withIntermediateDirectories: true)
    _ = FileManager.default.createFile(atPath: url.appendingPathComponent("fixtures/avatar.png").path,
                                   contents: Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
    _ = FileManager.default.createFile(atPath: url.appendingPathComponent("fixtures/a.json").path, contents: Data("{}".utf8))
    atexit { try? FileManager.default.removeItem(at: folder) }
    return url
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzScenario(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let yaml = String(decoding: bytes(data, size), as: UTF8.self)
    let file = folder.appendingPathComponent("scenario.yml")
    // libyaml's line breaks: LF, CR, CRLF, NEL, LS, PS. An error may point one past the end.
    let lastLine = yaml.unicodeScalars.filter { ["\n", "\r", "\u{85}", "\u{2028}", "\u{2029}"].contains($0) }.count + 2
    // Too deep for Yams' recursive composer: the loader must refuse it before composing.
    let tooDeep = YAMLDepth.lineTooDeep(yaml) != nil
    // Aliases that expand past the budget (a billion laughs): refused before anything walks them.
    let aliasBomb = !tooDeep && YAMLAliases.lineOverBudget(yaml) != nil
    if !tooDeep && !aliasBomb { checkJSON(yaml) }
    let scenario: Scenario
    do {
        scenario = try ScenarioLoader.parse(yaml, file: file)
        require(!tooDeep, "a scenario nested more than \(YAMLDepth.limit) levels deep was loaded")
        require(!aliasBomb, "a scenario whose aliases expand past \(YAMLAliases.budget) nodes was loaded")
    } catch let error as MockServerError {
        if tooDeep { require(error.message.hasPrefix("nested more than"), "a too deep scenario failed otherwise: \(error)") }
        if aliasBomb { require(error.message.contains("alias bomb"), "an alias bomb failed otherwise: \(error)") }
        require(error.code == .invalidScenario, "error code \(error.code)")
        require(error.file == file.path, "error names \(error.file ?? "no file")")
        if let line = error.line { require((1...lastLine).contains(line), "error line \(line) of \(lastLine - 1): \(error)") }
        require(!error.message.isEmpty, "empty error message")
        return 0
    } catch {
        require(false, "unexpected error type \(type(of: error)): \(error)")
        return 0
    }

    for route in scenario.routes {
        if let line = route.line { require((1...lastLine).contains(line), "route line \(line) of \(lastLine - 1)") }
        switch route.pattern {
        case .exact(let p), .parameterized(let p), .prefix(let p):
            require(p.hasPrefix("/"), "route path \(p.debugDescription)")
        case .catchAll:
            require(false, "a scenario route became a catch-all")
        }
        check(route.response)
    }
    if let fallback = scenario.defaultResponse { check(fallback) }
    return 0
}

/// What `json:` serves: any YAML value that YAMLToJSON accepts must come out as valid JSON.
private func checkJSON(_ yaml: String) {
    guard let root = try? Yams.compose(yaml: yaml), let json = try? YAMLToJSON.encode(root) else { return }
    // Foundation refuses very deep nesting; only bodies with few brackets are checked.
    guard json.filter({ $0 == UInt8(ascii: "[") || $0 == UInt8(ascii: "{") }).count < 256 else { return }
    require((try? JSONSerialization.jsonObject(with: json, options: [.fragmentsAllowed])) != nil,
            "YAMLToJSON wrote invalid JSON: \(String(decoding: json, as: UTF8.self))")
}

private func check(_ response: MockResponse) {
    require((100...599).contains(response.status.code), "status \(response.status.code)")
    // The header lines there may be: CORS's, the response's own (line breaks dropped),
    // Content-Length and Connection. A line starting otherwise was smuggled in by a value.
    let names = CORS.headerNames + ["Content-Length", "Connection"]
        + response.headers.keys.map { String(String.UnicodeScalarView($0.unicodeScalars.filter { $0 != "\r" && $0 != "\n" })) }
    let prefixes = names.map { Array("\($0): ".utf8) }
    let encoded = EncodedResponse(response)
    let variants: [(keepAlive: Bool, http10: Bool, origin: String?)] = [
        (true, false, nil), (true, true, nil), (false, false, nil), (true, false, "null"),
    ]
    for (keepAlive, http10, origin) in variants {
        let head = encoded.bytes(keepAlive: keepAlive, http10: http10, headOnly: true, allowOrigin: origin)
        let full = encoded.bytes(keepAlive: keepAlive, http10: http10, headOnly: false, allowOrigin: origin)
        require(full.readableBytes == head.readableBytes + (response.body?.count ?? 0), "body length")
        let text = Array(head.readableBytesView)
        require(text.count >= 4 && Array(text.suffix(4)) == Array("\r\n\r\n".utf8), "head does not end with an empty line")
        let lines = text.dropLast(4).split(separator: 13, omittingEmptySubsequences: false)
        for (index, raw) in lines.enumerated() {
            // Every CR must be followed by LF, and no LF may stand alone: one header, one line.
            var line = raw[...]
            if index > 0 {
                require(line.first == 10, "a CR not followed by LF in the head: \(String(decoding: text, as: UTF8.self).debugDescription)")
                line = line.dropFirst()
            }
            require(!line.contains(10), "a bare LF in the head: \(String(decoding: text, as: UTF8.self).debugDescription)")
            require(!line.isEmpty, "an empty line inside the head: \(String(decoding: text, as: UTF8.self).debugDescription)")
            if index == 0 {
                require(line.starts(with: Array("HTTP/1.1 ".utf8)), "status line")
            } else {
                require(prefixes.contains { line.starts(with: $0) },
                        "a header line no header wrote: \(String(decoding: line, as: UTF8.self).debugDescription) in \(String(decoding: text, as: UTF8.self).debugDescription)")
            }
        }
    }
}
