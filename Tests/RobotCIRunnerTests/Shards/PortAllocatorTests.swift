import Foundation
@testable import RobotCIRunner
import TestSupport
import XCTest
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

final class PortAllocatorTests: XCTestCase {
    /// A listening socket on 127.0.0.1 (port 0: the OS picks), closed in tearDown.
    private var held: [Int32] = []

    override func tearDown() {
        for fd in held { close(fd) }
        held = []
    }

    private func hold(port: Int) throws -> Int {
        guard let fd = Loopback.listen(port: port), let bound = Loopback.boundPort(fd) else {
            throw XCTSkip("cannot hold 127.0.0.1:\(port): errno \(errno)")
        }
        held.append(fd)
        return bound
    }

    /// A base port whose next `count` ports are free right now.
    private func freeRange(_ count: Int) throws -> Int {
        for base in stride(from: 20_000, to: 30_000, by: 97) where (base..<base + count).allSatisfy(Loopback.isFree) {
            return base
        }
        throw XCTSkip("no \(count) consecutive free ports found")
    }

    func testPortsAreDistinctAcrossSlots() {
        let allocator = PortAllocator(basePort: nil)
        var ports: [Int] = []
        for shard in 0..<8 {
            let p = allocator.ports(forShard: shard)
            XCTAssertNotEqual(p.mock, p.webDriver)
            ports += [p.mock, p.webDriver]
        }
        XCTAssertEqual(Set(ports).count, 16, "\(ports)")
        XCTAssertTrue(ports.allSatisfy { (1..<65536).contains($0) })
    }

    func testPortsAreStableForASlotWhileFree() {
        let allocator = PortAllocator(basePort: nil)
        let first = allocator.ports(forShard: 3)
        XCTAssertEqual(allocator.ports(forShard: 3), first)
    }

    func testBasePortGivesTwoPortsPerSlot() throws {
        let base = try freeRange(8)
        let allocator = PortAllocator(basePort: base)
        for shard in 0..<4 {
            XCTAssertEqual(allocator.ports(forShard: shard), PortAllocator.ShardPorts(mock: base + 2 * shard, webDriver: base + 2 * shard + 1))
        }
        XCTAssertEqual(allocator.ports(forShard: 2), PortAllocator.ShardPorts(mock: base + 4, webDriver: base + 5), "asked again")
    }

    func testHeldBasePortIsReplaced() throws {
        let taken = try hold(port: 0)
        let allocator = PortAllocator(basePort: taken)
        XCTAssertFalse(Loopback.isFree(taken))
        let ports = allocator.ports(forShard: 0)
        XCTAssertNotEqual(ports.mock, taken)
        XCTAssertNotEqual(ports.mock, ports.webDriver)
        XCTAssertTrue(Loopback.isFree(ports.mock))
    }

    func testPortTakenAfterAssignmentIsReplacedOnTheNextBatch() throws {
        let allocator = PortAllocator(basePort: nil)
        let before = allocator.ports(forShard: 0)
        let other = allocator.ports(forShard: 1)
        _ = try hold(port: before.mock)  // a foreign process grabbed it between batches
        let after = allocator.ports(forShard: 0)
        XCTAssertNotEqual(after.mock, before.mock)
        XCTAssertEqual(after.webDriver, before.webDriver)
        XCTAssertFalse([other.mock, other.webDriver, after.webDriver].contains(after.mock))
        XCTAssertEqual(allocator.ports(forShard: 0), after, "the replacement is remembered")
    }

    func testIsFree() throws {
        XCTAssertFalse(Loopback.isFree(0))
        XCTAssertFalse(Loopback.isFree(-1))
        XCTAssertFalse(Loopback.isFree(65536))
        let port = try hold(port: 0)
        XCTAssertFalse(Loopback.isFree(port))
        close(held.removeLast())
        XCTAssertTrue(Loopback.isFree(port))
    }

    func testOSAssignedPort() throws {
        let port = try XCTUnwrap(Loopback.freePort())
        XCTAssertTrue((1024..<65536).contains(port))
    }
}
