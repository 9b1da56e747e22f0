import CProcessSupport
import Foundation
import ProcessToolkit
#if canImport(Glibc)
import Glibc
#endif

/// Stops this process's own browser and WebDriver servers (chromedriver, WPEWebDriver; through
/// their parent-death signal, their browsers) and removes their scratch folders when the process ends. Owned by `RobotKitProcess`, which
/// the `atexit` handler reaches; a signal that ends the process is handled in C
/// (`robotci_kill_on_fatal_signal`), where the handler reads only an atomic.
final class ExitCleanup: Sendable {
    private struct State {
        /// One entry per server: a process may start both engines' (a test of each).
        var driverPIDs: [pid_t] = []
        var scratchPaths: [String] = []
        var atexitInstalled = false
    }

    private let state = Locked(State())

    /// Called with the driver service's state locked, so its registrations are serialized.
    func register(pid: pid_t, scratch: String, installSignalHandlers: Bool) {
        let first = state.withLock { s -> Bool in
            s.driverPIDs.append(pid)
            if !s.scratchPaths.contains(scratch) { s.scratchPaths.append(scratch) }
            defer { s.atexitInstalled = true }
            return !s.atexitInstalled
        }
        // Without setpriv nothing else reaches chromedriver when a signal ends us.
        if installSignalHandlers { robotci_kill_on_fatal_signal(pid) }
        if first { atexit { RobotKitProcess.current.exit.run() } }
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

    private func run() {
        let (pids, scratchPaths) = state.withLock { s -> ([pid_t], [String]) in
            defer { s.driverPIDs = [] }
            return (s.driverPIDs, s.scratchPaths)
        }
        for pid in pids where pid > 0 {
            kill(pid, SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
        }
        for scratchPath in scratchPaths { Self.remove(scratchPath) }
    }

    private static func remove(_ scratchPath: String) {
        killProcesses(mentioning: scratchPath)
        for _ in 0..<10 {
            try? FileManager.default.removeItem(atPath: scratchPath)
            if !FileManager.default.fileExists(atPath: scratchPath) { return }
            usleep(50_000)
        }
    }
}
