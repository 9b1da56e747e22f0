import Foundation
import ProcessToolkit
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
final class ShardBrowsers: @unchecked Sendable {
    /// What a batch's environment says about its shard's chromedriver.
    struct Driver: Equatable {
        var url: String
        var port: Int
        var pid: pid_t
        var directory: URL
    }

    private struct Running {
        var child: ChildProcess
        var driver: Driver
    }

    private let chromedriver: String?
    private let root: URL
    private let environment: [String: String]
    private let lock = NSLock()
    private var running: [Int: Running] = [:]
    private var generation = 0
    private var warned = false

    /// `root` holds one folder per started chromedriver (its log, the browser's profile).
    /// No chromedriver on the machine (or `CHROMEDRIVER` naming none): shards get none, and
    /// RobotKit starts its own per test process as before.
    init(root: URL, environment: [String: String]) {
        self.root = root
        self.environment = environment
        let override = environment["CHROMEDRIVER"].flatMap { $0.isEmpty ? nil : $0 }
        if let override {
            chromedriver = access(override, X_OK) == 0 ? override : nil
        } else {
            chromedriver = ["/usr/lib/chromium/chromedriver"].first { access($0, X_OK) == 0 } ?? which("chromedriver")
        }
    }

    /// The shard's port while its chromedriver runs (the port allocator must not hand it out).
    func heldPort(shard: Int) -> Int? {
        lock.withLock { running[shard]?.driver.port }
    }

    /// The shard's chromedriver, started on `port` when it is not running; nil when none can run.
    func ensure(shard: Int, port: Int) -> Driver? {
        guard let chromedriver else { return nil }
        let current = lock.withLock { running[shard] }
        if let current {
            if current.child.tryWait() == nil { return current.driver }
            lock.withLock { _ = running.removeValue(forKey: shard) }
            try? FileManager.default.removeItem(at: current.driver.directory)
        }
        let number = lock.withLock { () -> Int in
            generation += 1
            return generation
        }
        let directory = root.appendingPathComponent("shard-\(shard)-\(number)", isDirectory: true)
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let child = try ChildProcess(
                executable: chromedriver, arguments: ["--port=\(port)", "--log-level=WARNING"],
                environment: environment,
                outputPath: directory.appendingPathComponent("chromedriver.log").path)
            guard Self.waitUntilListening(port: port, child: child, timeout: 10) else {
                child.killGroup()
                _ = child.wait()
                warn("chromedriver for shard \(shard) did not listen on 127.0.0.1:\(port) within 10 s; its tests start their own")
                return nil
            }
            let driver = Driver(url: "http://127.0.0.1:\(port)", port: port, pid: child.pid, directory: directory)
            lock.withLock { running[shard] = Running(child: child, driver: driver) }
            return driver
        } catch {
            warn("could not start chromedriver for shard \(shard): \(error); its tests start their own")
            return nil
        }
    }

    /// Kills the shard's chromedriver and its browser (after a batch that hung or was killed).
    func replace(shard: Int) {
        guard let current = lock.withLock({ running.removeValue(forKey: shard) }) else { return }
        stop(current)
    }

    /// Kills every shard's chromedriver and browser; called when the run ends.
    func shutDown() {
        let all = lock.withLock { () -> [Running] in
            defer { running.removeAll() }
            return Array(running.values)
        }
        for current in all { stop(current) }
    }

    private func stop(_ current: Running) {
        current.child.killGroup()
        _ = current.child.wait()
        // Chromium dies with chromedriver (parent-death signal); its helpers a moment later.
        try? FileManager.default.removeItem(at: current.driver.directory)
    }

    private func warn(_ text: String) {
        let first = lock.withLock { () -> Bool in
            defer { warned = true }
            return !warned
        }
        if first { FileHandle.standardError.write(Data("robotci: \(text)\n".utf8)) }
    }

    /// Polls a TCP connect to 127.0.0.1:`port` until it succeeds, the child exits or time runs out.
    private static func waitUntilListening(port: Int, child: ChildProcess, timeout: Double) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if child.tryWait() != nil { return false }
            let connected = Loopback.canConnect(port)
            if connected { return true }
            usleep(10_000)
        }
        return false
    }
}
