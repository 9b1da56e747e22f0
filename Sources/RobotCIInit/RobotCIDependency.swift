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
        // It goes into Package.swift, a YAML workflow and its shell lines: a line break there
        // could add a step, so what cannot be written as it is is refused, not rewritten.
        if text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control || $0 == "\u{2028}" || $0 == "\u{2029}" }) {
            throw InitError.unsafeRobotCI(text, "it holds a control character (a line break, tab or NUL)")
        }
        if text.contains("://") || text.hasPrefix("git@") {
            let dependency = RobotCIDependency.url(text, version: version)
            let identity = dependency.packageIdentity
            guard !identity.isEmpty, identity.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "-_.".unicodeScalars.contains($0)) }),
                  !text.contains(where: \.isWhitespace)
            else {
                throw InitError.unsafeRobotCI(text, "its last path part '\(identity)' is not a package name SwiftPM can use "
                    + "(letters, digits, '-', '_', '.'), or it holds a space")
            }
            return dependency
        }
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
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\0": out += "\\0"
            default:
                // Other control characters (and the Unicode line separators) as escapes: a raw
                // one could end the literal's line or hide what the source says.
                if scalar.properties.generalCategory == .control || scalar == "\u{2028}" || scalar == "\u{2029}" {
                    out += "\\u{\(String(scalar.value, radix: 16))}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}

/// Quoting for values written into generated shell lines (the workflow's `run:` steps).
enum ShellWord {
    /// `value` as one POSIX shell word: single-quoted, each `'` written as `'\''`.
    static func quoted(_ value: String) -> String {
        "'" + value.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}

/// Quoting for values written into generated YAML.
enum YAMLScalar {
    /// `value` as a single-quoted YAML scalar (`'` doubled); no line breaks, as `parse` ensures.
    static func quoted(_ value: String) -> String {
        "'" + value.replacingOccurrences(of: "'", with: "''") + "'"
    }
}
