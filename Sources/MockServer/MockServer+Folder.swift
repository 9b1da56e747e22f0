import Foundation

extension MockServer {
    /// Serves the files of `folder` (a built web app: `dist/`, `build/`) under `prefix`, for
    /// `GET` and `HEAD`: each file with the content type of its extension, `index.html` for
    /// `prefix` itself and for every folder, `404` for anything else.
    ///
    /// No request reaches a file outside `folder`: `..`, encoded dots and slashes, NUL and
    /// symlinks that lead out are refused (404). Exact, parameterized and prefix routes still
    /// win over the folder (an app's API next to its files), and it wins over a catch-all for
    /// the paths it has a file for; a path with no file goes on to a catch-all when there is
    /// one (a scenario's answers for the app's API), else is a 404.
    /// - Parameters:
    ///   - prefix: where the folder appears: `/` (the default) or `/app/`.
    ///   - spaFallback: answer `index.html` for paths that name no file (no extension in the
    ///     last segment, `/todos/42`), so a single-page app's client-side routes load.
    /// - Throws: ``MockServerError`` `.invalidRequest` when `folder` is not a readable folder.
    @discardableResult
    public func serveFolder(_ folder: URL, at prefix: String = "/", spaFallback: Bool = false) throws -> RouteID {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw MockServerError.invalidRequest(
                "cannot serve \(folder.path): it is not a folder; pass the folder holding the built app's index.html")
        }
        return serve(StaticFolder(folder: folder, prefix: prefix, spaFallback: spaFallback))
    }

    /// Registers `folder` without checking it (a scenario's loader checked it already).
    @discardableResult
    func serve(_ folder: StaticFolder) -> RouteID {
        let route = RouteEntry(
            id: UUID().uuidString, method: .GET, pattern: folder.pattern, responder: .handler { folder.response(to: $0) },
            servesFolder: true, claims: { folder.lookup($0) != .notFound })
        shared.routes.withLock { $0.routes.append(route) }
        return route.id
    }
}

extension StaticFolder {
    /// The file's bytes, a redirect to the folder's slash, or a 404 saying why (a refusal
    /// names the part refused, never what lies outside the folder).
    func response(to request: MockRequest) -> MockResponse {
        switch lookup(request.path) {
        case .file(let path):
            guard let data = FileManager.default.contents(atPath: path) else {
                return .text("cannot read \(request.path) in the served folder", status: .notFound)
            }
            // no-store: a rebuilt app is what the next test loads, never a cached copy.
            return .data(data, contentType: MediaType.forExtension(of: path)).withHeaders(["Cache-Control": "no-store"])
        case .redirect(let location):
            let target = request.query.map { "\(location)?\($0)" } ?? location
            return MockResponse(status: HTTPStatus(code: 301), headers: ["Location": target])
        case .notFound:
            return .text("no file at \(request.path) in the served folder", status: .notFound)
        case .refused(let reason):
            return .text("refused: \(reason)", status: .notFound)
        }
    }
}
