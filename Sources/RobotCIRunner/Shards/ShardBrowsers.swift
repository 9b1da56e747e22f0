import BrowserTools
import Foundation
import ProcessToolkit
import StandardStreams
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One warm Chromium per shard that outlives the shard's test processes, so a batch pays a
/// browser context, not a browser start. robotci owns each browser and its DevTools pipe
/// (`DevToolsRelay`); the shard's test processes reach it over a Unix socket in a folder only
/// the run's user can open. No port: nothing outside the run can drive the browser.
///
/// The browser starts on the first `launch()` of a shard (RobotKit's hello names its switches),
/// so a suite that never launches one pays nothing. Each browser is its own process group with
/// a parent-death signal, started from its relay's thread; it is replaced after a batch that
/// hung or was killed (it may be wedged mid-command) and killed when the run ends.
final class ShardBrowsers: Sendable {
    /// What a batch's environment says about its shard's browser.
    struct Channel: Equatable, Sendable {
        /// The relay's socket (`ROBOTCI_BROWSER_SOCKET`).
        var socket: String
        /// A folder that lives as long as the shard's relay (`ROBOTCI_BROWSER_DIR`): RobotKit
        /// keeps the shard's kept page there.
        var directory: URL
    }

    private struct Shard {
        var relay: DevToolsRelay
        var directory: URL
        /// The namespace the shard's browsers start in (`--network-isolation`), shared with the relay's launcher.
        var namespace: Locked<NetworkNamespace?>

        var channel: Channel { Channel(socket: relay.socketPath, directory: directory) }
    }

    private let chromium: String?
    private let root: URL?
    private let environment: [String: String]
    private struct State {
        var shards: [Int: Shard] = [:]
        var warned = false
    }

    private let state = Locked(State())

    /// Every shard's socket, profile and temporary folder lie in one new private (0700)
    /// folder in the temporary folder: short, since a socket path holds at most 107 bytes, and
    /// named like RobotKit's scratch (`robotkit-PID-…`), so one a killed robotci left is swept
    /// once its pid is gone. No Chromium on the machine (or `CHROME_BIN` naming none): shards
    /// get no browser, and a test that launches one says what to install.
    init(environment: [String: String]) {
        self.environment = environment
        chromium = BrowserInstallation.chromium(environment: environment)
        root = PrivateFolder.make(prefix: "robotkit-\(getpid())-")
    }

    /// The shard's browser channel, its relay started (inside `networkNamespace`, for the
    /// browsers it starts from now on) when needed; nil when no browser can run.
    func ensure(shard: Int, networkNamespace: NetworkNamespace? = nil) -> Channel? {
        guard let chromium, let root else { return nil }
        if let current = state.withLock({ $0.shards[shard] }) {
            current.namespace.withLock { $0 = networkNamespace }
            return current.channel
        }
        let directory = root.appendingPathComponent("shard-\(shard)", isDirectory: true)
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            warn("could not create \(directory.path) for shard \(shard)'s browser: \(error)")
            return nil
        }
        let namespace = Locked<NetworkNamespace?>(networkNamespace)
        let environment = environment
        let launcher: DevToolsRelay.Launcher = { arguments, generation throws(ChromeDriver.StartFailure) in
            var launch = ChromiumProcess.Launch(
                executable: chromium, arguments: arguments,
                profile: directory.appendingPathComponent("profile-\(generation)").path,
                logPath: directory.appendingPathComponent("chromium.log").path, group: .own)
            launch.temporaryDirectory = directory.appendingPathComponent("tmp").path
            launch.environment = environment
            launch.networkNamespace = namespace.current
            // The last browser's profile goes: one shard keeps one profile on disk.
            if generation > 1 {
                try? FileManager.default.removeItem(at: directory.appendingPathComponent("profile-\(generation - 1)"))
            }
            return try ChromiumProcess.start(launch)
        }
        do {
            let relay = try DevToolsRelay(socketPath: directory.appendingPathComponent("devtools.sock").path, launcher: launcher)
            let made = Shard(relay: relay, directory: directory, namespace: namespace)
            state.withLock { $0.shards[shard] = made }
            return made.channel
        } catch {
            warn("shard \(shard): \(error); its tests start their own browser")
            return nil
        }
    }

    /// Kills the shard's browser (after a batch that hung or was killed, or a new namespace);
    /// its next batch's first launch starts another.
    func replace(shard: Int) {
        state.withLock { $0.shards[shard] }?.relay.replaceBrowser()
    }

    /// Kills every shard's browser and relay and removes their folders; called when the run ends.
    func shutDown() {
        let all = state.withLock { state -> [Shard] in
            defer { state.shards.removeAll() }
            return Array(state.shards.values)
        }
        for shard in all { shard.relay.stop() }
        if let root { try? FileManager.default.removeItem(at: root) }
    }

    private func warn(_ text: String) {
        let first = state.withLock { state -> Bool in
            defer { state.warned = true }
            return !state.warned
        }
        if first { StandardStream.error.write("robotci: \(text)\n") }
    }
}
