extension MockServer {
    /// Every request received so far, oldest first.
    public var requests: [RecordedRequest] {
        shared.journal.answered
    }

    /// The requests whose path is exactly `path`.
    public func requests(matching path: String) -> [RecordedRequest] {
        shared.journal.answered.filter { $0.request.path == path }
    }

    /// The requests with this method and path.
    public func requests(method: HTTPMethod, path: String) -> [RecordedRequest] {
        shared.journal.answered.filter { $0.request.method == method && $0.request.path == path }
    }

    /// Whether a request for `path` (and `method`, when given) has arrived.
    public func didReceive(method: HTTPMethod? = nil, path: String) -> Bool {
        shared.journal.answered.contains { Self.matches($0, method: method, path: path) }
    }

    /// The first request for `path` (and `method`), waiting up to `timeout` for it to arrive.
    ///
    /// Returns as soon as it arrives, possibly before its response is sent: the journal
    /// wakes the wait, so `pollInterval` (SwiftMockServer polls) is accepted and unused.
    /// - Throws: ``MockServerError`` with code `.timedOut` (``MockServerError/timeout``) when none arrives in time.
    @discardableResult
    public nonisolated func waitForRequest(
        method: HTTPMethod? = nil, path: String, timeout: Duration = .seconds(10),
        pollInterval: Duration = .milliseconds(100)
    ) async throws -> RecordedRequest {
        let description = "\(method?.rawValue ?? "any method") \(path)"
        return try await shared.journal.wait(for: description, timeout: timeout) {
            Self.matches($0, method: method, path: path)
        }
    }

    /// Forgets the requests recorded so far.
    public func clearRecordedRequests() {
        shared.journal.clear()
    }

    private static func matches(_ entry: RecordedRequest, method: HTTPMethod?, path: String) -> Bool {
        entry.request.path == path && (method == nil || entry.request.method == method)
    }
}
