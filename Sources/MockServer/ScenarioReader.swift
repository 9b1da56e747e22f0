import Foundation
@preconcurrency import Yams

/// The checks behind ``ScenarioLoader``, one method per level of the file.
struct ScenarioReader {
    static let routeKeys = ["method", "path", "pattern", "prefix"] + responseKeys
    static let responseKeys = ["status", "json", "text", "html", "body", "file", "content_type", "headers", "delay_ms"]
    static let bodyKeys = ["json", "text", "html", "body", "file"]
    static let folderKeys = ["path", "at", "spa_fallback"]

    let file: URL
    let folder: URL

    init(file: URL) {
        self.file = file
        self.folder = file.deletingLastPathComponent()
    }

    func scenario(from root: Node) throws -> Scenario {
        let top = try mapping(root, key: nil, allowed: ["routes", "folders", "default"])
        var scenario = Scenario()
        if let routes = top["routes"] {
            guard case .sequence(let list) = routes else {
                throw error("must be a list of routes (lines starting with '- ')", at: routes, key: "routes")
            }
            scenario.routes = try list.enumerated().map { index, node in
                try route(from: node, key: "routes[\(index)]")
            }
        }
        if let folders = top["folders"] {
            guard case .sequence(let list) = folders else {
                throw error("must be a list of folders (lines starting with '- ')", at: folders, key: "folders")
            }
            scenario.folders = try list.enumerated().map { index, node in
                try folder(from: node, key: "folders[\(index)]")
            }
        }
        if let fallback = top["default"] {
            let fields = try mapping(fallback, key: "default", allowed: Self.responseKeys)
            scenario.defaultResponse = try response(from: fields, key: "default")
        }
        return scenario
    }

    private func route(from node: Node, key: String) throws -> Scenario.Route {
        let fields = try mapping(node, key: key, allowed: Self.routeKeys)
        let method = try fields["method"].map { try self.method(from: $0, key: "\(key).method") }
        let matchers = ["path", "pattern", "prefix"].filter { fields[$0] != nil }
        guard matchers.count == 1, let matcher = matchers.first, let value = fields[matcher] else {
            let found = matchers.isEmpty ? "none" : matchers.map { "'\($0)'" }.joined(separator: " and ")
            throw error("a route needs exactly one of 'path', 'pattern' or 'prefix' (found \(found))", at: node, key: key)
        }
        let text = try string(value, key: "\(key).\(matcher)")
        guard text.hasPrefix("/") else {
            throw error("must start with '/', got '\(text)'", at: value, key: "\(key).\(matcher)")
        }
        let pattern: RoutePattern = switch matcher {
        case "pattern": .parameterized(text)
        case "prefix": .prefix(text)
        default: .exact(text)
        }
        return Scenario.Route(
            method: method, pattern: pattern, response: try response(from: fields, key: key), line: line(of: node))
    }

    /// A served folder: `path` relative to the scenario's folder (a built app usually lives
    /// elsewhere in the repository, so it may lie outside it), `at` its prefix.
    private func folder(from node: Node, key: String) throws -> Scenario.Folder {
        let fields = try mapping(node, key: key, allowed: Self.folderKeys)
        guard let pathNode = fields["path"] else {
            throw error("a folder needs 'path', the built app's folder relative to this file", at: node, key: key)
        }
        let relative = try string(pathNode, key: "\(key).path")
        let url = URL(fileURLWithPath: relative, relativeTo: folder).standardizedFileURL
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw error("'\(relative)' (\(url.path)) is not a folder; build the app first or fix the path", at: pathNode, key: "\(key).path")
        }
        var prefix = "/"
        if let at = fields["at"] {
            prefix = try string(at, key: "\(key).at")
            guard prefix.hasPrefix("/") else { throw error("must start with '/', got '\(prefix)'", at: at, key: "\(key).at") }
        }
        var spaFallback = false
        if let flag = fields["spa_fallback"] {
            guard let value = flag.bool else {
                throw error("must be true or false, got '\(flag.string ?? "?")'", at: flag, key: "\(key).spa_fallback")
            }
            spaFallback = value
        }
        return Scenario.Folder(url: url, prefix: prefix, spaFallback: spaFallback)
    }

    private func response(from fields: [String: Node], key: String) throws -> MockResponse {
        var response = MockResponse()
        if let status = fields["status"] {
            guard let code = status.checkedInt, (100...599).contains(code) else {
                throw error("must be a status code between 100 and 599, got '\(status.string ?? "?")'", at: status, key: "\(key).status")
            }
            response.status = HTTPStatus(code: code)
        }
        // In file order, so the error points at the second body key the author wrote.
        let bodies = Self.bodyKeys.filter { fields[$0] != nil }
            .sorted { (line(of: fields[$0]) ?? 0) < (line(of: fields[$1]) ?? 0) }
        if bodies.count > 1 {
            throw error(
                "a response takes only one of 'json', 'text', 'html', 'body' or 'file' (found \(bodies.map { "'\($0)'" }.joined(separator: " and ")))",
                at: fields[bodies[1]], key: "\(key).\(bodies[1])")
        }
        if let body = bodies.first, let node = fields[body] {
            let (data, contentType) = try content(body, node, key: "\(key).\(body)")
            response.body = data
            response.headers["Content-Type"] = contentType
        }
        if let contentType = fields["content_type"] {
            response.headers["Content-Type"] = try string(contentType, key: "\(key).content_type")
        }
        if let headers = fields["headers"] {
            for (name, value) in try headerPairs(headers, key: "\(key).headers") {
                response = response.withHeaders([name: value])
            }
        }
        if let delay = fields["delay_ms"] {
            guard let milliseconds = delay.checkedInt, milliseconds >= 0 else {
                throw error("must be a whole number of milliseconds, 0 or more, got '\(delay.string ?? "?")'", at: delay, key: "\(key).delay_ms")
            }
            response.delay = .milliseconds(milliseconds)
        }
        return response
    }

    private func content(_ kind: String, _ node: Node, key: String) throws -> (Data, String) {
        switch kind {
        case "json":
            do {
                return (try YAMLToJSON.encode(node), MediaType.json)
            } catch let problem as YAMLToJSON.Unrepresentable {
                throw error(problem.problem, line: problem.line ?? line(of: node), key: key)
            }
        case "text": return (Data(try string(node, key: key).utf8), MediaType.text)
        case "html": return (Data(try string(node, key: key).utf8), MediaType.html)
        case "body": return (Data(try string(node, key: key).utf8), MediaType.octetStream)
        default: return try fixture(node, key: key)
        }
    }

    /// Reads a `file:` fixture, refusing paths that leave the scenario's folder.
    private func fixture(_ node: Node, key: String) throws -> (Data, String) {
        let relative = try string(node, key: key)
        let root = folder.standardizedFileURL.resolvingSymlinksInPath().path
        let target = URL(fileURLWithPath: relative, relativeTo: folder).standardizedFileURL.resolvingSymlinksInPath()
        guard target.path.hasPrefix(root.hasSuffix("/") ? root : root + "/") else {
            throw error(
                "'\(relative)' resolves to \(target.path), outside the scenario's folder \(root); keep fixtures next to the scenario",
                at: node, key: key)
        }
        guard let data = FileManager.default.contents(atPath: target.path) else {
            throw error("cannot read '\(relative)' (looked at \(target.path)); check the path, relative to the scenario file", at: node, key: key)
        }
        return (data, MediaType.forFile(named: target.lastPathComponent, contents: data))
    }

    private func method(from node: Node, key: String) throws -> HTTPMethod {
        let text = try string(node, key: key)
        guard let method = HTTPMethod(rawValue: text), HTTPMethod.known.contains(method) else {
            let names = HTTPMethod.known.map(\.rawValue).joined(separator: ", ")
            throw error("unknown method '\(text)'; use one of \(names), or leave 'method' out to answer any", at: node, key: key)
        }
        return method
    }

    private func headerPairs(_ node: Node, key: String) throws -> [(String, String)] {
        guard case .mapping(let mapping) = node else {
            throw error("must be a mapping of header names to values, like {X-Reason: locked}", at: node, key: key)
        }
        return try mapping.map { pair in
            let name = try string(pair.key, key: key)
            return (name, try string(pair.value, key: "\(key).\(name)"))
        }
    }

    /// The fields of a mapping, checked against `allowed` and for duplicates.
    private func mapping(_ node: Node, key: String?, allowed: [String]) throws -> [String: Node] {
        guard case .mapping(let mapping) = node else {
            let what = key == nil
                ? "a scenario must be a mapping with 'routes' and optionally 'default'"
                : "must be a mapping of keys to values"
            throw error(what, at: node, key: key)
        }
        var fields: [String: Node] = [:]
        for pair in mapping {
            let name = pair.key.string ?? ""
            let path = key.map { "\($0).\(name)" } ?? name
            guard allowed.contains(name) else {
                throw error("unknown key '\(name)'; expected one of \(allowed.joined(separator: ", "))", at: pair.key, key: path)
            }
            guard fields[name] == nil else {
                throw error("'\(name)' is given twice", at: pair.key, key: path)
            }
            fields[name] = pair.value
        }
        return fields
    }

    private func string(_ node: Node, key: String) throws -> String {
        guard case .scalar(let scalar) = node else {
            throw error("must be a single value, not a list or mapping", at: node, key: key)
        }
        return scalar.string
    }

    private func line(of node: Node?) -> Int? {
        node?.mark?.line
    }

    private func error(_ message: String, at node: Node?, key: String?) -> MockServerError {
        error(message, line: line(of: node), key: key)
    }

    private func error(_ message: String, line: Int?, key: String?) -> MockServerError {
        .invalidScenario(message, file: file.path, line: line, key: key)
    }

    func syntaxError(_ error: YamlError) -> MockServerError {
        switch error {
        case .scanner(_, let problem, let mark, _), .parser(_, let problem, let mark, _),
             .composer(_, let problem, let mark, _):
            return self.error("invalid YAML: \(problem)", line: mark.line, key: nil)
        default:
            return self.error("invalid YAML: \(error)", line: nil, key: nil)
        }
    }
}
