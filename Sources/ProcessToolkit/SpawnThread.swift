import Foundation

/// One thread that lives as long as the process and runs spawns handed to it.
///
/// A parent-death signal (`ChildProcess.Options.parentDeathSignal`) fires when the *thread*
/// that spawned the child ends, not the process: a child spawned from a short-lived pool
/// thread (a test's, an async task's) would be killed early. RobotKit's chromedriver, which
/// must live as long as its test process, is spawned here.
public final class SpawnThread: Sendable {
    public static let shared = SpawnThread()

    private let jobs = Locked<[@Sendable () -> Void]>([])
    private let wake = DispatchSemaphore(value: 0)

    private init() {
        let thread = Thread { [unowned self] in self.serve() }
        thread.name = "ProcessToolkit.SpawnThread"
        thread.start()
    }

    /// Runs `body` on the thread and returns what it returned (or throws what it threw).
    public func run<T: Sendable, E: Error>(_ body: @escaping @Sendable () throws(E) -> T) throws(E) -> T {
        let result = Locked<Result<T, E>?>(nil)
        let done = DispatchSemaphore(value: 0)
        jobs.withLock {
            $0.append {
                result.withLock { $0 = Result { () throws(E) -> T in try body() } }
                done.signal()
            }
        }
        wake.signal()
        done.wait()
        return try result.current!.get()
    }

    private func serve() {
        while true {
            wake.wait()
            let pending = jobs.withLock { jobs in
                defer { jobs.removeAll() }
                return jobs
            }
            for job in pending { job() }
        }
    }
}
