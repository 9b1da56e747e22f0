import Foundation
import ProcessToolkit
#if canImport(Glibc)
import Glibc
#endif

// Read by atexit and signal handlers, which cannot capture context.
nonisolated(unsafe) private var driverPID: pid_t = 0
nonisolated(unsafe) private var scratchPath: String?
nonisolated(unsafe) private var atexitInstalled = false

/// Stops chromedriver (and, through their parent-death signal, its browsers) when the process ends.
enum ExitCleanup {
    /// Called with `ChromeDriverService`'s state locked, so registration is serialized.
    static func register(pid: pid_t, scratch: String, installSignalHandlers: Bool) {
        driverPID = pid
        scratchPath = scratch
        guard !atexitInstalled else { return }
        atexitInstalled = true
        atexit { ExitCleanup.run() }
        // Without setpriv nothing else reaches chromedriver when a signal ends us.
        if installSignalHandlers {
            for signalNumber in [SIGTERM, SIGINT, SIGHUP] {
                signal(signalNumber) { received in
                    if driverPID > 0 { kill(driverPID, SIGKILL) }
                    signal(received, SIG_DFL)
                    raise(received)
                }
            }
        }
    }

    /// Kills processes whose command line names our scratch folder: the browsers and helpers
    /// of our own profiles, which would otherwise exit a moment later. The folder must be a
    /// whole path in an argument (`/tmp/robotkit-35-Ab3xQz` or `…/profile-1` under it), never
    /// a substring: `/tmp/robotkit-35` is not in `/tmp/robotkit-350/…`.
    static func killProcesses(mentioning path: String) {
        let me = getpid()
        let victims = ProcessTable.pids().filter { $0 != me && commandLine(ProcessTable.commandLine(of: $0), names: path) }
        for pid in victims { kill(pid, SIGKILL) }
    }

    /// True when an argument is `path`, lies under it, or is an option set to either
    /// (`--user-data-dir=PATH/profile-1`).
    static func commandLine(_ arguments: [String], names path: String) -> Bool {
        let folder = path.hasSuffix("/") ? String(path.dropLast()) : path
        return arguments.contains { argument in
            var value = Substring(argument)
            if !value.hasPrefix("/"), let equals = value.firstIndex(of: "=") { value = value[value.index(after: equals)...] }
            return value == folder || value.hasPrefix(folder + "/")
        }
    }

    private static func run() {
        if driverPID > 0 {
            kill(driverPID, SIGKILL)
            var status: Int32 = 0
            waitpid(driverPID, &status, 0)
            driverPID = 0
        }
        guard let scratchPath else { return }
        killProcesses(mentioning: scratchPath)
        for _ in 0..<10 {
            try? FileManager.default.removeItem(atPath: scratchPath)
            if !FileManager.default.fileExists(atPath: scratchPath) { return }
            usleep(50_000)
        }
    }
}
