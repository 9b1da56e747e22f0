import Foundation
import Locks

/// The origins of the pages RobotKit launched in this process, which every server of the
/// process allows: the app under test may always read its own mock, wherever it was
/// opened from. A page opened from disk is allowed as `file://`, the origin it sends in the
/// Chromium RobotKit starts (`--allow-file-access-from-files`; without that switch it would
/// send `null`), and not as `null`, which a sandboxed frame of any web site also sends.
package final class LaunchedPages: Sendable {
    /// A process launches a handful of apps; past this many origins no more are added.
    private static let limit = 64

    private let origins = Locked<Set<RequestOrigin>>([])

    /// Allows the origin of the page at `url` (`RequestOrigin(pageAt:)`).
    package func add(pageAt url: URL) {
        guard let origin = RequestOrigin(pageAt: url) else { return }
        origins.withLock { origins in
            guard origins.count < Self.limit else { return }
            origins.insert(origin)
        }
    }

    /// Whether a page of `origin` was launched.
    func contains(_ origin: RequestOrigin) -> Bool {
        origins.withLock { $0.contains(origin) }
    }
}

extension MockServer {
    /// Lets the page at `url` read every server of this process (RobotKit calls it when it
    /// opens the app under test, so a `file://` app needs no configuration).
    package static func allowOrigin(ofLaunchedPage url: URL) {
        MockServerProcess.current.launchedPages.add(pageAt: url)
    }

    /// The origin of the page at `url` as a browser names it (`scheme://host[:port]`,
    /// `file://`), or nil for a URL with none of its own (`about:`, `data:`, `blob:`).
    package static func origin(ofPage url: URL) -> String? {
        RequestOrigin(pageAt: url)?.serialized
    }
}
