import Foundation
import Locks

/// Every request the server saw, in arrival order, shared by the event loops (which
/// append, then complete) and the actor (which reads and waits).
///
/// A request is written down when it arrives (so the journal file shows one whose handler
/// never answered) and completed when its answer leaves. What tests see (`answered`,
/// `wait`) is the answered requests, without the CORS preflights the server answered
/// itself: browser transport noise the apps the references test never send.
///
/// What it holds is bounded by count and by bytes: a body is stored cut to its first
/// `maxBodyBytes` (the entry keeps its full size), and past `capacity` entries, or past
/// `maxBytes` of stored bodies, paths and headers, the oldest entries are dropped, so a long
/// `robotci mock` session, a benchmark or a client posting big bodies cannot grow it without
/// bound. The route's handler still gets the whole body.
final class RequestJournal: Sendable {
    typealias Predicate = @Sendable (RecordedRequest) -> Bool

    /// One arrival, answered or not yet.
    struct Entry: Sendable {
        let request: MockRequest
        let timestamp: Date
        let matchedRoute: String?
        let isPreflight: Bool
        /// The body's full size in bytes; `request.body` holds at most the journal's `maxBodyBytes`.
        let bodySize: Int
        var answer: (response: MockResponse, error: String?)?

        /// What keeping the entry costs: its stored body, target and headers (and a little more).
        var cost: Int {
            (request.body?.count ?? 0) + request.path.utf8.count + (request.query?.utf8.count ?? 0)
                + request.headerFields.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count + 4 } + 128
        }

        /// The entry as tests see it, once answered.
        var recorded: RecordedRequest? {
            answer.map {
                var recorded = RecordedRequest(
                    request: request, response: $0.response, timestamp: timestamp, matchedRoute: matchedRoute, error: $0.error)
                recorded.isPreflight = isPreflight
                recorded.bodySize = bodySize
                return recorded
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
        /// The summed `cost` of `entries`.
        var bytes = 0
        var waiters: [UUID: Waiter] = [:]
    }

    let capacity: Int
    /// The most of a body an entry keeps.
    let maxBodyBytes: Int
    /// The most the entries may cost in all (``Entry/cost``); the newest is always kept.
    let maxBytes: Int
    private let state = Locked(State())

    init(capacity: Int, maxBodyBytes: Int = 1 << 20, maxBytes: Int = 64 << 20) {
        self.capacity = max(1, capacity)
        self.maxBodyBytes = max(0, maxBodyBytes)
        self.maxBytes = max(0, maxBytes)
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
        let entry = Entry(
            request: request.withBodyPrefix(maxBodyBytes), timestamp: Date(), matchedRoute: matchedRoute,
            isPreflight: isPreflight, bodySize: request.body?.count ?? 0)
        let cost = entry.cost
        return state.withLock { state in
            state.entries.append(entry)
            state.bytes += cost
            let sequence = state.dropped + state.entries.count - 1
            var excess = state.entries.count > capacity + capacity / 4 ? state.entries.count - capacity : 0
            if state.bytes > maxBytes {
                // Down to three quarters of the budget, so the next appends do not each shift the array.
                var freed = state.entries[..<excess].reduce(0) { $0 + $1.cost }
                while excess < state.entries.count - 1, state.bytes - freed > maxBytes * 3 / 4 {
                    freed += state.entries[excess].cost
                    excess += 1
                }
            }
            if excess > 0 {
                state.bytes -= state.entries[..<excess].reduce(0) { $0 + $1.cost }
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
            state.bytes = 0
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
