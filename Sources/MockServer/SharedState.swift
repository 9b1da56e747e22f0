import Foundation
import Locks
import StandardStreams

/// What the event loops need from the server, reachable without hopping onto the actor.
final class SharedState: Sendable {
    /// The current routes; replaced as a whole by the actor.
    let routes: Locked<RouteTable>
    /// Every request received.
    let journal: RequestJournal
    /// Bodies larger than this get `413`.
    let maxBodySize: Int
    /// How long a connection may wait for a complete request.
    let idleTimeout: Duration
    /// Which pages may read the responses.
    let cors: CORSPolicy
    /// Which `Host` names are answered.
    let hosts: HostPolicy
    /// Whether ::1 is served beside 127.0.0.1 (when the host has it).
    let ipv6: Bool
    /// Told about each request once it has been answered (used by `robotci mock` to print it).
    let onResponse: (@Sendable (RecordedRequest) -> Void)?
    private let warningHandler: (@Sendable (String) -> Void)?
    /// The refused origins already warned about; a page retrying must not flood the log.
    private let warnedOrigins = Locked<Set<String>>([])
    /// The refused hosts already warned about.
    private let warnedHosts = Locked<Set<String>>([])

    init(configuration: MockServer.Configuration) {
        routes = Locked(RouteTable(defaultResponse: EncodedResponse(configuration.defaultResponse)))
        journal = RequestJournal(
            capacity: configuration.maxRecordedRequests, maxBodyBytes: configuration.maxRecordedBodySize,
            maxBytes: configuration.maxRecordedBytes)
        maxBodySize = configuration.maxBodySize
        idleTimeout = configuration.idleTimeout
        cors = CORSPolicy(allowedOrigins: configuration.allowedOrigins)
        hosts = HostPolicy(allowedHosts: configuration.allowedHosts)
        ipv6 = configuration.ipv6
        onResponse = configuration.onResponse
        warningHandler = configuration.warningHandler
    }

    /// Records how a request was answered and reports it.
    func complete(_ sequence: Int, response: MockResponse, error: String? = nil) {
        let entry = journal.complete(sequence, response: response, error: error)
        if let onResponse, let entry {
            onResponse(entry)
        }
    }

    /// Whether a request's `Host` is answered; a refused host is reported once per server.
    func allows(hostHeader: String?) -> Bool {
        guard !hosts.allows(hostHeader: hostHeader), let host = hostHeader else { return true }
        let isNew = warnedHosts.withLock { warned in
            guard warned.count < 32, !warned.contains(host) else { return false }
            warned.insert(host)
            return true
        }
        if isNew { warn(HostPolicy.refusal(host: host)) }
        return false
    }

    /// The grant for a request's `Origin`; a refused origin is reported once per server.
    func grant(forOrigin origin: String?) -> CORSPolicy.Grant {
        let grant = cors.grant(forOrigin: origin)
        if case .refused(let refused) = grant {
            let isNew = warnedOrigins.withLock { warned in
                guard warned.count < 32, !warned.contains(refused) else { return false }
                warned.insert(refused)
                return true
            }
            if isNew { warn(CORS.refusal(origin: refused)) }
        }
        return grant
    }

    /// Reports something a test's author should know (standard error unless configured).
    func warn(_ message: String) {
        if let warningHandler {
            warningHandler(message)
        } else {
            StandardStream.error.write("MockServer: \(message)\n")
        }
    }
}
