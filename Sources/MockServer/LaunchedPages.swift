import Foundation

/// The origins of the pages RobotKit launched in this process, which every server of the
/// process allows: the app under test may always read its own mock, wherever it was
/// opened from (a `file://` page has the origin `null`, which no server allows by default).
package final class LaunchedPages: Sendable {
    package static let shared = LaunchedPages()

    private struct State {
        var origins: Set<Origin> = []
        var opaque = false
    }

    /// A process launches a handful of apps; past this many origins no more are added.
    private static let limit = 64

    private let state = Locked(State())

    /// Allows the origin of the page at `url`: `null` for `file://`, `scheme://host[:port]`
    /// for http(s); other schemes (`about:`, `data:`) have no origin worth allowing.
    package func add(pageAt url: URL) {
        switch url.scheme?.lowercased() {
        case "file":
            state.withLock { $0.opaque = true }
        case "http", "https":
            guard let scheme = url.scheme, var host = url.host, !host.isEmpty else { return }
            if host.contains(":"), !host.hasPrefix("[") { host = "[\(host)]" }
            guard let origin = Origin(url.port.map { "\(scheme)://\(host):\($0)" } ?? "\(scheme)://\(host)") else {
                return
            }
            state.withLock { state in
                guard state.origins.count < Self.limit else { return }
                state.origins.insert(origin)
            }
        default:
            return
        }
    }

    /// Whether a page of `origin` (nil: `null`) was launched.
    func contains(_ origin: Origin?) -> Bool {
        state.withLock { state in
            origin.map { state.origins.contains($0) } ?? state.opaque
        }
    }
}

extension MockServer {
    /// Lets the page at `url` read every server of this process (RobotKit calls it when it
    /// opens the app under test, so a `file://` app needs no configuration).
    package static func allowOrigin(ofLaunchedPage url: URL) {
        LaunchedPages.shared.add(pageAt: url)
    }
}
