/// What the event loops need from the server, reachable without hopping onto the actor.
final class SharedState: Sendable {
    /// The current routes; replaced as a whole by the actor.
    let routes: Locked<RouteTable>
    /// Every request received.
    let journal: RequestJournal
    /// Bodies larger than this get `413`.
    let maxBodySize: Int
    /// Whether ::1 is served beside 127.0.0.1 (when the host has it).
    let ipv6: Bool
    /// Told about each request once it has been answered (used by `robotci mock` to print it).
    let onResponse: (@Sendable (RecordedRequest) -> Void)?

    init(configuration: MockServer.Configuration) {
        routes = Locked(RouteTable(defaultResponse: EncodedResponse(configuration.defaultResponse)))
        journal = RequestJournal(capacity: configuration.maxRecordedRequests)
        maxBodySize = configuration.maxBodySize
        ipv6 = configuration.ipv6
        onResponse = configuration.onResponse
    }

    /// Records how a request was answered and reports it.
    func complete(_ sequence: Int, response: MockResponse, error: String? = nil) {
        let entry = journal.complete(sequence, response: response, error: error)
        if let onResponse, let entry {
            onResponse(entry)
        }
    }
}
