import BrowserTools
import Foundation
import ProcessToolkit
import StandardStreams
#if canImport(Glibc)
import Glibc
#endif

/// One warm WPEWebDriver per shard (`--browsers webkit`), owned by robotci like Chromium's
/// relay: started at the shard's first WebKit batch, inside the shard's network namespace when
/// it has one (its port, and cog's automation port, are then out of the host's reach), kept
/// across the shard's batches, so RobotKit's kept session (and its cog) outlives a test process.
/// RobotKit finds it through `ROBOTCI_WEBKIT_DRIVER_URL` and keeps the session's id in the
/// shard's folder (`ROBOTCI_BROWSER_DIR`).
///
/// Started from the shard's own thread (its parent-death signal is that thread's), in a
/// process group of its own: a batch's group kill leaves it, `replace` kills it (and, through
/// the launcher's parent-death signal, cog) after a batch that hung or was killed, or when the
/// shard's namespace is new. Killed when the run ends.
final class ShardWebKit: Sendable {
    /// What a WebKit batch's environment says about its shard's driver.
    struct Channel: Equatable, Sendable {
        /// `http://127.0.0.1:PORT`, reachable from the shard's namespace (`ROBOTCI_WEBKIT_DRIVER_URL`).
        var url: String
        /// The shard's WebKit folder (`ROBOTCI_BROWSER_DIR`): the kept session's id, the driver's log.
        var directory: URL
    }

    private struct Shard {
        var driver: WebKitDriver
        var directory: URL
    }

    private let installation: WebKitDriver.Installation?
    private let root: URL?
    private let environment: [String: String]
    private let state = Locked<[Int: Shard]>([:])
    private let warned = Locked(false)

    /// No WebKit stack (robotci checks `--browsers webkit` before the build): shards get no
    /// driver, and RobotKit starts its own as it would alone.
    init(environment: [String: String]) {
        self.environment = environment
        installation = try? WebKitDriver.locate(environment: environment)
        root = PrivateFolder.make(prefix: "robotkit-\(getpid())-")
    }

    /// The shard's driver, started on `port` (inside `networkNamespace`) when it has none or
    /// it died; nil (warned once) when it cannot start: the batch's processes start their own.
    func ensure(shard: Int, port: Int, networkNamespace: NetworkNamespace?) -> Channel? {
        guard let installation, let root else { return nil }
        if let current = state.withLock({ $0[shard] }) {
            if current.driver.process.isRunning { return Channel(url: current.driver.url, directory: current.directory) }
            stop(current)
        }
        let directory = root.appendingPathComponent("webkit-\(shard)", isDirectory: true)
        do {
            try? FileManager.default.removeItem(at: directory)
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let driver = try WebKitDriver.start(DriverLaunch(
                executable: installation.driver, port: port, logPath: directory.appendingPathComponent("wpewebdriver.log").path,
                group: .own, environment: environment, networkNamespace: networkNamespace))
            state.withLock { $0[shard] = Shard(driver: driver, directory: directory) }
            return Channel(url: driver.url, directory: directory)
        } catch {
            warn("shard \(shard): WPEWebDriver did not start (\(error)); its WebKit batches start their own")
            return nil
        }
    }

    /// Kills the shard's driver and its browser; its next WebKit batch starts another.
    func replace(shard: Int) {
        if let current = state.withLock({ $0.removeValue(forKey: shard) }) { stop(current) }
    }

    /// Kills every shard's driver and removes their folders; called when the run ends.
    func shutDown() {
        let all = state.withLock { state -> [Shard] in
            defer { state.removeAll() }
            return Array(state.values)
        }
        for shard in all { stop(shard) }
        if let root { try? FileManager.default.removeItem(at: root) }
    }

    private func stop(_ shard: Shard) {
        shard.driver.process.killGroup()
        _ = shard.driver.process.wait()
        try? FileManager.default.removeItem(at: shard.directory)
    }

    private func warn(_ text: String) {
        let first = warned.withLock { warned -> Bool in
            defer { warned = true }
            return !warned
        }
        if first { StandardStream.error.write("robotci: \(text)\n") }
    }
}
