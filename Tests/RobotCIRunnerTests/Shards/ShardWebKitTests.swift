import Foundation
import LoopbackSockets
import ProcessToolkit
@testable import RobotCIRunner
import XCTest

/// The shard's warm WPEWebDriver (`--browsers webkit`): started in the shard's namespace, seen
/// listening there and unreachable from the host's, kept while it runs, replaced on demand.
final class ShardWebKitTests: XCTestCase {
    func testTheShardsDriverListensInItsNamespaceOnlyAndIsKeptUntilReplaced() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/WPEWebDriver") else {
            throw XCTSkip("WPEWebDriver is not installed (apt-get install wpewebkit-driver cog)")
        }
        let namespace: NetworkNamespace
        do { namespace = try NetworkNamespace.create() } catch { throw XCTSkip("no network namespace here: \(error)") }
        defer { namespace.stop() }
        // A WebKit RobotKit started earlier in this test process is kept for the process's life.
        let earlier = Set(Self.driverPIDs())
        func driverPIDs() -> [Int32] { Self.driverPIDs().filter { !earlier.contains($0) } }
        let webKit = ShardWebKit(environment: ProcessInfo.processInfo.environment)
        defer { webKit.shutDown() }
        let port = try XCTUnwrap(Loopback.freePort())

        let first = try XCTUnwrap(webKit.ensure(shard: 0, port: port, networkNamespace: namespace))
        XCTAssertEqual(first.url, "http://127.0.0.1:\(port)")
        XCTAssertTrue(FileManager.default.fileExists(atPath: first.directory.path))
        let driver = try XCTUnwrap(driverPIDs().first, "WPEWebDriver runs")
        XCTAssertTrue(SocketTable.listeners(port: port, inNamespaceOf: driver).contains("127.0.0.1"), "it listens in the shard's namespace")
        XCTAssertFalse(Loopback.canConnect(port), "and the host's namespace cannot reach it")
        XCTAssertEqual(SocketTable.listeners(port: port), [], "nor lists it")

        XCTAssertEqual(webKit.ensure(shard: 0, port: port, networkNamespace: namespace), first)
        XCTAssertEqual(driverPIDs(), [driver], "a running driver is kept")

        webKit.replace(shard: 0)
        XCTAssertEqual(driverPIDs(), [], "replace kills it")
        XCTAssertFalse(FileManager.default.fileExists(atPath: first.directory.path))
        XCTAssertNotNil(webKit.ensure(shard: 0, port: port, networkNamespace: namespace))
        XCTAssertEqual(driverPIDs().count, 1, "the next batch gets a new one")
        webKit.shutDown()
        XCTAssertEqual(driverPIDs(), [])
    }

    /// WPEWebDriver processes that are children of this test process.
    private static func driverPIDs() -> [Int32] {
        let me = getpid()
        return ProcessTable.pids().filter { pid in
            ProcessTable.parent(of: pid) == me && ProcessTable.isRunning(pid)
                && (ProcessTable.commandLine(of: pid).first.map { ($0 as NSString).lastPathComponent } == "WPEWebDriver")
        }
    }
}
