import Foundation
import BrowserTools
import LoopbackSockets
import ProcessToolkit
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// `NetworkNamespace`: children started in it are in the holder's namespace, with `lo` up;
/// a server inside is out of the host's reach; the holder goes with `stop()`.
final class NetworkNamespaceTests: XCTestCase {
    private func namespace() throws -> NetworkNamespace {
        do {
            return try NetworkNamespace.create()
        } catch {
            throw XCTSkip("no network namespace here: \(error)")
        }
    }

    func testAChildRunsInTheHoldersNamespaceWithLoopbackUp() throws {
        let ns = try namespace()
        defer { ns.stop() }
        let candidates = ["/usr/sbin/ip", "/sbin/ip", "/bin/ip"]
        let ip = try XCTUnwrap(candidates.first { FileManager.default.isExecutableFile(atPath: $0) })
        let child = try ChildProcess(executable: "/bin/sh", arguments: ["-c", "readlink /proc/self/ns/net; \(ip) -o link show lo"],
                                     options: ChildProcess.Options(networkNamespace: ns))
        let lines = readAll(child.outputFD).split(separator: "\n").map(String.init)
        XCTAssertEqual(child.wait(), ChildProcess.Termination.exited(0), "\(lines)")
        let host = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/ns/net")
        let held = try FileManager.default.destinationOfSymbolicLink(atPath: ns.path)
        XCTAssertNotEqual(held, host, "the holder has a namespace of its own")
        XCTAssertEqual(lines.first, held, "the child is in the holder's namespace")
        XCTAssertTrue(lines.count == 2 && lines[1].contains(",UP"), "lo is up inside: \(lines)")
    }

    func testChromedriverInsideIsReadyAndUnreachableFromTheHost() throws {
        guard let executable = BrowserInstallation.chromedriver() else {
            throw XCTSkip("chromedriver is not installed (apt-get install chromium-driver)")
        }
        let ns = try namespace()
        defer { ns.stop() }
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("netns-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let port = try XCTUnwrap(Loopback.freePort())
        let driver = try SpawnThread.shared.run { () throws(ChromeDriver.StartFailure) -> ChromeDriver in
            try ChromeDriver.start(
                DriverLaunch(executable: executable, port: port, logPath: scratch.appendingPathComponent("log").path, group: .own,
                             networkNamespace: ns),
                timeout: 10)
        }
        defer { driver.stop() }
        XCTAssertTrue(driver.process.isRunning)
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(driver.process.pid)/ns/net"),
                       try FileManager.default.destinationOfSymbolicLink(atPath: ns.path), "chromedriver's own pid is inside")
        XCTAssertFalse(Loopback.canConnect(port), "chromedriver inside the namespace answers on the host's loopback")
    }

    func testStopEndsTheHolder() throws {
        let ns = try namespace()
        XCTAssertTrue(ns.isAlive)
        ns.stop()
        XCTAssertFalse(ns.isAlive)
        XCTAssertFalse(FileManager.default.fileExists(atPath: ns.path))
    }

    func testABadPathKeepsItsSpawnError() throws {
        let ns = try namespace()
        defer { ns.stop() }
        XCTAssertThrowsError(try ChildProcess(executable: "/nonexistent/tool", arguments: [],
                                              options: ChildProcess.Options(networkNamespace: ns))) { error in
            XCTAssertEqual((error as? SpawnError)?.executable, "/nonexistent/tool")
        }
    }
}
