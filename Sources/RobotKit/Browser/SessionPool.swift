import Foundation

/// Keeps one spare browser session warm per test process, so `launch()` costs a
/// navigation instead of a browser start. A spare is a brand-new browser with its
/// own empty profile, used by at most one launch. Off unless `ROBOTKIT_PREWARM=1`.
final class SessionPool: @unchecked Sendable {
    static let shared = SessionPool()

    /// A started, never used session.
    final class Spare: @unchecked Sendable {
        let session: WebDriverSession
        let profile: URL
        let key: [String]

        init(session: WebDriverSession, profile: URL, key: [String]) {
            self.session = session
            self.profile = profile
            self.key = key
        }

        func discard() {
            try? session.delete()
            try? FileManager.default.removeItem(at: profile)
        }
    }

    private let lock = NSLock()
    // Off by default: on a small machine running several shards, a spare browser per
    // process competes for the same cores, and a batch's last spare is never used.
    private var enabled = ProcessInfo.processInfo.environment["ROBOTKIT_PREWARM"] == "1"

    /// Whether launches use (and refill) the spare.
    var isEnabled: Bool {
        get { lock.withLock { enabled } }
        set {
            lock.withLock { enabled = newValue }
            if !newValue { take(key: []).map { $0.discard() } }
        }
    }

    private var spare: Spare?
    private var inFlight: DispatchSemaphore?

    /// The spare for `key`, waiting for one being started; `nil` when there is none.
    func take(key: [String]) -> Spare? {
        if let waiting = lock.withLock({ inFlight }) {
            waiting.wait()
            waiting.signal()
        }
        let taken = lock.withLock { () -> Spare? in
            defer { spare = nil }
            return spare
        }
        guard let taken else { return nil }
        if taken.key == key { return taken }
        taken.discard()
        return nil
    }

    /// Starts a spare for `key` in the background unless one exists or is starting.
    func prewarm(key: [String], make: @escaping @Sendable () throws -> Spare) {
        guard isEnabled else { return }
        let signal = DispatchSemaphore(value: 0)
        let start = lock.withLock { () -> Bool in
            guard spare == nil, inFlight == nil else { return false }
            inFlight = signal
            return true
        }
        guard start else { return }
        DispatchQueue.global(qos: .utility).async {
            let made = try? make()
            self.lock.withLock {
                self.spare = made
                self.inFlight = nil
            }
            signal.signal()
        }
    }
}
