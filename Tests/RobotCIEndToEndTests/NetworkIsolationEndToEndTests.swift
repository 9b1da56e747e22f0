import Foundation
import XCTest

/// `network-isolation`: while a test of RobotKit's own holds the shard's browser
/// (`WarmBrowserUnderRobotCITests/testG`, with its mock server serving the page), every TCP
/// socket the run's processes listen on (robotci, Chromium, the test process and its mock
/// server) is found from `/proc`, and then looked for from the host's namespace: in
/// `ss -ltnp`, and by connecting to its port. With isolation off (the default) no browser or
/// driver process listens at all (Chromium is driven on a pipe) and the mock server is seen,
/// so the probe is known to work; with isolation on nothing is reachable.
/// Where the kernel refuses namespaces, `auto` must say so in one warning line instead.
final class NetworkIsolationEndToEndTests: XCTestCase {
    func testNothingTheRunListensOnIsReachableFromTheHost() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/lib/chromium/chromium-headless-shell") else {
            throw XCTSkip("chromium-headless-shell is not installed (apt-get install chromium-headless-shell)")
        }
        guard Listeners.kernelAllowsNamespaces() else {
            let f = try Fault("netns-refused")
            let run = try f.start(["--filter", "WarmBrowserUnderRobotCITests/testA", "--shards", "1", "--retries", "0",
                                   "--network-isolation", "auto"], package: E2E.root.path)
            defer { run.stop() }
            _ = run.wait(timeout: 240)
            let warnings = run.stderr.split(separator: "\n").filter { $0.contains("network-isolation auto") }
            XCTAssertEqual(warnings.count, 1, run.stderr)
            XCTAssertTrue(warnings.first?.contains("one user per host") == true, run.stderr)
            return
        }
        let shared = try listeners(isolation: "off")
        XCTAssertEqual(shared.sockets.filter { $0.kind == "chromium" || $0.kind == "chromedriver" }.map(\.description), [],
                       "by default no browser or driver process listens on any port; ss -ltnp:\n\(shared.hostView)")
        XCTAssertTrue(shared.reachable.map(\.kind).contains("test process"),
                      "the probe sees the mock server on the host's loopback without isolation: \(shared.reachable)")

        let isolated = try listeners(isolation: "on")
        XCTAssertTrue(isolated.sockets.map(\.kind).contains("test process"), "the mock server listens: \(isolated.sockets)")
        XCTAssertEqual(isolated.sockets.filter { $0.kind == "chromium" || $0.kind == "chromedriver" }.map(\.description), [],
                       "\(isolated.sockets)")
        XCTAssertEqual(isolated.reachable, [], "listening sockets of the run that the host's namespace reaches; ss -ltnp:\n\(isolated.hostView)")
    }

    /// Where no namespace can be made (here: no `unshare` on the PATH robotci searches, the
    /// same path as a kernel that refuses), `auto` runs with one warning that names the reason
    /// and the rule, and `on` stops before anything runs, exit 2.
    func testWithoutANamespaceAutoWarnsOnceAndOnStops() throws {
        let report = E2E.temporaryDirectory("netns-none").path
        let args = ["run", "--package", E2E.root.path, "--skip-build", "--filter", "RobotCICoreTests.BatchEndTests",
                    "--shards", "2", "--report-dir", report, "--network-isolation"]
        let auto = try E2E.run(args + ["auto"], env: ["PATH": "/nonexistent"], cwd: NSTemporaryDirectory())
        XCTAssertEqual(auto.status, 0, auto.stderr)
        let warnings = auto.stderr.split(separator: "\n").filter { $0.contains("network namespace") }
        XCTAssertEqual(warnings.count, 1, auto.stderr)
        XCTAssertTrue(warnings.first?.contains("unshare") == true && warnings.first?.contains("one user per host") == true,
                      auto.stderr)
        let on = try E2E.run(args + ["on"], env: ["PATH": "/nonexistent"], cwd: NSTemporaryDirectory())
        XCTAssertEqual(on.status, 2, on.stderr)
        XCTAssertTrue(on.stderr.contains("network-isolation is on but no network namespace can be made"), on.stderr)
        XCTAssertFalse(on.stderr.contains("tests on 2 shards"), "nothing ran: \(on.stderr)")
        let off = try E2E.run(args + ["off"], env: ["PATH": "/nonexistent"], cwd: NSTemporaryDirectory())
        XCTAssertEqual(off.status, 0, off.stderr)
        XCTAssertFalse(off.stderr.contains("network namespace"), "off says nothing: \(off.stderr)")
    }

    /// A run of testG, probed while it holds the browser, then stopped.
    private func listeners(isolation: String) throws -> Listeners {
        let f = try Fault("netns-\(isolation)")
        let run = try f.start(["--filter", "WarmBrowserUnderRobotCITests/testG", "--shards", "1", "--retries", "0",
                               "--test-timeout", "120", "--network-isolation", isolation],
                              env: ["ROBOTCI_WARM_E2E": "1", "ROBOTCI_WARM_KILL": "1"], package: E2E.root.path)
        defer {
            run.stop()
            _ = f.leftovers()
        }
        let holding = f.state.appendingPathComponent("holding")
        _ = waitUntil(90) { FileManager.default.fileExists(atPath: holding.path) || !run.isRunning }
        XCTAssertTrue(FileManager.default.fileExists(atPath: holding.path), "the test launched the app: \(run.stderr)")
        let roots = E2E.processes(withEnvironment: f.marker).compactMap { pid_t($0.split(separator: ":")[0]) }
        return Listeners(roots: roots + [run.pid])
    }
}

/// The TCP listeners of a process tree, found from `/proc` whatever namespace they are in,
/// and which of them the host's namespace (this test's) can reach.
private struct Listeners {
    struct Socket: Equatable, CustomStringConvertible {
        var pid: pid_t
        var port: Int
        /// chromedriver, chromium, test process (the mock server), or the command.
        var kind: String
        var description: String { "\(kind) (pid \(pid)) on port \(port)" }
    }

    let sockets: [Socket]
    /// `ss -ltnpH` in the host's namespace.
    let hostView: String
    /// Sockets of the run listed by the host's `ss`, or whose port answers a connect from
    /// the host's namespace while no other process listens on it there.
    let reachable: [Socket]

    init(roots: [pid_t]) {
        var pids = Set(roots), frontier = roots
        while let pid = frontier.popLast() {
            for child in Proc.children(of: pid) where pids.insert(child).inserted { frontier.append(child) }
        }
        sockets = pids.sorted().flatMap(Self.listening)
        hostView = Self.run(["/bin/ss", "-ltnpH"]) ?? Self.run(["/usr/bin/ss", "-ltnpH"]) ?? ""
        var listed: [Int: Set<pid_t>] = [:]
        for line in hostView.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 4, let port = fields[3].split(separator: ":").last.flatMap({ Int($0) }) else { continue }
            let owners = line.matches(of: /pid=(\d+)/).compactMap { pid_t($0.1) }
            listed[port, default: []].formUnion(owners)
        }
        reachable = sockets.filter { socket in
            if let owners = listed[socket.port] {
                return !owners.isDisjoint(with: pids) || owners.isEmpty
            }
            return Self.canConnect(socket.port)
        }
    }

    static func kernelAllowsNamespaces() -> Bool {
        let arguments = geteuid() == 0 ? ["--net", "true"] : ["--user", "--map-root-user", "--net", "true"]
        return run(["/usr/bin/unshare"] + arguments) != nil
    }

    /// The ports `pid` listens on (TCP, IPv4 and IPv6), from its descriptors and the
    /// socket table of its own namespace.
    private static func listening(_ pid: pid_t) -> [Socket] {
        let fds = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")) ?? []
        let inodes = Set(fds.compactMap { fd -> String? in
            guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\(fd)"),
                  target.hasPrefix("socket:[") else { return nil }
            return String(target.dropFirst("socket:[".count).dropLast())
        })
        var ports: [Int] = []
        for table in ["tcp", "tcp6"] {
            guard let text = try? String(contentsOfFile: "/proc/\(pid)/net/\(table)", encoding: .utf8) else { continue }
            for line in text.split(separator: "\n").dropFirst() {
                let f = line.split(separator: " ", omittingEmptySubsequences: true)
                // local_address is HEX:PORT; st 0A is LISTEN; inode is the 10th field.
                guard f.count > 9, f[3] == "0A", inodes.contains(String(f[9])),
                      let port = f[1].split(separator: ":").last.flatMap({ Int($0, radix: 16) }) else { continue }
                ports.append(port)
            }
        }
        let command = Proc.commandLine(pid)
        let kind = command.contains("chromedriver") ? "chromedriver"
            : command.contains("chrom") ? "chromium"
            : command.contains(".xctest") ? "test process" : command
        return Set(ports).sorted().map { Socket(pid: pid, port: $0, kind: kind) }
    }

    private static func canConnect(_ port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }

    /// The command's output when it exits 0; nil otherwise.
    private static func run(_ command: [String]) -> String? {
        guard FileManager.default.isExecutableFile(atPath: command[0]) else { return nil }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst())
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return nil }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return process.terminationStatus == 0 ? String(decoding: data, as: UTF8.self) : nil
    }
}
