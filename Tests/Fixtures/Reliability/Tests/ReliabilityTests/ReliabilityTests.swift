import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif

private let environment = ProcessInfo.processInfo.environment
/// Folder the end-to-end test watches (and writes "go" files into); nil outside it.
private let stateDirectory = environment["RELIABILITY_STATE"]

/// Records "<test> <start time>" in `running-<pid>`, so the killer knows which test this
/// process is running right now and since when.
private func announce(_ test: String) {
    guard let dir = stateDirectory else { return }
    let text = "\(test) \(Date().timeIntervalSince1970)\n"
    try? text.write(toFile: "\(dir)/running-\(getpid())", atomically: true, encoding: .utf8)
}

/// Tests that take a moment each (RELIABILITY_SLEEP seconds, default 0.6).
final class SlowTests: XCTestCase {
    private func work(_ name: String = #function) {
        announce("SlowTests/\(name.replacingOccurrences(of: "()", with: ""))")
        Thread.sleep(forTimeInterval: Double(environment["RELIABILITY_SLEEP"] ?? "") ?? 0.6)
    }

    func test01() { work() }
    func test02() { work() }
    func test03() { work() }
    func test04() { work() }
    func test05() { work() }
    func test06() { work() }
    func test07() { work() }
    func test08() { work() }
    func test09() { work() }
    func test10() { work() }
    func test11() { work() }
    func test12() { work() }
    func test13() { work() }
    func test14() { work() }
    func test15() { work() }
    func test16() { work() }
    func test17() { work() }
    func test18() { work() }
    func test19() { work() }
    func test20() { work() }
    func test21() { work() }
    func test22() { work() }
    func test23() { work() }
    func test24() { work() }
}

/// Hangs until robotci's --test-timeout (or a signal) ends it.
final class HangTests: XCTestCase {
    func testHangs() {
        guard stateDirectory != nil else { return }
        announce("HangTests/testHangs")
        print("hanging on purpose")
        Thread.sleep(forTimeInterval: 3600)
    }
}

/// Starts `/bin/sleep 3600` that calls setsid() (POSIX_SPAWN_SETSID): it leaves the test's
/// process group and session, so killing the group does not reach it, and it keeps the
/// test's stdout pipe open. Only a child subreaper can still find it.
final class EscapeTests: XCTestCase {
    func testSpawnsAGrandchildThatCallsSetsid() throws {
        guard stateDirectory != nil else { return }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // POSIX_SPAWN_SETSID (glibc 2.26+): the child calls setsid() before exec.
        posix_spawnattr_setflags(&attributes, Int16(0x80))
        var pid: pid_t = 0
        let argv: [UnsafeMutablePointer<CChar>?] = [strdup("/bin/sleep"), strdup("3600"), nil]
        defer { argv.forEach { free($0) } }
        let rc = posix_spawn(&pid, "/bin/sleep", nil, &attributes, argv, environ)
        XCTAssertEqual(rc, 0, "posix_spawn: \(String(cString: strerror(rc)))")
        var session: pid_t = -1
        for _ in 0..<100 where session != pid {
            session = getsid(pid)
            usleep(10_000)
        }
        print("escaped grandchild pid \(pid) session \(session) (test process group \(getpgrp()))")
        XCTAssertEqual(session, pid, "the grandchild leads its own session")
        XCTAssertNotEqual(getpgid(pid), getpgrp(), "the grandchild left the test's process group")
        Thread.sleep(forTimeInterval: 0.3)
    }
}

/// Each test reports the ROBOTCI_MOCK_PORT it was given and whether it could bind it (as
/// a mock server would), then waits for the end-to-end test's "go-<test>" file.
final class PortTests: XCTestCase {
    private func probe(_ name: String = #function) {
        guard let dir = stateDirectory, let text = environment["ROBOTCI_MOCK_PORT"], let port = Int(text) else { return }
        let test = name.replacingOccurrences(of: "()", with: "")
        let bound = canListen(on: port)
        try? "\(port) \(bound)\n".write(toFile: "\(dir)/port-\(test)", atomically: true, encoding: .utf8)
        let deadline = Date().addingTimeInterval(15)
        while !FileManager.default.fileExists(atPath: "\(dir)/go-\(test)") && Date() < deadline { usleep(20_000) }
        XCTAssertTrue(bound, "ROBOTCI_MOCK_PORT \(port) could not be bound: another process holds it")
    }

    func testA() { probe() }
    func testB() { probe() }
    func testC() { probe() }
    func testD() { probe() }

    private func canListen(on port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 && listen(fd, 1) == 0
            }
        }
    }
}

/// Passes, fails and crashes without printing any secret of the environment.
final class QuietTests: XCTestCase {
    /// Prints one variable that is not secret (so a search of the report can find something).
    func testA_Passes() { print("public probe: \(environment["RELIABILITY_PUBLIC_PROBE"] ?? "-")") }
    func testB_Fails() { XCTFail("failing on purpose") }
    func testC_Crashes() {
        guard stateDirectory != nil else { return }
        print("about to crash")
        let values: [Int] = []
        _ = values[1]
    }
}

/// About 600 KB of output: enough to fill a small disk with its batch log.
final class LoudTests: XCTestCase {
    func testPrintsSixHundredKilobytes() {
        let line = String(repeating: "x", count: 100)
        for i in 0..<6_000 { print("\(i) \(line)") }
    }
}
