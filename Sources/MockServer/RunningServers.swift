import Foundation
import Locks

/// The servers of this process that are listening, so a test's first failure can save
/// their journals before `tearDown` stops them (RobotKit's failure evidence).
final class RunningServers: Sendable {
    private struct Entry {
        weak var server: MockServer?
    }

    private let servers = Locked<[ObjectIdentifier: Entry]>([:])

    func add(_ server: MockServer) {
        servers.withLock { $0[ObjectIdentifier(server)] = Entry(server: server) }
    }

    func remove(_ server: MockServer) {
        servers.withLock { _ = $0.removeValue(forKey: ObjectIdentifier(server)) }
    }

    var all: [MockServer] {
        servers.withLock { entries in
            entries = entries.filter { $0.value.server != nil }
            return entries.values.compactMap(\.server)
        }
    }
}

extension MockServer {
    /// Writes the journal so far (`mock-requests.json`) to the artifacts folder, as `stop()`
    /// will; for a server without an artifacts folder, does nothing.
    /// - Throws: ``MockServerError`` `.journalNotWritten`.
    public nonisolated func writeJournal() throws {
        guard let artifactsDirectory else { return }
        try RequestJournalFile.write(shared.journal.all, to: artifactsDirectory)
    }

    /// ``writeJournal()`` for every server of this process that is running; returns the
    /// errors as messages. RobotKit calls it at a test's first failure.
    public static func writeRunningJournals() -> [String] {
        MockServerProcess.current.servers.all.compactMap { server in
            do {
                try server.writeJournal()
                return nil
            } catch {
                return String(describing: error)
            }
        }
    }
}

extension MockServer {
    /// The requests this process's running servers answered after `after` and no later
    /// than `until` (not preflights), oldest first: what a trace step saw of the mock.
    public static func answeredRequests(after: Date, until: Date) -> [RecordedRequest] {
        MockServerProcess.current.servers.all
            .flatMap { $0.shared.journal.answered }
            .filter { $0.timestamp > after && $0.timestamp <= until }
            .sorted { $0.timestamp < $1.timestamp }
    }
}
