import Foundation

/// Every request the server saw, in arrival order, shared by the event loops (which
/// append) and the actor (which reads and waits).
///
/// Past `capacity` entries the oldest quarter is dropped at once, so a long
/// `robotci mock` session or a benchmark cannot grow without bound.
final class RequestJournal: Sendable {
    typealias Predicate = @Sendable (RecordedRequest) -> Bool

    private struct Waiter {
        let matches: Predicate
        let continuation: CheckedContinuation<RecordedRequest, any Error>
    }

    private struct State {
        var entries: [RecordedRequest] = []
        /// How many entries were dropped from the front; sequence numbers count them.
        var dropped = 0
        var waiters: [UUID: Waiter] = [:]
    }

    let capacity: Int
    private let state = Locked(State())

    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// The entries still held, oldest first.
    var entries: [RecordedRequest] {
        state.withLock { $0.entries }
    }

    /// Records an arrival and wakes the waiters it satisfies; returns its sequence number.
    func append(_ entry: RecordedRequest) -> Int {
        let (sequence, woken) = state.withLock { state -> (Int, [Waiter]) in
            state.entries.append(entry)
            let sequence = state.dropped + state.entries.count - 1
            if state.entries.count > capacity + capacity / 4 {
                let excess = state.entries.count - capacity
                state.entries.removeFirst(excess)
                state.dropped += excess
            }
            guard !state.waiters.isEmpty else { return (sequence, []) }
            var woken: [Waiter] = []
            for (id, waiter) in state.waiters where waiter.matches(entry) {
                woken.append(waiter)
                state.waiters[id] = nil
            }
            return (sequence, woken)
        }
        for waiter in woken {
            waiter.continuation.resume(returning: entry)
        }
        return sequence
    }

    /// Fills in how entry `sequence` was answered; returns the completed entry.
    @discardableResult
    func complete(_ sequence: Int, status: HTTPStatus, error: String? = nil) -> RecordedRequest? {
        state.withLock { state in
            let index = sequence - state.dropped
            guard state.entries.indices.contains(index) else { return nil }
            state.entries[index].status = status
            state.entries[index].error = error
            return state.entries[index]
        }
    }

    /// Forgets every entry (waiters keep waiting for new ones).
    func clear() {
        state.withLock { state in
            state.dropped += state.entries.count
            state.entries.removeAll()
        }
    }

    /// The first entry matching `predicate`, waiting up to `timeout` for one to arrive.
    func wait(
        for description: String, timeout: Duration, matching predicate: @escaping Predicate
    ) async throws -> RecordedRequest {
        try await withThrowingTaskGroup(of: RecordedRequest.self) { group in
            group.addTask { try await self.waitIndefinitely(matching: predicate) }
            group.addTask {
                try await Task.sleep(for: timeout)
                throw MockServerError.timedOut(description, after: timeout)
            }
            defer { group.cancelAll() }
            guard let first = try await group.next() else {
                throw MockServerError.timedOut(description, after: timeout)
            }
            return first
        }
    }

    private func waitIndefinitely(matching predicate: @escaping Predicate) async throws -> RecordedRequest {
        let id = UUID()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let outcome = state.withLock { state -> Result<RecordedRequest, any Error>? in
                    if let hit = state.entries.first(where: predicate) { return .success(hit) }
                    // Checked under the lock so a cancellation that ran before we registered
                    // is not missed.
                    if Task.isCancelled { return .failure(CancellationError()) }
                    state.waiters[id] = Waiter(matches: predicate, continuation: continuation)
                    return nil
                }
                if let outcome {
                    continuation.resume(with: outcome)
                }
            }
        } onCancel: {
            let waiter = state.withLock { $0.waiters.removeValue(forKey: id) }
            waiter?.continuation.resume(throwing: CancellationError())
        }
    }
}
