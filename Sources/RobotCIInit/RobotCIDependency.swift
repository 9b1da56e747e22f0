import Foundation

/// Where the generated package finds robotci: the `.package(…)` line of its Package.swift.
public enum RobotCIDependency: Equatable, Sendable {
    /// A robotci checkout on disk, as a path relative to the team's package when possible.
    case path(String)
    /// A git URL, resolved from `version` up to the next major version.
    case url(String, version: String)

    /// Where robotci is published; the default of `--robotci`. Forks pass `--robotci URL`.
    public static let publishedURL = "https://github.com/robotci/robotci"

    /// Reads `--robotci`: a URL (has `://`, or `git@host:`) or a local folder, checked to be a
    /// robotci checkout so a typo fails here and not in the first `swift build`.
    public static func parse(_ text: String?, version: String, packageDirectory: URL, currentDirectory: URL) throws -> RobotCIDependency {
        guard let text, !text.isEmpty else { return .url(publishedURL, version: version) }
        if text.contains("://") || text.hasPrefix("git@") { return .url(text, version: version) }
        let folder = URL(fileURLWithPath: text, relativeTo: currentDirectory).standardizedFileURL
        let manifest = folder.appendingPathComponent("Package.swift")
        guard let contents = try? String(contentsOf: manifest, encoding: .utf8), contents.contains("\"RobotKit\"") else {
            throw InitError.notRobotCI(folder.path)
        }
        return .path(relativePath(from: packageDirectory.standardizedFileURL, to: folder))
    }

    /// SwiftPM's identity of the dependency, which `.product(name:package:)` names.
    var packageIdentity: String {
        switch self {
        case .path: return "robotci"  // pinned with `name:` because a path's identity is its last folder name
        case .url(let url, _):
            var last = url.split(separator: "/").last.map(String.init) ?? "robotci"
            if last.hasSuffix(".git") { last.removeLast(4) }
            return last.split(separator: ":").last.map(String.init) ?? last
        }
    }

    /// The line for `dependencies: [ … ]`.
    var packageLine: String {
        switch self {
        case .path(let path): return ".package(name: \"robotci\", path: \(SwiftLiteral.string(path)))"
        case .url(let url, let version): return ".package(url: \(SwiftLiteral.string(url)), from: \(SwiftLiteral.string(version)))"
        }
    }

    /// `to` relative to `from` (`../robotci`), or absolute when they share only `/`:
    /// a relative path keeps working when both folders move together (a monorepo, CI).
    static func relativePath(from: URL, to: URL) -> String {
        let a = from.pathComponents, b = to.pathComponents
        var common = 0
        while common < min(a.count, b.count), a[common] == b[common] { common += 1 }
        if common <= 1 { return to.path }
        let ups = Array(repeating: "..", count: a.count - common)
        let rest = Array(b[common...])
        let joined = (ups + rest).joined(separator: "/")
        return joined.isEmpty ? "." : joined
    }
}

/// Quoting for values written into generated Swift source.
enum SwiftLiteral {
    static func string(_ value: String) -> String {
        var out = "\""
        for ch in value {
            switch ch {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case "\n": out += "\\n"
            default: out.append(ch)
            }
        }
        return out + "\""
    }
}
