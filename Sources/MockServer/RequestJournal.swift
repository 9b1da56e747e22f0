import Foundation
import ProcessToolkit

/// Every request the server saw, in arrival order, shared by the event loops (which
/// append, then complete) and the actor (which reads and waits).
///
/// A request is written down when it arrives (so the journal file shows one whose handler
/// never answered) and completed when its answer leaves. What tests see (`answered`,
/// `wait`) is the answered requests, without the CORS preflights the server answered
/// itself: browser transport noise the apps the references test never send.
///
/// Past `capacity` entries the oldest quarter is dropped at once, so a long
/// `robotci mock` session or a benchmark cannot grow without bound.
final class RequestJournal: Sendable {
    typealias Predicate = @Sendable (RecordedRequest) -> Bool

    /// One arrival, answered or not yet.
    struct Entry: Sendable {
        let request: MockRequest
        let timestamp: Date
        let matchedRoute: String?
        let isPreflight: Bool
        var answer: (response: MockResponse, error: String?)?

        /// The entry as tests see it, once answered.
        var recorded: RecordedRequest? {
            answer.map {
                RecordedRequest(
                    request: request, response: $0.response, timestamp: timestamp, matchedRoute: matchedRoute,
                    error: $0.error, isPreflight: isPreflight)
            }
        }

        /// What tests may assert on: answered, and not a preflight.
        var visible: RecordedRequest? {
            isPreflight ? nil : recorded
        }
    }

    private struct Waiter {
        let matches: Predicate
        let continuation: CheckedContinuation<RecordedRequest, any Error>
    }

    private struct State {
        var entries: [Entry] = []
        /// How many entries were dropped from the front; sequence numbers count them.
        var dropped = 0
        var waiters: [UUID: Waiter] = [:]
    }

    let capacity: Int
    private let state = Locked(State())

    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// Every entry still held, oldest first, answered or not, preflights included
    /// (the journal file).
    var all: [Entry] {
        state.withLock { $0.entries }
    }

    /// The answered requests, oldest first, without preflights.
    var answered: [RecordedRequest] {
        state.withLock { $0.entries.compactMap(\.visible) }
    }

    /// Records an arrival; returns its sequence number, for ``complete(_:response:error:)``.
    func append(request: MockRequest, matchedRoute: String?, isPreflight: Bool = false) -> Int {
        state.withLock { state in
            state.entries.append(Entry(
                request: request, timestamp: Date(), matchedRoute: matchedRoute, isPreflight: isPreflight))
            let sequence = state.dropped + state.entries.count - 1
            if state.entries.count > capacity + capacity / 4 {
                let excess = state.entries.count - capacity
                state.entries.removeFirst(excess)
                state.dropped += excess
            }
            return sequence
        }
    }

    /// Records how entry `sequence` was answered, wakes the waiters it satisfies, and
    /// returns the completed entry.
    @discardableResult
    func complete(_ sequence: Int, response: MockResponse, error: String? = nil) -> RecordedRequest? {
        let (entry, woken) = state.withLock { state -> (RecordedRequest?, [Waiter]) in
            let index = sequence - state.dropped
            guard state.entries.indices.contains(index) else { return (nil, []) }
            state.entries[index].answer = (response, error)
            guard let visible = state.entries[index].visible else { return (state.entries[index].recorded, []) }
            var woken: [Waiter] = []
            for (id, waiter) in state.waiters where waiter.matches(visible) {
                woken.append(waiter)
                state.waiters[id] = nil
            }
            return (visible, woken)
        }
        if let entry {
            for waiter in woken {
                waiter.continuation.resume(returning: entry)
            }
        }
        return entry
    }

    /// Forgets every entry (waiters keep waiting for new ones).
    func clear() {
        state.withLock { state in
            state.dropped += state.entries.count
            state.entries.removeAll()
        }
    }

    /// The first answered request matching `predicate`, waiting up to `timeout` for one.
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
                    if let hit = state.entries.lazy.compactMap(\.visible).first(where: predicate) {
                        return .success(hit)
                    }
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
