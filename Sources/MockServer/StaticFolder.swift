import Foundation

/// A folder served under a path prefix: a built web app's files (`serveFolder`).
///
/// The request path is decoded segment by segment and every segment that could leave the
/// folder is refused before the file system is asked anything: `..` and `.`, encoded
/// slashes and backslashes (`%2F`, `%5C`), NUL, invalid percent-encoding. The file found is
/// then resolved with realpath(3) and must still lie inside the folder's own real path, so a
/// symlink pointing outside is refused too. Refused and missing paths are both a 404.
struct StaticFolder: Sendable {
    /// Where a request path leads.
    enum Lookup: Equatable {
        /// This file's bytes (`index.html` for a folder).
        case file(String)
        /// A folder asked for without its trailing slash: relative links in its
        /// `index.html` only resolve against `path/`.
        case redirect(String)
        case notFound
        /// The path tries to leave the folder or cannot be a file name; why, for the body.
        case refused(String)
    }

    /// The folder as given, for messages.
    let folder: URL
    /// `/` or `/app/`: always starts and ends with a slash.
    let prefix: String
    let spaFallback: Bool
    /// The folder's real path (symlinks resolved), or nil when it does not exist.
    private let root: String?

    init(folder: URL, prefix: String, spaFallback: Bool) {
        self.folder = folder
        self.prefix = Self.normalized(prefix: prefix)
        self.spaFallback = spaFallback
        root = Self.realPath(folder.path)
    }

    /// `app` → `/app/`, `/` stays.
    static func normalized(prefix: String) -> String {
        let rooted = prefix.hasPrefix("/") ? prefix : "/" + prefix
        return rooted.hasSuffix("/") ? rooted : rooted + "/"
    }

    /// The folder route's pattern: the prefix (a mount at `/app/` also takes `/app`).
    var pattern: RoutePattern { .prefix(prefix == "/" ? "/" : String(prefix.dropLast())) }

    func lookup(_ path: String) -> Lookup {
        guard let root else { return .refused("the folder \(folder.path) does not exist") }
        let segments: [String]
        switch Self.segments(of: path, under: prefix) {
        case .success(let found): segments = found
        case .failure(let refusal): return .refused(refusal.reason)
        }
        let candidate = segments.reduce(root) { $0 + "/" + $1 }
        guard let real = Self.realPath(candidate) else { return fallback(for: segments, root: root) }
        guard Self.isInside(real, root: root) else { return .refused("\(path) leads outside the served folder") }
        guard Self.isDirectory(real) else { return .file(real) }
        if !path.hasSuffix("/") { return .redirect(path + "/") }
        guard let index = Self.realPath(real + "/index.html"), Self.isInside(index, root: root), !Self.isDirectory(index) else {
            return fallback(for: segments, root: root)
        }
        return .file(index)
    }

    /// The single-page app's `index.html` for a path that names no file (no extension in
    /// its last segment: a client-side route), else 404.
    private func fallback(for segments: [String], root: String) -> Lookup {
        let last = segments.last ?? ""
        guard spaFallback, !last.contains("."), let index = Self.realPath(root + "/index.html"), Self.isInside(index, root: root)
        else { return .notFound }
        return .file(index)
    }

    struct Refusal: Error, Equatable {
        let reason: String
    }

    /// The decoded segments of `path` below `prefix`, or why they cannot name a file inside it.
    static func segments(of path: String, under prefix: String) -> Result<[String], Refusal> {
        let mount = prefix == "/" ? "/" : String(prefix.dropLast())
        // `/app` itself or below `/app/`; `/application` is not under `/app/`.
        guard path == mount || path.hasPrefix(prefix) else { return .failure(Refusal(reason: "\(path) is not under \(prefix)")) }
        var segments: [String] = []
        for raw in path.dropFirst(mount.count).split(separator: "/", omittingEmptySubsequences: true) {
            guard let decoded = raw.removingPercentEncoding else {
                return .failure(Refusal(reason: "'\(raw)' is not valid percent-encoding"))
            }
            if decoded == ".." || decoded == "." {
                return .failure(Refusal(reason: "'\(raw)' would leave the folder"))
            }
            if decoded.contains("/") || decoded.contains("\\") || decoded.contains("\0") {
                return .failure(Refusal(reason: "'\(raw)' holds a slash, a backslash or NUL"))
            }
            segments.append(decoded)
        }
        return .success(segments)
    }

    static func isInside(_ path: String, root: String) -> Bool {
        path == root || path.hasPrefix(root == "/" ? "/" : root + "/")
    }

    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    private static func isDirectory(_ path: String) -> Bool {
        var directory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &directory) && directory.boolValue
    }
}
