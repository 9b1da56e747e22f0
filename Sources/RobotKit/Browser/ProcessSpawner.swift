import CProcessSupport
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Spawns child processes from one thread that lives as long as the process.
///
/// `PR_SET_PDEATHSIG` fires when the *thread* that forked the child exits, not the
/// process; spawning from a short-lived pool thread would kill chromedriver early.
/// Children stay in the caller's process group, so robotci's group kill reaches them.
final class ProcessSpawner: @unchecked Sendable {
    static let shared = ProcessSpawner()

    private final class Job: @unchecked Sendable {
        let executable: String
        let arguments: [String]
        let outputPath: String
        let done = DispatchSemaphore(value: 0)
        var result: Result<pid_t, RobotKitError> = .failure(.driverStart("spawn did not run"))

        init(executable: String, arguments: [String], outputPath: String) {
            self.executable = executable
            self.arguments = arguments
            self.outputPath = outputPath
        }
    }

    private let lock = NSLock()
    private var queue: [Job] = []
    private let wake = DispatchSemaphore(value: 0)

    private init() {
        let thread = Thread { [unowned self] in self.serve() }
        thread.name = "RobotKit.ProcessSpawner"
        thread.start()
    }

    /// Starts `executable` with `arguments`, stdout and stderr appended to `outputPath`.
    func spawn(_ executable: String, _ arguments: [String], outputPath: String) throws(RobotKitError) -> pid_t {
        let job = Job(executable: executable, arguments: arguments, outputPath: outputPath)
        lock.withLock { queue.append(job) }
        wake.signal()
        job.done.wait()
        return try job.result.get()
    }

    private func serve() {
        while true {
            wake.wait()
            let jobs = lock.withLock { () -> [Job] in
                defer { queue.removeAll() }
                return queue
            }
            for job in jobs {
                job.result = Self.posixSpawn(job)
                job.done.signal()
            }
        }
    }

    private static func posixSpawn(_ job: Job) -> Result<pid_t, RobotKitError> {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, job.outputPath, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        // Nothing else of the test process may leak into chromedriver or Chromium: an
        // inherited listening socket (SwiftNIO's are not close-on-exec) would keep the
        // mock server's port bound after the server stops, and the next test of the
        // process could not bind ROBOTCI_MOCK_PORT.
        _ = robotci_spawn_addclosefrom(&actions, 3)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // Children must not inherit the test process's blocked or ignored signals.
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        var allSignals = sigset_t()
        sigfillset(&allSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let argv = ([job.executable] + job.arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, job.executable, &actions, &attributes, argv, environ)
        guard status == 0 else {
            return .failure(.driverStart("could not start \(job.executable): \(String(cString: strerror(status)))"))
        }
        return .success(pid)
    }
}
