import Foundation
import TestSupport
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// `robotci mock` records every request; bodies up to the 16 MiB limit used to be kept whole,
/// so a client posting big bodies grew the process without bound (issue 39). A stream of
/// 64 bodies of 16 MiB (1 GiB in all, on loopback) must leave its memory bounded.
final class MockMemoryEndToEndTests: XCTestCase {
    /// `VmHWM` (peak resident set) and `VmRSS` of `pid`, in MiB.
    private func memory(of pid: Int32) -> (peak: Int, now: Int) {
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        func field(_ name: String) -> Int {
            let line = status.split(separator: "\n").first { $0.hasPrefix(name + ":") } ?? ""
            return (Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0) / 1024
        }
        return (field("VmHWM"), field("VmRSS"))
    }

    /// Sends all of `bytes` on `fd`.
    private func send(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let sent = Glibc.send(fd, bytes.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
            guard sent > 0 else { return false }
            offset += sent
        }
        return true
    }

    /// The status of the one response on `fd` (the server closes after it).
    private func readStatus(_ fd: Int32) -> Int? {
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while !received.contains(10) {
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { break }
            received += chunk[..<count]
        }
        let line = String(decoding: received.prefix { $0 != 13 && $0 != 10 }, as: UTF8.self)
        return line.split(separator: " ").dropFirst().first.flatMap { Int($0) }
    }

    func testAStreamOfBigBodiesLeavesTheMockBounded() throws {
        let dir = E2E.temporaryDirectory("mock-memory")
        defer { try? FileManager.default.removeItem(at: dir) }
        let scenario = dir.appendingPathComponent("upload.yaml")
        try """
            routes:
              - method: POST
                path: /upload
                text: stored
            """.write(to: scenario, atomically: true, encoding: .utf8)
        let port = try XCTUnwrap(Loopback.freePort())
        let mock = Process()
        mock.executableURL = URL(fileURLWithPath: E2E.robotci)
        mock.arguments = ["mock", "--scenario", scenario.path, "--port", String(port)]
        mock.standardOutput = FileHandle.nullDevice
        mock.standardError = FileHandle.nullDevice
        try mock.run()
        defer {
            if mock.isRunning { kill(mock.processIdentifier, SIGKILL) }
            mock.waitUntilExit()
        }
        let deadline = Date().addingTimeInterval(20)
        while !Loopback.canConnect(port) && Date() < deadline { usleep(50_000) }
        XCTAssertTrue(Loopback.canConnect(port), "robotci mock listens on \(port)")
        let start = memory(of: mock.processIdentifier)

        let size = 16 << 20
        var body = [UInt8](repeating: 0, count: size)
        for i in body.indices { body[i] = UInt8(truncatingIfNeeded: 97 + i % 26) }
        let began = Date()
        var answered = 0
        for n in 0..<64 {  // a bounded loop: 64 × 16 MiB = 1 GiB
            guard let fd = Loopback.connect(port: port) else { XCTFail("connect \(n)"); break }
            defer { close(fd) }
            let head = "POST /upload HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nContent-Length: \(size)\r\nConnection: close\r\n\r\n"
            let sent = Array(head.utf8).withUnsafeBytes { send(fd, $0) } && body.withUnsafeBytes { send(fd, $0) }
            XCTAssertTrue(sent, "request \(n) sent")
            XCTAssertEqual(readStatus(fd), 200, "request \(n)")
            answered += 1
        }
        let seconds = Date().timeIntervalSince(began)
        let end = memory(of: mock.processIdentifier)
        print("robotci mock after \(answered) × 16 MiB POST bodies (\(answered * 16) MiB) in \(String(format: "%.1f", seconds)) s: "
              + "RSS \(start.now) MiB before, \(end.now) MiB after, peak (VmHWM) \(end.peak) MiB")
        XCTAssertEqual(answered, 64)
        XCTAssertLessThan(end.peak, 256, "peak RSS \(end.peak) MiB for 1 GiB of bodies")
        XCTAssertLessThan(end.now, 256, "RSS \(end.now) MiB after 1 GiB of bodies")
        kill(mock.processIdentifier, SIGTERM)
    }
}
