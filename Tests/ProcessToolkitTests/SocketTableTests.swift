import Foundation
@testable import LoopbackSockets
@testable import ProcessToolkit
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// The socket table is read from the kernel, whole, and parsed row by row.
final class SocketTableTests: XCTestCase {
    /// procfs files report size 0; Foundation's readers stop after one page of them. The
    /// reader used for /proc reads to the end: this process's memory map is several pages.
    func testProcfsFilesAreReadToTheEndNotOnePage() throws {
        let maps = try XCTUnwrap(ProcessTable.contents(of: "/proc/self/maps"))
        XCTAssertGreaterThan(maps.count, 8192, "a Swift test process maps more than two pages of lines")
        let text = String(decoding: maps, as: UTF8.self)
        XCTAssertTrue(text.hasSuffix("\n"), "the last row is whole")
        XCTAssertTrue(text.contains("[stack]"), "rows from past the first page are there")
    }

    /// A read that fails after the open (`/proc/PID/stat` of a process that exits in between
    /// fails with ESRCH; a directory with EISDIR) is nil, never a trap: Foundation's
    /// `readDataToEndOfFile()` traps there, and took a queue machine down mid-run.
    func testAReadThatFailsAfterTheOpenIsNilNotACrash() {
        XCTAssertNil(ProcessTable.contents(of: NSTemporaryDirectory()), "open succeeds on a directory, read fails")
        XCTAssertNil(ProcessTable.contents(of: "/proc/no-such-process/stat"))
        // Processes that exit while their stat is read: the reaper's reads, many times over.
        for _ in 0..<50 {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: "/bin/true")
            guard (try? p.run()) != nil else { continue }
            let deadline = Date().addingTimeInterval(5)
            while ProcessTable.parent(of: p.processIdentifier) != nil && Date() < deadline {}
            p.waitUntilExit()
        }
    }

    /// A listener past the first page of a busy table is found; other states, ports and
    /// malformed rows are not.
    func testParsesListenersAnywhereInTheTable() {
        let header = "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n"
        // 8080 = 0x1F90. A connected row (01) and a TIME_WAIT row (06) on the same port.
        let filler = (0..<200).map { i in
            "  \(i): 0100007F:1F90 0100007F:\(String(format: "%04X", 40000 + i)) 06 00000000:00000000 03:00000ABC 00000000     0        0 0 3 0000000000000000\n"
        }.joined()
        let rows = header + filler
            + "  200: 0100007F:1F90 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 1234 1 0000000000000000 100 0 0 10 0\n"
            + "  201: 00000000:1F91 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 1235 1 0000000000000000 100 0 0 10 0\n"
            + "  202: XYZ:1F90 00000000:0000 0A\n"
            + "  203: 0100007F\n"
        XCTAssertGreaterThan(rows.utf8.count, 4096)
        XCTAssertEqual(SocketTable.listeners(port: 8080, table: rows, v6: false), ["127.0.0.1"])
        XCTAssertEqual(SocketTable.listeners(port: 8081, table: rows, v6: false), ["0.0.0.0"])
        let v6 = header
            + "   0: 00000000000000000000000001000000:1F90 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 1 1 0000000000000000 100 0 0 10 0\n"
            + "   1: 00000000000000000000000000000000:1F90 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 2 1 0000000000000000 100 0 0 10 0\n"
        XCTAssertEqual(SocketTable.listeners(port: 8080, table: v6, v6: true), ["::1", "::"])
    }

    /// A socket this test opens on 127.0.0.1 is seen in the live table, at that address only.
    func testSeesALiveLoopbackListener() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        XCTAssertGreaterThanOrEqual(fd, 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        XCTAssertEqual(bound, 0)
        XCTAssertEqual(listen(fd, 1), 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        let port = Int(UInt16(bigEndian: address.sin_port))
        XCTAssertEqual(SocketTable.listeners(port: port), ["127.0.0.1"])
    }
}
