import BrowserTools
import Foundation
import ProcessToolkit
import StandardStreams
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One chromedriver per shard that outlives the shard's test processes, so the shard's
/// Chromium (which RobotKit starts through it on the first `launch()` and reattaches to from
/// later processes, see RobotKit's `SharedBrowser`) stays warm across batches.
///
/// robotci owns these processes: each is its own process group, spawned from the shard's
/// thread with a parent-death signal (Chromium gets one from chromedriver through RobotKit's
/// launcher), registered with `ChildRegistry` (an interrupt kills it), replaced after a batch
/// that hung or was killed (the browser may be wedged), and killed when the run ends.
/// A suite that never launches a browser pays one idle chromedriver per shard.
final class ShardBrowsers: Sendable {
    /// What a batch's environment says about its shard's chromedriver.
    struct Driver: Equatable, Sendable {
        var url: String
        var port: Int
        var pid: pid_t
        var directory: URL
    }

    private struct Running {
        var chromedriver: ChromeDriver
        var directory: URL
        /// chromedriver's and Chromium's `TMPDIR`: a short path of its own in the temporary
        /// folder, not under `directory`. Chromium's process-lock socket lives there, and a
        /// socket path over 107 bytes aborts the full browser at start; with
        /// `--disable-dev-shm-usage` its shared memory does too, which belongs on /tmp, not in
        /// a report folder. Named like RobotKit's scratch (`robotkit-PID-…`), so one left by a
        /// killed robotci is swept once its pid is gone.
        var temporary: URL?

        func removeFolders() {
            try? FileManager.default.removeItem(at: directory)
            if let temporary { try? FileManager.default.removeItem(at: temporary) }
        }

        var driver: Driver {
            Driver(url: chromedriver.url, port: chromedriver.port, pid: chromedriver.process.pid, directory: directory)
        }
    }

    private let chromedriver: String?
    private let root: URL
    private let environment: [String: String]
    private struct State {
        var running: [Int: Running] = [:]
        var generation = 0
        var warned = false
    }

    private let state = Locked(State())

    /// `root` holds one folder per started chromedriver (its log, the browser's profile).
    /// No chromedriver on the machine (or `CHROMEDRIVER` naming none): shards get none, and
    /// RobotKit starts its own per test process as before.
    init(root: URL, environment: [String: String]) {
        self.root = root
        self.environment = environment
        chromedriver = BrowserInstallation.chromedriver(environment: environment)
    }

    /// The shard's port while its chromedriver runs (the port allocator must not hand it out).
    func heldPort(shard: Int) -> Int? {
        state.withLock { $0.running[shard]?.chromedriver.port }
    }

    /// The shard's chromedriver, started on `port` (inside `networkNamespace` when given) when
    /// it is not running; nil when none can run.
    func ensure(shard: Int, port: Int, networkNamespace: NetworkNamespace? = nil) -> Driver? {
        guard let chromedriver else { return nil }
        let current = state.withLock { $0.running[shard] }
        if let current {
            if current.chromedriver.process.isRunning { return current.driver }
            state.withLock { _ = $0.running.removeValue(forKey: shard) }
            current.removeFolders()
        }
        let number = state.withLock { state -> Int in
            state.generation += 1
            return state.generation
        }
        let directory = root.appendingPathComponent("shard-\(shard)-\(number)", isDirectory: true)
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            warn("could not create \(directory.path) for shard \(shard)'s chromedriver: \(error); its tests start their own")
            return nil
        }
        let temporary = PrivateFolder.make(prefix: "robotkit-\(getpid())-")
        do {
            let started = try ChromeDriver.start(
                executable: chromedriver, port: port, logPath: directory.appendingPathComponent("chromedriver.log").path,
                group: .own, environment: environment, networkNamespace: networkNamespace,
                temporaryDirectory: temporary?.path, timeout: 10)
            let running = Running(chromedriver: started, directory: directory, temporary: temporary)
            state.withLock { $0.running[shard] = running }
            return running.driver
        } catch {
            if let temporary { try? FileManager.default.removeItem(at: temporary) }
            warn("shard \(shard): \(error); its tests start their own")
            return nil
        }
    }

    /// Kills the shard's chromedriver and its browser (after a batch that hung or was killed).
    func replace(shard: Int) {
        guard let current = state.withLock({ $0.running.removeValue(forKey: shard) }) else { return }
        stop(current)
    }

    /// Kills every shard's chromedriver and browser; called when the run ends.
    func shutDown() {
        let all = state.withLock { state -> [Running] in
            defer { state.running.removeAll() }
            return Array(state.running.values)
        }
        for current in all { stop(current) }
    }

    private func stop(_ current: Running) {
        current.chromedriver.stop()
        // Chromium dies with chromedriver (parent-death signal); its helpers a moment later.
        current.removeFolders()
    }

    private func warn(_ text: String) {
        let first = state.withLock { state -> Bool in
            defer { state.warned = true }
            return !state.warned
        }
        if first { StandardStream.error.write("robotci: \(text)\n") }
    }
}
